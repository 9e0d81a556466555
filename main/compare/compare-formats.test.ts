// Cross-format comparison: the same task in Claude Code and in Codex lines up turn by turn through the canonical model.
import { describe, expect, it } from 'vitest';
import { compareSessions } from '../../shared/compare/compare.ts';
import { Comparison } from '../../shared/compare/comparison.ts';
import { sideText } from '../../shared/compare/word-diff.ts';
import type { Session } from '../../shared/session.ts';
import { findReader } from '../sources/registry.ts';
import { CLAUDE_FILE, CODEX_FILE } from './fixture-paths.ts';

async function read(path: string): Promise<Session> {
  const reader = findReader(path);
  if (!reader) throw new Error(`no reader claims ${path}`);
  return reader.read(path);
}

const header = (c: Comparison, label: string) => c.header.find((h) => h.label === label);

describe('comparing a Claude Code session with a Codex one', async () => {
  const claude = await read(CLAUDE_FILE);
  const codex = await read(CODEX_FILE);
  const c = compareSessions(claude, codex);

  it('produces a comparison that satisfies the contract', () => {
    expect(Comparison.safeParse(c).success).toBe(true);
    expect([c.a.format, c.b.format]).toEqual(['claude-code', 'codex']);
  });

  it('aligns the turns by their prompts: two identical, two changed, one only in each', () => {
    expect(c.rows.map((r) => `${r.status}:${r.a ?? '-'}/${r.b ?? '-'}`)).toEqual([
      'same:0/0',
      'same:1/1',
      'changed:2/2',
      'changed:3/3',
      'deleted:4/-',
      'inserted:-/4',
    ]);
    // Codex's injected environment context is not a prompt.
    expect(c.b.turns[0]?.prompt).toBe('Where is the webhook retry loop?');
  });

  it('matches Bash with shell and Edit with apply_patch, comparing what they act on', () => {
    const steps = c.rows[2]!.steps;
    expect(steps.map((s) => [s.status, s.aspects])).toEqual([
      ['deleted', []],
      ['same', []],
      ['changed', ['args']],
      ['changed', ['text']],
    ]);
    expect(sideText(steps[2]!.diff!, 'a')).toBe('src/webhook.rs');
    expect(sideText(steps[2]!.diff!, 'b')).toBe('src/webhook.rs, src/backoff.rs');
    expect(steps[3]!.diff!.filter((d) => d.op === 'ins')).toEqual([{ op: 'ins', text: ', capped at 5 attempts' }]);
  });

  it('shows the edited prompt as a word diff', () => {
    expect(c.rows[3]!.promptDiff).toEqual([
      { op: 'eq', text: 'Run the tests' },
      { op: 'ins', text: ' please' },
      { op: 'eq', text: '.' },
    ]);
  });

  it('puts model, duration, tool calls and tokens side by side with their deltas', () => {
    expect(header(c, 'Model')).toMatchObject({ a: 'anthropic / claude-sonnet-4-5-20250929', b: 'openai / gpt-5.1-codex', same: false });
    expect(header(c, 'Branch')).toMatchObject({ a: 'feature/retry-backoff', same: true });
    expect(header(c, 'Duration')).toMatchObject({ a: '2m 00s', b: '4m 12s', delta: '+2m 12s, 2.1× slower' });
    expect(header(c, 'Tool calls')).toMatchObject({ a: '4', b: '6', delta: '+2, +50%' });
    expect(header(c, 'Tool errors')?.delta).toBe('+1');
    expect(header(c, 'Reasoning tokens')).toMatchObject({ a: '0', b: '2,070', delta: '+2,070 tokens' });
  });

  it('lists the files touched as a set diff, Claude Code absolute paths and Codex patch paths meeting', () => {
    expect(c.files.map((f) => [f.path, f.a.join(), f.b.join(), f.status])).toEqual([
      ['CHANGELOG.md', 'A', '', 'only-a'],
      ['src/backoff.rs', '', 'A', 'only-b'],
      ['src/webhook.rs', 'M', 'M', 'same'],
      ['tests/webhook.rs', '', 'M', 'only-b'],
    ]);
  });

  it('gives each side a cumulative token line for the chart', () => {
    expect(c.a.cumulativeTokens).toHaveLength(5);
    expect(c.a.cumulativeTokens.at(-1)).toBe(46_525);
    expect([...c.b.cumulativeTokens].sort((x, y) => x - y)).toEqual(c.b.cumulativeTokens);
  });

  it('keeps two unrelated sessions of different formats apart', async () => {
    const ledger = await read(
      new URL('../sources/claude-code/fixtures/projects/-home-dev-proj-ledger/9f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f.jsonl', import.meta.url).pathname,
    );
    const harbor = await read(
      new URL('../sources/codex/fixtures/.codex/sessions/2026/02/14/rollout-2026-02-14T10-30-00-0194f3a2-7c1d-7e00-9a5b-3c4d5e6f7a01.jsonl', import.meta.url)
        .pathname,
    );
    const u = compareSessions(ledger, harbor);
    expect(u.stats).toEqual({ same: 0, changed: 0, inserted: 3, deleted: 2 });
    expect(header(u, 'Project')).toMatchObject({ a: '/home/dev/proj/ledger', b: '/home/dev/src/harbor-api', same: false });
    // A Claude Code sub-agent run and Codex's turns and tool operations have nothing in common.
    const count = (status: string) => u.operationRows.filter((r) => r.status === status).length;
    expect([count('deleted'), count('inserted')]).toEqual([u.a.operations.length, u.b.operations.length]);
    expect(u.a.operations.map((o) => o.type)).toEqual(['subagent']);
  });
});
