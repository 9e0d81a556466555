// Sums and reports held finite: the largest number there is in place of Infinity, 0 for NaN, and a report with none left as it is.
import { describe, expect, it } from 'vitest';
import { heldFinite, heldSum } from './held-sum.ts';

describe('held sums', () => {
  it('add two counts, held at the largest number there is', () => {
    expect(heldSum(2, 3)).toBe(5);
    expect(heldSum(1e308, 1e308)).toBe(Number.MAX_VALUE);
  });

  it('hold every number of a report finite, and leave a report without one untouched', () => {
    const damaged = { totals: { input: Infinity, costUsd: NaN }, rows: [{ day: '2026-01-01', output: -Infinity, tokens: 5 }] };
    expect(heldFinite(damaged)).toEqual({
      totals: { input: Number.MAX_VALUE, costUsd: 0 },
      rows: [{ day: '2026-01-01', output: -Number.MAX_VALUE, tokens: 5 }],
    });
    const sound = { totals: { input: 3 }, rows: [{ day: '2026-01-01', tokens: 5 }] };
    expect(heldFinite(sound)).toBe(sound);
  });
});
