// Hermes timestamps: transcripts write ISO text, often without a zone (the machine's local time); the store writes epoch seconds.
import { toIsoTimestamp } from '../coerce.ts';

/** ISO date and time with no zone, as Python's datetime.now().isoformat() writes it. */
const NAIVE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?$/;

/**
 * ISO-8601 (UTC, milliseconds) from a transcript's timestamp text. Hermes records local wall-clock time without a
 * zone, so a time with none is read in this machine's zone (as the peers read it); one with a zone keeps it.
 */
export function hermesTimestamp(text: string): string | null {
  const m = NAIVE.exec(text.trim());
  if (!m) return toIsoTimestamp(text);
  const [, y, mo, d, h, mi, s, frac] = m;
  const day = Number(d);
  const local = new Date(Number(y), Number(mo) - 1, day, Number(h), Number(mi), Number(s ?? '0'), Math.floor(Number(`0.${frac ?? '0'}`) * 1000));
  // new Date rolls 31 February over into March; a day that does not exist is not a timestamp.
  if (Number.isNaN(local.getTime()) || local.getDate() !== day || Number(h) > 23 || Number(mi) > 59) return null;
  return local.toISOString();
}

/** The store's REAL epoch seconds (fractions kept to the millisecond); null for a missing or non-positive value. */
export function epochSecondsToIso(value: number | null): string | null {
  if (value === null || !Number.isFinite(value) || value <= 0) return null;
  // Milliseconds written by mistake would land tens of thousands of years ahead.
  const ms = value > 1e11 ? value : value * 1000;
  const date = new Date(Math.round(ms));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
