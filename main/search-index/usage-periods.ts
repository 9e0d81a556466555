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

export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
