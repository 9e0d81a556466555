// Swapping sides turns insertions into deletions, flips word diffs and reverses the deltas, and twice is the original.
import { describe, expect, it } from 'vitest';
import { compareSessions } from './compare.ts';
import { swapComparison } from './swap.ts';
import { BASE_TURNS, testSession } from './test-sessions.ts';
import { sideText } from './word-diff.ts';

const a = testSession('vault:a', BASE_TURNS);
const b = testSession('vault:b', [
  BASE_TURNS[0]!,
  { ...BASE_TURNS[1]!, prompt: 'Make the retry use exponential backoff with jitter and keep the maximum at five attempts.', tokens: 6000 },
  BASE_TURNS[2]!,
]);

describe('swapComparison', () => {
  const c = compareSessions(a, b);
  const s = swapComparison(c);

  it('puts B on the left: deleted turns become inserted ones', () => {
    expect(c.rows.map((r) => r.status)).toEqual(['same', 'changed', 'same', 'deleted']);
    expect(s.rows.map((r) => r.status)).toEqual(['same', 'changed', 'same', 'inserted']);
    expect([s.a.key, s.b.key]).toEqual(['vault:b', 'vault:a']);
    expect(s.stats).toMatchObject({ inserted: 1, deleted: 0 });
  });

  it('flips the word diff so it rebuilds the new left side from the new right', () => {
    const diff = s.rows[1]!.promptDiff!;
    expect(sideText(diff, 'a')).toBe('Make the retry use exponential backoff with jitter and keep the maximum at five attempts.');
    expect(sideText(diff, 'b')).toBe(BASE_TURNS[1]!.prompt);
    expect(diff.filter((d) => d.op === 'del').map((d) => d.text.trim())).toEqual(['with jitter']);
  });

  it('reverses header deltas', () => {
    const total = (x: typeof c) => x.header.find((h) => h.label === 'Total tokens')!;
    expect(total(c).delta).toBe('+1,500 tokens, +20%');
    expect(total(s)).toMatchObject({ a: '9,000', b: '7,500', delta: '-1,500 tokens, -17%' });
  });

  it('swapped twice is the original', () => {
    expect(swapComparison(s)).toEqual(c);
  });
});
