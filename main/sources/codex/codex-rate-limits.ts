// Codex's rate-limit state as its token_count events record it (`rate_limits`), in the shape kept in the session's `extra.rateLimits`.
import { isoFromEpochMs, isRecord } from '../coerce.ts';

/** One limit window: how much of it is used and when it starts over. */
export interface RateLimitWindow {
  /** `primary` (Codex's 5-hour window) or `secondary` (its weekly one), as Codex names them. */
  name: string;
  usedPercent: number;
  windowMinutes: number | null;
  /** When the window starts over (ISO), where Codex said so. */
  resetsAt: string | null;
}

/** The latest rate-limit state a session recorded. */
export interface RateLimitState {
  /** When Codex reported it (ISO). */
  at: string | null;
  limitId: string | null;
  plan: string | null;
  windows: RateLimitWindow[];
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);

function resetTime(at: string | null, resetsAt: number | null, resetsIn: number | null): string | null {
  if (resetsAt !== null && resetsAt > 0) return isoFromEpochMs(resetsAt * 1000);
  const t = at ? Date.parse(at) : NaN;
  if (resetsIn !== null && resetsIn > 0 && !Number.isNaN(t)) return isoFromEpochMs(t + resetsIn * 1000);
  return null;
}

/** A window as written ({used_percent, window_minutes, resets_at | resets_in_seconds}); null for Codex's all-zero placeholder. */
function windowOf(name: string, raw: unknown, at: string | null): RateLimitWindow | null {
  if (!isRecord(raw)) return null;
  const usedPercent = num(raw.used_percent);
  const windowMinutes = num(raw.window_minutes);
  if (usedPercent === null || (usedPercent === 0 && !windowMinutes)) return null;
  return { name, usedPercent, windowMinutes: windowMinutes || null, resetsAt: resetTime(at, num(raw.resets_at), num(raw.resets_in_seconds)) };
}

/**
 * Reads `rate_limits` in the shapes Codex has written: `{primary: {...}, secondary: {...}, plan_type, limit_id}` and the
 * older flat `{primary_used_percent, primary_window_minutes, ...}`. Null when it says nothing (absent, or all zero).
 */
export function readRateLimits(raw: unknown, at: string | null): RateLimitState | null {
  if (!isRecord(raw)) return null;
  const windows: RateLimitWindow[] = [];
  for (const name of ['primary', 'secondary']) {
    const nested = windowOf(name, raw[name], at);
    const flat = windowOf(
      name,
      { used_percent: raw[`${name}_used_percent`], window_minutes: raw[`${name}_window_minutes`], resets_in_seconds: raw[`${name}_resets_in_seconds`] },
      at,
    );
    const w = nested ?? flat;
    if (w) windows.push(w);
  }
  if (!windows.length) return null;
  return { at, limitId: str(raw.limit_id), plan: str(raw.plan_type), windows };
}
