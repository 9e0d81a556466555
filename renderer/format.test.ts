// Labels the header and rows show for cost, duration, sizes and summed usage.
import { describe, expect, it } from 'vitest';
import { addCost, addUsage, formatChars, formatCost, formatCount, formatDuration } from './format.ts';

describe('formatCost', () => {
  it('labels recorded, estimated and unknown cost', () => {
    expect(formatCost({ usd: 0.12, estimated: false })).toBe('$0.12');
    expect(formatCost({ usd: 0.1234, estimated: true })).toBe('≈ $0.12 (estimated)');
    expect(formatCost({ usd: 0.0034, estimated: false })).toBe('$0.0034');
    expect(formatCost({ usd: 0, estimated: false })).toBe('$0.00');
    expect(formatCost(null)).toBe('—');
  });
});

describe('formatCount', () => {
  it('groups digits below 10,000 as the list and the usage tab do, then writes k and M', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(3420)).toBe((3420).toLocaleString());
    expect(formatCount(3420)).toMatch(/^3\D?420$/);
    expect(formatCount(20_400)).toBe('20k');
    expect(formatCount(1_250_000)).toBe('1.3M');
  });
});

describe('formatDuration and formatChars', () => {
  it('reads like a person would say it', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(4200)).toBe('4.2 s');
    expect(formatDuration(42_000)).toBe('42 s');
    expect(formatDuration(192_000)).toBe('3m 12s');
    expect(formatDuration(3_720_000)).toBe('1h 02m');
    expect(formatDuration(null)).toBe('—');
    expect(formatChars(1)).toBe('1 char');
    expect(formatChars(1234)).toBe('1.2k chars');
    expect(formatChars(34_000)).toBe('34k chars');
  });
});

describe('addUsage and addCost', () => {
  it('sums field by field, treats null as nothing, and marks a sum estimated if any part is', () => {
    const u = { input: 1, output: 2, cacheRead: 3, cacheWrite: 4, reasoning: 5 };
    expect(addUsage(u, u)).toEqual({ input: 2, output: 4, cacheRead: 6, cacheWrite: 8, reasoning: 10 });
    expect(addUsage(null, u)).toBe(u);
    expect(addCost({ usd: 1, estimated: false }, { usd: 0.5, estimated: true })).toEqual({ usd: 1.5, estimated: true });
    expect(addCost(null, null)).toBeNull();
  });
});
