// The turn alignment on hand-made pairs: identical, one turn inserted, deleted or edited, reordered tool calls, unrelated sessions.
import { describe, expect, it } from 'vitest';
import { compareSessions } from './compare.ts';
import type { Comparison } from './comparison.ts';
import type { TurnSpec } from './test-sessions.ts';
import { BASE_TURNS, testSession } from './test-sessions.ts';
import { sideText } from './word-diff.ts';

const statuses = (c: Comparison) => c.rows.map((r) => `${r.status}:${r.a ?? '-'}/${r.b ?? '-'}`);
const compare = (a: TurnSpec[], b: TurnSpec[]) => compareSessions(testSession('vault:a', a), testSession('vault:b', b));

describe('compareSessions', () => {
  it('finds two identical sessions identical, turn for turn', () => {
    const c = compare(BASE_TURNS, BASE_TURNS);
    expect(statuses(c)).toEqual(['same:0/0', 'same:1/1', 'same:2/2', 'same:3/3']);
    expect(c.stats).toEqual({ same: 4, changed: 0, inserted: 0, deleted: 0 });
    expect(c.rows.every((r) => r.steps.length === 0 && r.promptDiff === null)).toBe(true);
  });

  it('shows a turn only B has as inserted, with a gap on the A side, and keeps the rest aligned', () => {
    const extra: TurnSpec = { prompt: 'Also log every retry at debug level.', steps: ['Logged.'] };
    const b = [BASE_TURNS[0]!, BASE_TURNS[1]!, extra, BASE_TURNS[2]!, BASE_TURNS[3]!];
    const c = compare(BASE_TURNS, b);
    expect(statuses(c)).toEqual(['same:0/0', 'same:1/1', 'inserted:-/2', 'same:2/3', 'same:3/4']);
    expect(c.b.turns[2]?.prompt).toBe('Also log every retry at debug level.');
  });

  it('shows a turn only A has as deleted', () => {
    const b = [BASE_TURNS[0]!, BASE_TURNS[2]!, BASE_TURNS[3]!];
    expect(statuses(compare(BASE_TURNS, b))).toEqual(['same:0/0', 'deleted:1/-', 'same:2/1', 'same:3/2']);
  });

  it('pairs an edited prompt as one changed turn with a word diff of the prompt', () => {
    const edited = { ...BASE_TURNS[1]!, prompt: 'Make the retry use exponential backoff with jitter and keep the maximum at five attempts.' };
    const c = compare(BASE_TURNS, [BASE_TURNS[0]!, edited, BASE_TURNS[2]!, BASE_TURNS[3]!]);
    expect(statuses(c)).toEqual(['same:0/0', 'changed:1/1', 'same:2/2', 'same:3/3']);
    const row = c.rows[1]!;
    const changes = row.promptDiff?.filter((s) => s.op !== 'eq') ?? [];
    expect(changes.map((s) => [s.op, s.text.trim()])).toEqual([['ins', 'with jitter']]);
    expect(sideText(row.promptDiff!, 'a')).toBe(BASE_TURNS[1]!.prompt);
    expect(sideText(row.promptDiff!, 'b')).toBe(edited.prompt);
    // The replies did not change, so every step of the pair is the same.
    expect(row.steps.map((s) => s.status)).toEqual(['same', 'same', 'same']);
  });

  it('marks a changed reply under the same prompt, with a word diff of the text', () => {
    const reply = { ...BASE_TURNS[2]!, steps: [BASE_TURNS[2]!.steps![0]!, 'All 12 tests pass on Node 24.'] };
    const c = compare(BASE_TURNS, [BASE_TURNS[0]!, BASE_TURNS[1]!, reply, BASE_TURNS[3]!]);
    const row = c.rows[2]!;
    expect(row.status).toBe('changed');
    expect(row.promptDiff).toBeNull();
    expect(row.steps.map((s) => [s.status, s.aspects])).toEqual([
      ['same', []],
      ['changed', ['text']],
    ]);
    expect(row.steps[1]!.diff).toEqual([
      { op: 'eq', text: 'All 12 tests pass' },
      { op: 'ins', text: ' on Node 24' },
      { op: 'eq', text: '.' },
    ]);
  });

  it('flags a tool call whose result turned into an error', () => {
    const failing = { ...BASE_TURNS[2]!, steps: [{ tool: 'Bash', input: { command: 'npm test' }, output: '1 failed', error: true }, 'All 12 tests pass.'] };
    const c = compare(BASE_TURNS, [BASE_TURNS[0]!, BASE_TURNS[1]!, failing, BASE_TURNS[3]!]);
    expect(c.rows[2]!.steps[0]).toMatchObject({ status: 'changed', aspects: ['status'], a: 0, b: 0 });
  });

  it('recognises reordered tool calls as moved, not as rewritten', () => {
    const readX = { tool: 'Read', input: { file_path: '/src/app/src/x.ts' }, output: 'x' };
    const readY = { tool: 'Read', input: { file_path: '/src/app/src/y.ts' }, output: 'y' };
    const a: TurnSpec[] = [{ prompt: 'Compare x and y.', steps: [readX, readY, 'They match.'] }];
    const b: TurnSpec[] = [{ prompt: 'Compare x and y.', steps: [readY, readX, 'They match.'] }];
    const row = compare(a, b).rows[0]!;
    expect(row.status).toBe('changed');
    const moved = row.steps.filter((s) => s.moved);
    expect(moved.map((s) => s.status).sort()).toEqual(['deleted', 'inserted']);
    expect(row.steps.filter((s) => s.status === 'same')).toHaveLength(2);
  });

  it('keeps completely different sessions apart: everything deleted or inserted, nothing paired', () => {
    const other: TurnSpec[] = [
      { prompt: 'Draw a pie chart of quarterly revenue.', steps: ['Here is the chart.'] },
      { prompt: 'Translate the README into German.', steps: ['Übersetzt.'] },
    ];
    const c = compare(BASE_TURNS, other);
    expect(c.stats).toEqual({ same: 0, changed: 0, inserted: 2, deleted: 4 });
  });

  it('measures each side: cumulative tokens per turn and a tokens delta in the header', () => {
    const costly = BASE_TURNS.map((t) => ({ ...t, tokens: (t.tokens ?? 0) * 2 }));
    const c = compare(BASE_TURNS, costly);
    expect(c.a.cumulativeTokens).toEqual([1000, 5000, 7000, 7500]);
    expect(c.b.cumulativeTokens).toEqual([2000, 10000, 14000, 15000]);
    expect(c.header.find((h) => h.label === 'Total tokens')).toMatchObject({ a: '7,500', b: '15,000', delta: '+7,500 tokens, +100%' });
    // Token counts are metrics, not differences: the turns themselves are the same.
    expect(c.stats.same).toBe(4);
  });

  it('lists the files each side touched as a set diff', () => {
    const b = [
      ...BASE_TURNS.slice(0, 3),
      { prompt: 'Update the docs.', steps: [{ tool: 'Edit', input: { file_path: '/src/app/README.md', old_string: 'a', new_string: 'b' }, output: 'ok' }] },
    ];
    const files = compare(BASE_TURNS, b).files;
    expect(files).toEqual([
      { path: 'CHANGELOG.md', a: ['A'], b: [], status: 'only-a' },
      { path: 'README.md', a: [], b: ['M'], status: 'only-b' },
      { path: 'src/webhook.ts', a: ['M'], b: ['M'], status: 'same' },
    ]);
  });
});
