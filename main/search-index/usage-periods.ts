// Turns the index's UTC hours into the report's periods (day, Monday-started week, month) in a time zone.
import type { UsagePeriod } from '../../shared/usage-api.ts';

/** The day (YYYY-MM-DD) an instant falls on in a time zone. */
export function dayIn(timeZone: string): (ms: number) => string {
  const format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  return (ms) => format.format(ms);
}

/** The Monday a day's week starts on. */
export function weekOf(day: string): string {
  const t = Date.parse(`${day}T00:00:00Z`);
  const back = (new Date(t).getUTCDay() + 6) % 7;
  return new Date(t - back * 86_400_000).toISOString().slice(0, 10);
}

export function periodOfDay(period: Exclude<UsagePeriod, 'session'>, day: string): string {
  if (period === 'daily') return day;
  if (period === 'weekly') return weekOf(day);
  return day.slice(0, 7);
}

/** Accepts 2026-01-31 or 20260131 (ccusage's form); null when it is neither. */
export function normalizeDay(text: string): string | null {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(text.trim());
  if (!m) return null;
  const day = `${m[1]}-${m[2]}-${m[3]}`;
  const t = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === day ? day : null;
}

export { isTimeZone } from '../../shared/time-zone.ts';

/** A UTC hour's local day (YYYY-MM-DD) and hour of the day (0-23) in a time zone (at the hour's start). */
export interface LocalHour {
  day: string;
  hour: number;
}

/**
 * `hourMs -> LocalHour` for a time zone, asking Intl once or twice per UTC day instead of once per hour: a day whose
 * offset is the same at its start and its end has it all day (a DST change shows as a difference, and is then asked
 * hour by hour). 20,000 hours: one Intl call each took ~40 ms.
 */
export function localHours(timeZone: string): (hourMs: number) => LocalHour {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
  const offsetAt = (ms: number): number => {
    const p = Object.fromEntries(parts.formatToParts(ms).map((x) => [x.type, x.value]));
    const local = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute));
    return local - Math.floor(ms / 60_000) * 60_000;
  };
  const byDay = new Map<number, number | null>();
  return (hourMs) => {
    const utcDay = Math.floor(hourMs / 86_400_000);
    let offset = byDay.get(utcDay);
    if (offset === undefined) {
      const start = offsetAt(utcDay * 86_400_000);
      offset = start === offsetAt(utcDay * 86_400_000 + 86_399_999) ? start : null;
      byDay.set(utcDay, offset);
    }
    const local = new Date(hourMs + (offset ?? offsetAt(hourMs)));
    return { day: local.toISOString().slice(0, 10), hour: local.getUTCHours() };
  };
}

/** zoneSpans' last answers, by zone and first and last UTC day. */
const keptSpans = new Map<string, ReadonlyArray<readonly [number, number, number]>>();

/**
 * A time zone's offsets over [fromMs, toMs) as spans `[start, end, offset ms]`, so SQL can turn a UTC hour into a local
 * day (`(hour + offset) / 86400000`) with a join on a few rows instead of a lookup per hour. Offsets are asked at each
 * UTC day's start and end (a change in between is then found hour by hour). The spans of the last few zones and days
 * asked are kept (every dashboard call asks the same: ~400 offsets, ~2 ms at 100,000 sessions' year of hours).
 */
export function zoneSpans(timeZone: string, fromMs: number, toMs: number): Array<[number, number, number]> {
  const firstDay = Math.floor(Math.max(0, fromMs) / 86_400_000);
  const lastDay = Math.floor(Math.min(toMs, Date.now() + 400 * 86_400_000) / 86_400_000);
  const key = `${timeZone}\n${firstDay}\n${lastDay}`;
  let spans = keptSpans.get(key);
  if (!spans) {
    if (keptSpans.size >= 8) keptSpans.clear();
    keptSpans.set(key, (spans = spansOver(timeZone, firstDay, lastDay)));
  }
  return spans.map(([start, end, offset]) => [start, end, offset]);
}

/** zoneSpans' spans over whole UTC days, from the first's start to the last's end. */
function spansOver(timeZone: string, firstDay: number, lastDay: number): Array<[number, number, number]> {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
  const offsetAt = (ms: number): number => {
    const p = Object.fromEntries(parts.formatToParts(ms).map((x) => [x.type, x.value]));
    return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute)) - Math.floor(ms / 60_000) * 60_000;
  };
  const spans: Array<[number, number, number]> = [];
  const push = (at: number, offset: number) => {
    const last = spans.at(-1);
    if (last && last[2] === offset) return;
    if (last) last[1] = at;
    spans.push([at, Number.MAX_SAFE_INTEGER, offset]);
  };
  spans.push([0, Number.MAX_SAFE_INTEGER, offsetAt(firstDay * 86_400_000)]);
  for (let day = firstDay; day <= lastDay; day++) {
    const start = day * 86_400_000;
    if (offsetAt(start + 86_399_999) === spans.at(-1)?.[2]) continue;
    for (let h = start; h < start + 86_400_000; h += 3_600_000) push(h, offsetAt(h));
    push(start + 86_400_000, offsetAt(start + 86_400_000));
  }
  return spans;
}

/** The day (YYYY-MM-DD) of a local day number (local ms / 86400000). */
export const dayOfNumber = (n: number) => new Date(n * 86_400_000).toISOString().slice(0, 10);
