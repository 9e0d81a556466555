// Milliseconds to ISO text, or null where no date can hold them.
import { describe, expect, it } from 'vitest';
import { isoFromMs } from './iso-time.ts';

describe('isoFromMs', () => {
  it('gives ISO-8601 text for a time a date can hold, and null past the range or for NaN', () => {
    expect(isoFromMs(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(isoFromMs(8.64e15)).toBe('+275760-09-13T00:00:00.000Z');
    expect(isoFromMs(2 ** 53)).toBeNull();
    expect(isoFromMs(Number.NaN)).toBeNull();
  });
});
