// Timestamps carry the local offset and microseconds, and the clock never hands out the same instant twice.
import { describe, expect, it } from 'vitest';
import { formatMicros, MonotonicClock, parseMicros } from './timestamps.ts';

describe('formatMicros / parseMicros', () => {
  it('writes ISO-8601 with an explicit offset and reads it back to the microsecond', () => {
    const micros = Date.parse('2026-02-03T08:15:00.250Z') * 1000 + 123;
    const text = formatMicros(micros);
    expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}[+-]\d{2}:\d{2}$/);
    expect(parseMicros(text)).toBe(micros);
    expect(Date.parse(text)).toBe(Date.parse('2026-02-03T08:15:00.250Z'));
  });

  it("reads other writers' offsets and precisions", () => {
    expect(parseMicros('2026-02-03T10:15:00.250+02:00')).toBe(Date.parse('2026-02-03T08:15:00.250Z') * 1000);
    expect(parseMicros('2026-02-03T08:15:00Z')).toBe(Date.parse('2026-02-03T08:15:00Z') * 1000);
    expect(parseMicros('yesterday')).toBeNull();
  });
});

describe('MonotonicClock', () => {
  it('gives strictly increasing times when the wall clock stands still or steps back', () => {
    let now = Date.parse('2026-02-03T08:15:00.250Z');
    const clock = new MonotonicClock(() => now);
    const a = clock.next();
    const b = clock.next();
    now -= 5_000;
    const c = clock.next();
    expect(parseMicros(b)).toBe((parseMicros(a) as number) + 1);
    expect(parseMicros(c)).toBeGreaterThan(parseMicros(b) as number);
  });

  it('starts after a timestamp already on disk', () => {
    const clock = new MonotonicClock(() => Date.parse('2026-01-01T00:00:00Z'));
    clock.observe('2026-06-01T00:00:00.000001+00:00');
    expect(clock.next()).toBe(formatMicros(Date.parse('2026-06-01T00:00:00Z') * 1000 + 2));
  });
});
