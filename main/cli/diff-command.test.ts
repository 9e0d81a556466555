// `session-vault diff` as a user runs it: JSON that is the app's comparison, readable text, and clear errors.
import { runCli, type CliRun } from '../test-support/run-cli.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Comparison } from '../../shared/compare/comparison.ts';
import { CLAUDE_KEY, CODEX_KEY, COMPARE_FIXTURES } from '../compare/fixture-paths.ts';

let base: string;

const run = (args: string[]): Promise<CliRun> => runCli(['diff', ...args, '--root', COMPARE_FIXTURES, '--no-defaults'], { base });

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-diff-'));
});
afterAll(async () => rm(base, { recursive: true, force: true }));

describe('session-vault diff', () => {
  it('--json prints the comparison the app shows, valid against the contract', async () => {
    const { code, stdout } = await run([CLAUDE_KEY, CODEX_KEY, '--json']);
    expect(code).toBe(0);
    const c = Comparison.parse(JSON.parse(stdout));
    expect([c.a.key, c.b.key]).toEqual([CLAUDE_KEY, CODEX_KEY]);
    expect(c.stats).toEqual({ same: 2, changed: 2, inserted: 1, deleted: 1 });
    expect(c.header.find((h) => h.label === 'Duration')?.delta).toBe('+2m 12s, 2.1× slower');
    expect(c.rows[3]?.promptDiff).toEqual([
      { op: 'eq', text: 'Run the tests' },
      { op: 'ins', text: ' please' },
      { op: 'eq', text: '.' },
    ]);
  });

  it('accepts ids and the start of an id, and prints text with word diffs and folded identical turns', async () => {
    const { code, stdout } = await run(['5b0d7c1e-3f2a-4c8d-9e6b-1a2b3c4d5e60', '0195a000']);
    expect(code).toBe(0);
    expect(stdout).toContain(`A  ${CLAUDE_KEY}  Webhook retry backoff`);
    expect(stdout).toMatch(/Duration\s+2m 00s\s+4m 12s\s+\+2m 12s, 2\.1× slower/);
    expect(stdout).toContain('= 1-2       2 identical turns');
    expect(stdout).toContain('~ 4 ↔ 4     Run the tests{+ please+}.');
    expect(stdout).toContain('- 5 ↔ —     Add a changelog entry.');
    expect(stdout).toMatch(/\+ src\/backoff\.rs\s+—\s+A/);
  });

  it('says which reference matched nothing, with exit code 1', async () => {
    const { code, stderr } = await run(['no-such-session', CODEX_KEY]);
    expect(code).toBe(1);
    expect(stderr).toContain('session-vault diff: No session matches "no-such-session"');
  });

  it('asks for exactly two sessions (exit code 2)', async () => {
    const { code, stderr } = await run([CLAUDE_KEY]);
    expect(code).toBe(2);
    expect(stderr).toContain('give exactly two sessions to compare (got 1)');
  });
});
