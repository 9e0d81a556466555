// Deltas as a reader wants them: "+1,240 tokens, +12%", "2.1× slower", "+$0.12, +40%", "3m 00s later".
import { describe, expect, it } from 'vitest';
import { formatDelta, formatNumber, formatUsd } from './delta.ts';

describe('formatDelta', () => {
  it('gives tokens with thousands separators and a percentage', () => {
    expect(formatDelta('tokens', 10_333, 11_573)).toBe('+1,240 tokens, +12%');
    expect(formatDelta('tokens', 2000, 1500)).toBe('-500 tokens, -25%');
  });

  it('says how many times slower or faster a run was', () => {
    expect(formatDelta('ms', 120_000, 252_000)).toBe('+2m 12s, 2.1× slower');
    expect(formatDelta('ms', 90_000, 30_000)).toBe('-1m 00s, 3.0× faster');
    expect(formatDelta('ms', 100_000, 105_000)).toBe('+5.0 s, 5% slower');
  });

  it('gives money and counts, and leaves out a percentage of nothing', () => {
    expect(formatDelta('usd', 3, 4.2)).toBe('+$1.20, +40%');
    expect(formatDelta('usd', 0.0385, 0.0308)).toBe('-$0.0077, -20%');
    expect(formatDelta('count', 0, 3)).toBe('+3');
    expect(formatDelta('count', 200, 201)).toBe('+1, +0.5%');
  });

  it('places times before or after', () => {
    expect(formatDelta('time', Date.parse('2026-01-01T10:00:00Z'), Date.parse('2026-01-01T10:03:00Z'))).toBe('3m 00s later');
    expect(formatDelta('time', Date.parse('2026-01-03T10:00:00Z'), Date.parse('2026-01-01T08:00:00Z'))).toBe('2d 2h earlier');
  });

  it('is "same" for equal values and null when a side is unknown', () => {
    expect(formatDelta('tokens', 5, 5)).toBe('same');
    expect(formatDelta('usd', null, 1)).toBeNull();
  });
});

describe('number formatting', () => {
  it('groups digits and keeps sub-cent amounts visible', () => {
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatNumber(-1240)).toBe('-1,240');
    expect(formatUsd(0.0042)).toBe('$0.0042');
    expect(formatUsd(12.5)).toBe('$12.50');
  });
});
