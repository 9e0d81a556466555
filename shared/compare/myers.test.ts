// Myers' diff finds a longest common subsequence: checked against the textbook dynamic programme on random inputs.
import { describe, expect, it } from 'vitest';
import { commonPairs } from './myers.ts';

function lcsLength(a: number[], b: number[]): number {
  const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      dp[i]![j] = a[i - 1] === b[j - 1] ? dp[i - 1]![j - 1]! + 1 : Math.max(dp[i - 1]![j]!, dp[i]![j - 1]!);
    }
  }
  return dp[a.length]![b.length]!;
}

function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

describe('commonPairs', () => {
  it('pairs equal items in increasing order and finds the longest common subsequence', () => {
    const rnd = random(7);
    for (let round = 0; round < 300; round++) {
      const a = Array.from({ length: Math.floor(rnd() * 30) }, () => Math.floor(rnd() * 5));
      const b = Array.from({ length: Math.floor(rnd() * 30) }, () => Math.floor(rnd() * 5));
      const pairs = commonPairs(a, b);
      for (const [i, j] of pairs) expect(a[i]).toBe(b[j]);
      for (let k = 1; k < pairs.length; k++) {
        expect(pairs[k]![0]).toBeGreaterThan(pairs[k - 1]![0]);
        expect(pairs[k]![1]).toBeGreaterThan(pairs[k - 1]![1]);
      }
      expect(pairs.length).toBe(lcsLength(a, b));
    }
  });

  it('handles empty and identical inputs', () => {
    expect(commonPairs([], [1, 2])).toEqual([]);
    expect(commonPairs([1, 2, 3], [1, 2, 3])).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
  });

  it('gives up on a range past the cost limit instead of searching it exhaustively', () => {
    const a = Array.from({ length: 2000 }, (_, i) => i);
    const b = Array.from({ length: 2000 }, (_, i) => 10_000 + i);
    b[1000] = 1000;
    expect(commonPairs(a, b, 50)).toEqual([]);
    expect(commonPairs(a, b)).toEqual([[1000, 1000]]);
  });
});
