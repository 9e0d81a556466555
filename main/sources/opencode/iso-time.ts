// Epoch milliseconds as ISO 8601 text, exactly as Date#toISOString writes them, for the many message times of a store's sessions: each day's date written once.
import { isoFromEpochMs } from '../coerce.ts';
/** The last day written, and its `YYYY-MM-DDT` prefix: a session's messages mostly fall on one day. */
let lastDay = Number.NaN;
let lastPrefix = '';

const DAY_MS = 86_400_000;
/** 10000-01-01T00:00:00.000Z: past it toISOString writes a six-digit year with a sign. */
const YEAR_10000_MS = 253_402_300_800_000;

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const three = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * `new Date(ms).toISOString()`, which costs about a microsecond a call (a tenth of building an OpenCode session). Whole
 * milliseconds from 1970 to 9999 take the fast way; any other value goes to toISOString itself, and a number no date
 * can hold (1e308, NaN) is null, where toISOString would throw.
 */
export function isoTime(ms: number): string | null {
  if (!Number.isInteger(ms) || ms < 0 || ms >= YEAR_10000_MS) return isoFromEpochMs(ms);
  const day = Math.floor(ms / DAY_MS);
  if (day !== lastDay) {
    lastPrefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    lastDay = day;
  }
  let rest = ms - day * DAY_MS;
  const milli = rest % 1000;
  rest = (rest - milli) / 1000;
  const second = rest % 60;
  rest = (rest - second) / 60;
  const minute = rest % 60;
  const hour = (rest - minute) / 60;
  return `${lastPrefix}${two(hour)}:${two(minute)}:${two(second)}.${three(milli)}Z`;
}
