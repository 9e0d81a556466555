// A time zone's offset spans (usage-periods.ts zoneSpans): its changes found to the hour, and the spans kept for the next call the same as worked out afresh, whatever a caller does with the ones it got.
import { describe, expect, it } from 'vitest';
import { zoneSpans } from './usage-periods.ts';

const HOUR = 3_600_000;

describe('a time zone’s offset spans', () => {
  it('change where the zone’s offset changes, and are the same when asked again', () => {
    const from = Date.UTC(2026, 0, 1);
    const to = Date.UTC(2027, 0, 1);
    const spans = zoneSpans('Europe/Berlin', from, to);
    expect(spans.map(([, , offset]) => offset / HOUR)).toEqual([1, 2, 1]);
    // Summer time from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of October.
    expect(spans[1]?.slice(0, 2)).toEqual([Date.UTC(2026, 2, 29, 1), Date.UTC(2026, 9, 25, 1)]);
    expect(zoneSpans('Europe/Berlin', from, to)).toEqual(spans);
    expect(zoneSpans('UTC', from, to)).toEqual([[0, Number.MAX_SAFE_INTEGER, 0]]);
  });

  it('kept for the next call are not changed by what a caller does with those it got', () => {
    const from = Date.UTC(2025, 5, 1);
    const to = Date.UTC(2026, 5, 1);
    const first = zoneSpans('America/New_York', from, to);
    const copy = first.map((s) => [...s]);
    first[0]![2] = 42;
    first.pop();
    expect(zoneSpans('America/New_York', from, to)).toEqual(copy);
    // Another range within the same days is the same spans; a later one its own.
    expect(zoneSpans('America/New_York', from + HOUR, to - HOUR)).toEqual(copy);
    expect(zoneSpans('America/New_York', Date.UTC(2026, 5, 1), Date.UTC(2026, 8, 1)).map(([, , o]) => o / HOUR)).toEqual([-4]);
  });
});
