// Counts print grouped by thousands, and a damaged file's count past a quadrillion in the exponent form, not 400 characters wide.
import { describe, expect, it } from 'vitest';
import { countText } from './count-text.ts';

describe('countText', () => {
  it('groups digits by thousands and rounds', () => {
    expect(countText(0)).toBe('0');
    expect(countText(1_234_567.6)).toBe('1,234,568');
    expect(countText(999_999_999_999_999)).toBe('999,999,999,999,999');
  });

  it('prints a count past a quadrillion in the exponent form', () => {
    expect(countText(Number.MAX_VALUE)).toBe('1.8e+308');
    expect(countText(1e15)).toBe('1.0e+15');
  });
});
