// Goose's times (epoch seconds or milliseconds in created_timestamp columns, SQLite's UTC text in created_at / updated_at), and row pointers.
import { toIsoTimestamp } from '../coerce.ts';

/** ISO-8601 from an epoch number or a timestamp text (SQLite's CURRENT_TIMESTAMP is UTC without a zone); null when neither. */
export function gooseTime(value: unknown): string | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0) return null;
    const date = new Date(value > 10_000_000_000 ? value : value * 1000);
    return Number.isNaN(date.getTime()) ? null : date.toISOString();
  }
  if (typeof value !== 'string' || !value.trim()) return null;
  if (/^\d+$/.test(value.trim())) return gooseTime(Number(value));
  return toIsoTimestamp(value);
}

/** A JSON pointer token (RFC 6901) for a row id in `/rows/<table>/<id>`, the raw view's address of a store row. */
export function pointerToken(text: string): string {
  return text.replaceAll('~', '~0').replaceAll('/', '~1');
}
