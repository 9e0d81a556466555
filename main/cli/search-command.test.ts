// `session-vault search` as a user runs it: marked snippets, JSON with the matching message, filters, usage errors.
import { runCli, type CliRun } from '../test-support/run-cli.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jidoSession, vizierSession } from '../test-support/session-files.ts';

let base: string;
let root: string;

const run = (args: string[]): Promise<CliRun> => runCli(args, { base });

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-cli-search-'));
  root = join(base, 'root');
  await mkdir(join(root, '.jido_code', 'sessions'), { recursive: true });
  await writeFile(join(root, '.jido_code', 'sessions', 'j-1.json'), jidoSession('j-1', 'nightly-etl'));
  await mkdir(join(root, 'orbit', '.vizier', 'sessions', 'v-1'), { recursive: true });
  await writeFile(join(root, 'orbit', '.vizier', 'sessions', 'v-1', 'session.json'), vizierSession('v-1'));
});
afterAll(async () => rm(base, { recursive: true, force: true }));

describe('session-vault search', () => {
  it('prints matching sessions with the hit marked', async () => {
    const { code, stdout } = await run(['search', 'deterministic', '--root', root, '--no-defaults']);
    expect(code).toBe(0);
    expect(stdout).toContain('vizier:v-1');
    expect(stdout).toContain('»deterministic«');
    expect(stdout).not.toContain('jido-code:j-1');
    expect(stdout).toContain('1 of 1 matching session');
  });

  it('prints JSON with the snippet and the matching message, and applies filters', async () => {
    const { code, stdout } = await run(['search', 'source:jido-code build', '--json', '--root', root, '--no-defaults']);
    expect(code).toBe(0);
    const page = JSON.parse(stdout) as {
      total: number;
      results: Array<{ summary: { key: string }; messageIndex: number | null; snippet: Array<{ text: string; hit: boolean }> }>;
    };
    expect(page.total).toBe(1);
    expect(page.results[0]?.summary.key).toBe('jido-code:j-1');
    expect(page.results[0]?.messageIndex).toBe(0);
    expect(page.results[0]?.snippet).toContainEqual({ text: 'build', hit: true });
  });

  it('sorts by the key asked for and prints facet counts with the filter that selects each value', async () => {
    const sorted = await run(['search', '', '--facets', '--sort', 'created', '--json', '--root', root, '--no-defaults']);
    expect(sorted.code).toBe(0);
    const page = JSON.parse(sorted.stdout) as {
      total: number;
      results: Array<{ summary: { key: string } }>;
      facets: Record<string, Array<{ value: string; count: number; filter: string }>>;
    };
    expect(page.results.map((r) => r.summary.key)).toEqual(['vizier:v-1', 'jido-code:j-1']);
    expect(page.facets.source).toEqual([
      { value: 'jido-code', count: 1, filter: 'source:jido-code' },
      { value: 'vizier', count: 1, filter: 'source:vizier' },
    ]);
    const text = await run(['search', 'build', '--facets', '--root', root, '--no-defaults']);
    expect(text.stdout).toContain('source:\n  1  jido-code\n');
    expect(text.stdout).toContain('nightly-etl  (project:"/home/dev/nightly-etl")');
    const wrong = await run(['search', 'x', '--sort', 'newest', '--no-defaults']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--sort must be one of relevance, date, updated, created, size, tokens, cost');
  });

  it('reads a query that starts with a minus as an exclusion, not as an option', async () => {
    const keys = (out: CliRun) => (JSON.parse(out.stdout) as { results: Array<{ summary: { key: string } }> }).results.map((r) => r.summary.key);
    const all = await run(['search', '', '--facets', '--json', '--root', root, '--no-defaults']);
    expect(keys(all).sort()).toEqual(['jido-code:j-1', 'vizier:v-1']);
    for (const args of [['-deterministic'], ['-deterministic', 'source:jido-code'], ['-deterministic source:jido-code']]) {
      const out = await run(['search', ...args, '--json', '--root', root, '--no-defaults']);
      expect(out.stderr).toBe('');
      expect(out.code).toBe(0);
      expect(keys(out)).toEqual(['jido-code:j-1']);
    }
    expect((await run(['search', '-h'])).stdout).toContain('Usage: session-vault search');
  });

  it('refuses a missing query with usage help', async () => {
    const { code, stderr } = await run(['search', '--no-defaults']);
    expect(code).toBe(2);
    expect(stderr).toContain('give a query');
  });
});
