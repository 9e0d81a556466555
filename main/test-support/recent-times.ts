// Test data made recent, for checks of "still running" that look at a session's own record times: every time in a JSON
// value moved so the latest is a minute ago, or a copy of a file whose mtime is its last record's time.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const TIME_KEY = /At$|^timestamp$|^ts$/;

type Visit = (value: string | number) => string | number;

function mapTimes(value: unknown, visit: Visit, key: string | null): unknown {
  if (Array.isArray(value)) return value.map((v) => mapTimes(v, visit, key));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapTimes(v, visit, k)]));
  }
  if (typeof value === 'string' && ISO.test(value)) return visit(value);
  if (typeof value === 'number' && key !== null && TIME_KEY.test(key) && value > 1e12 && value < 1e13) return visit(value);
  return value;
}

/** `value` with every time shifted so its latest one is `now - 60 s`; the intervals between them are kept. */
export function movedToNow<T>(value: T, now = Date.now()): T {
  let latest = -Infinity;
  mapTimes(
    value,
    (t) => {
      latest = Math.max(latest, typeof t === 'number' ? t : Date.parse(t));
      return t;
    },
    null,
  );
  if (latest === -Infinity) return value;
  const shift = now - 60_000 - latest;
  return mapTimes(value, (t) => (typeof t === 'number' ? t + shift : new Date(Date.parse(t) + shift).toISOString()), null) as T;
}

/**
 * Runs `check` on a copy of `path` (kept at its place relative to `base`, so a reader's layout rules still apply) whose
 * mtime is `updatedAt`, the session's last record time: as if the tool had just written it.
 */
export async function atRecordTime(path: string, base: string, updatedAt: string | null, check: (copy: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'sv-active-'));
  const copy = join(dir, relative(base, path));
  mkdirSync(dirname(copy), { recursive: true });
  copyFileSync(path, copy);
  const at = new Date(Date.parse(updatedAt ?? ''));
  utimesSync(copy, at, at);
  try {
    await check(copy);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
