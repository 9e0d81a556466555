// Timestamps for the demo set, relative to "now" and spelled the way each tool writes them.
export interface DemoFile {
  /** Path below the demo folder, with forward slashes. */
  path: string;
  content: string;
}

export interface DemoClock {
  /** ISO-8601 UTC with milliseconds, e.g. the MVP schema's timestamps. */
  iso(minutesAgo: number): string;
  /** chrono's Display form with nanoseconds, as Vizier's real writer stores created_at. */
  chrono(minutesAgo: number): string;
  /** RFC 3339 with nanoseconds and +00:00, as Vizier's real writer stores updated_at. */
  rfc3339(minutesAgo: number): string;
  /** Elixir DateTime.to_iso8601 with microseconds, as JidoCode writes. */
  micros(minutesAgo: number): string;
}

export const HOUR = 60;
export const DAY = 24 * HOUR;

export function demoClock(now: number): DemoClock {
  const iso = (minutesAgo: number) => new Date(now - Math.round(minutesAgo * 60_000)).toISOString();
  return {
    iso,
    chrono: (m) => `${iso(m).replace('T', ' ').replace('Z', '')}000000 UTC`,
    rfc3339: (m) => iso(m).replace('Z', '000000+00:00'),
    micros: (m) => iso(m).replace('Z', '000Z'),
  };
}

export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
