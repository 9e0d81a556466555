// ISO-8601 timestamps with the local offset and microseconds, from a clock that never repeats or goes back.

const FORMAT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/;

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** `2026-02-03T10:15:00.250123+02:00` for a count of microseconds since the epoch, in the local zone. */
export function formatMicros(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const offset = -new Date(ms).getTimezoneOffset();
  const local = new Date(ms + offset * 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const fraction = pad(local.getUTCMilliseconds(), 3) + pad(micros - ms * 1000, 3);
  return (
    `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}.${fraction}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

/** Microseconds since the epoch of an ISO-8601 timestamp with a zone; null when it is not one. */
export function parseMicros(text: string): number | null {
  const m = FORMAT.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const base = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (Number.isNaN(base)) return null;
  let offsetMinutes = 0;
  if (zone && zone !== 'Z') offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  const micros = Number((frac ?? '').padEnd(6, '0').slice(0, 6));
  return (base - offsetMinutes * 60_000) * 1000 + micros;
}

/**
 * Hands out strictly increasing timestamps: two checkpoints in the same millisecond, or a wall
 * clock stepped backwards, still give a later `updated_at` than the one already on disk.
 */
export class MonotonicClock {
  private last = 0;
  private readonly nowMs: () => number;

  constructor(nowMs: () => number = Date.now) {
    this.nowMs = nowMs;
  }

  /** Remembers a timestamp already written so the next one is later. */
  observe(iso: string): void {
    const micros = parseMicros(iso);
    if (micros !== null && micros > this.last) this.last = micros;
  }

  next(): string {
    const now = Math.floor(this.nowMs() * 1000);
    this.last = Math.max(now, this.last + 1);
    return formatMicros(this.last);
  }
}
