// isoTime writes every time as Date#toISOString does: message timestamps of OpenCode sessions shown and indexed unchanged.
import { describe, expect, it } from 'vitest';
import { isoTime } from './iso-time.ts';

const iso = (ms: number) => new Date(ms).toISOString();

describe('isoTime', () => {
  it('writes day edges, leap days, the last fast year and past it as toISOString does', () => {
    const edges = [0, 1, 999, 1000, 59_999, 86_399_999, 86_400_000, 951_782_400_000, 951_868_799_999, 1_767_225_600_000, 253_402_300_799_999];
    for (const ms of [...edges, 253_402_300_800_000, 8.64e15]) expect(isoTime(ms)).toBe(iso(ms));
  });

  it('writes fractions, times before 1970 and the same day again after another as toISOString does', () => {
    for (const ms of [1.5, 1_767_225_600_123.9, -1, -86_400_001, 1_767_225_600_000, 1_000, 1_767_225_659_999]) expect(isoTime(ms)).toBe(iso(ms));
  });

  it('agrees with toISOString on 20,000 times spread over the years OpenCode sessions were written', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let i = 0; i < 20_000; i++) {
      const ms = Math.floor(1_600_000_000_000 + next() * 400_000_000_000);
      expect(isoTime(ms)).toBe(iso(ms));
    }
  });

  it('is null where toISOString throws: a time no date can hold', () => {
    for (const ms of [8.64e15 + 1, -8.64e15 - 1, 1e308, Number.NaN, Number.POSITIVE_INFINITY]) expect(isoTime(ms)).toBeNull();
  });
});
