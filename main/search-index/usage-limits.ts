// The provider's rate-limit state a session recorded (Codex's `rate_limits`, kept by its reader in `extra.rateLimits`), as index rows.
import type { Session } from '../../shared/session.ts';

/** One limit window as last seen in one session file. */
export interface RateLimitRow {
  /** When the tool reported it (ms). */
  atMs: number;
  limitId: string | null;
  plan: string | null;
  /** The tool's name for the window (Codex: `primary`, its 5-hour window, and `secondary`, its weekly one). */
  window: string;
  windowMinutes: number | null;
  usedPercent: number;
  resetsAtMs: number | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const time = (v: unknown): number | null => (typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? Date.parse(v) : null);
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Each window of the session's latest rate-limit state; none when the format records none (or the time is unknown). */
export function rateLimitRows(session: Session): RateLimitRow[] {
  const state = session.extra.rateLimits;
  if (!isObject(state) || !Array.isArray(state.windows)) return [];
  const atMs = time(state.at) ?? time(session.updatedAt);
  if (atMs === null) return [];
  const rows: RateLimitRow[] = [];
  for (const w of state.windows) {
    if (!isObject(w) || typeof w.name !== 'string') continue;
    const usedPercent = num(w.usedPercent);
    if (usedPercent === null) continue;
    rows.push({
      atMs,
      limitId: text(state.limitId),
      plan: text(state.plan),
      window: w.name,
      windowMinutes: num(w.windowMinutes),
      usedPercent,
      resetsAtMs: time(w.resetsAt),
    });
  }
  return rows;
}
