// The token total of a session: every bucket, or nothing when nothing was recorded or damaged counts overflow.
import { describe, expect, it } from 'vitest';
import { totalTokens } from './summarize.ts';

describe('totalTokens', () => {
  it('sums every bucket, reasoning too', () => {
    expect(totalTokens({ input: 1, output: 2, cacheRead: 3, cacheWrite: 4, reasoning: 5 })).toBe(15);
  });

  it('is null with no usage, and when damaged counts add up past any number (not Infinity, which printed as "tokens: Infinity")', () => {
    expect(totalTokens(null)).toBeNull();
    expect(totalTokens({ input: Number.MAX_VALUE, output: Number.MAX_VALUE, cacheRead: 0, cacheWrite: 0, reasoning: 0 })).toBeNull();
  });
});
