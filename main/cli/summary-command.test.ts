// `session-vault summary` as a script uses it: print, set from a file or standard input, clear, clear refusals, and found by `search`.
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../test-support/run-cli.ts';
import { jidoSession } from '../test-support/session-files.ts';
import { fastSearch } from './search-fast-path.ts';

let base: string;
let root: string;
const run = (args: string[], input?: string): Promise<CliRun> =>
  runCli([...args, '--root', root, '--no-defaults'], { base, ...(input === undefined ? {} : { input }) });

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-summary-cli-'));
  root = join(base, 'root');
  await mkdir(join(root, '.jido_code', 'sessions'), { recursive: true });
  await writeFile(join(root, '.jido_code', 'sessions', 'j-1.json'), jidoSession('j-1', 'nightly-etl'));
});
afterAll(async () => rm(base, { recursive: true, force: true }));

describe('session-vault summary', () => {
  it('sets a summary from a file, prints it as text and JSON, and clears it', async () => {
    expect((await run(['summary', 'j-1'])).stdout).toBe('jido-code:j-1 has no summary.\n');
    const file = join(base, 'summary.json');
    await writeFile(
      file,
      JSON.stringify({ overview: 'Fixed the nightly ETL build.', decisions: ['Pin the driver'], openItems: ['Add a canary'], tags: ['etl'] }),
    );
    const set = await run(['summary', 'j-1', '--set', file]);
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/^Summary of jido-code:j-1, by cli, \d{4}-\d\d-\d\dT.+ \(from the vault\)\n/);
    expect(set.stdout).toContain(
      'Overview\n  Fixed the nightly ETL build.\nKey decisions\n  - Pin the driver\nOutcomes\n  (none)\nOpen items\n  - [ ] Add a canary\nTags: etl\n',
    );

    const json = JSON.parse((await run(['summary', 'jido-code:j-1', '--json'])).stdout) as { key: string; summary: Record<string, unknown> };
    expect(json).toMatchObject({ key: 'jido-code:j-1', summary: { overview: 'Fixed the nightly ETL build.', outcomes: [], source: 'vault', author: 'cli' } });

    const cleared = await run(['summary', 'j-1', '--clear', '--json']);
    expect(JSON.parse(cleared.stdout)).toEqual({ key: 'jido-code:j-1', summary: null });
  });

  it('reads the summary from standard input with "--set -"', async () => {
    const set = await run(['summary', 'j-1', '--set', '-', '--json'], JSON.stringify({ overview: 'From a pipe.' }));
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ summary: { overview: 'From a pipe.', decisions: [], tags: [] } });
  });

  it('refuses a file that is not JSON, or a summary without an overview, naming the problem and changing nothing', async () => {
    const before = (await run(['summary', 'j-1', '--json'])).stdout;
    const notJson = join(base, 'broken.json');
    await writeFile(notJson, '{"overview": ');
    const broken = await run(['summary', 'j-1', '--set', notJson]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(`session-vault summary: ${notJson} is not JSON:`);
    const empty = join(base, 'empty.json');
    await writeFile(empty, JSON.stringify({ overview: '', tags: ['x'] }));
    const refused = await run(['summary', 'j-1', '--set', empty]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('summary.overview');
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect((await run(['summary', 'j-1', '--json'])).stdout).toBe(before);
  });

  it('is found by "session-vault search", by its words and has:summary, also when search answers from the index alone', async () => {
    const file = join(base, 'searchable.json');
    await writeFile(file, JSON.stringify({ overview: 'Moved the marmalade queue to batches.', tags: ['queues'] }));
    expect((await run(['summary', 'j-1', '--set', file])).code).toBe(0);
    const keys = async (query: string) => {
      const out = await run(['search', query, '--json']);
      expect(out.code, out.stderr).toBe(0);
      return (JSON.parse(out.stdout) as { results: Array<{ summary: { key: string } }> }).results.map((r) => r.summary.key);
    };
    expect(await keys('marmalade')).toEqual(['jido-code:j-1']);
    // The files an hour old, as on a machine: after this full run, search answers from the index (search-fast-path.ts).
    const past = new Date(Date.now() - 3_600_000);
    for (const path of [join(root, '.jido_code', 'sessions', 'j-1.json'), join(root, '.jido_code', 'sessions'), join(root, '.jido_code'), root]) {
      await utimes(path, past, past);
    }
    expect(await keys('queues')).toEqual(['jido-code:j-1']);
    const env = { ...process.env, SESSION_VAULT_HOME: join(base, 'data'), HOME: join(base, 'home') };
    const fast = await fastSearch(join(base, 'data'), { roots: [root], noDefaults: true }, env, { query: 'marmalade', limit: 20, offset: 0 });
    expect(fast?.results.map((r) => r.summary.key)).toEqual(['jido-code:j-1']);
    const summarized = await fastSearch(join(base, 'data'), { roots: [root], noDefaults: true }, env, { query: 'has:summary', limit: 20, offset: 0 });
    expect(summarized?.results.map((r) => r.summary.key)).toEqual(['jido-code:j-1']);
    expect((await run(['summary', 'j-1', '--clear'])).code).toBe(0);
    expect(await keys('marmalade')).toEqual([]);
  });

  it("has its own help, listed in the tool's", async () => {
    expect((await runCli(['help', 'summary'], { base })).stdout).toContain('Usage: session-vault summary <session>');
    expect((await runCli(['--help'], { base })).stdout).toMatch(/summary\s+print or set a session's structured summary/);
    expect((await runCli(['help', 'mcp'], { base })).stdout).toContain('session_update_summary');
  });
});
