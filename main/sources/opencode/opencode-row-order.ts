// A session's message and part rows put in the order a single session's read gives them (ORDER BY in SQL), in JS: a batch reads them in the index's order, without a sort in SQLite.
import type { RowArray } from './opencode-store.ts';

/** SQLite's order of storage classes: NULL, then numbers, then text, then blobs. */
function storageRank(value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'number' || typeof value === 'bigint') return 1;
  if (typeof value === 'string') return 2;
  return 3;
}

/**
 * Two strings in the order of their UTF-8 bytes (SQLite's BINARY collation). UTF-16 code units sort as UTF-8 does
 * except that a surrogate (a code point past U+FFFF) must come after U+E000-U+FFFF: those units are moved past them.
 */
function compareUtf8(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const fx = x < 0xd800 ? x : x <= 0xdfff ? x + 0x2000 : x - 0x800;
    const fy = y < 0xd800 ? y : y <= 0xdfff ? y + 0x2000 : y - 0x800;
    return fx - fy;
  }
  return a.length - b.length;
}

/** A code unit whose UTF-16 order may differ from its UTF-8 order (see compareUtf8). */
const HIGH_UNIT = /[\ud800-\uffff]/;

/** Two column values as SQLite's ORDER BY puts them under the BINARY collation. */
export function compareSqlValues(a: unknown, b: unknown): number {
  // Ids are text: the engine's own comparison where the two orders agree (no code unit from U+D800 up in either).
  if (typeof a === 'string' && typeof b === 'string') {
    if (a === b) return 0;
    if (!HIGH_UNIT.test(a) && !HIGH_UNIT.test(b)) return a < b ? -1 : 1;
    return compareUtf8(a, b);
  }
  const ra = storageRank(a);
  const rb = storageRank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 1) return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
  if (ra === 2) return compareUtf8(a as string, b as string);
  if (ra === 3 && a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b);
  return 0;
}

/** How a table's rows are ordered in a session's read (opencode-store.ts rowQuery): by `id` (else row id), messages by time first. */
export interface RowOrder {
  /** Ordered by `time_created` first (a message table that has it). */
  byTime: boolean;
  /** Ordered by the `id` column, else by the row id. */
  byId: boolean;
}

function compareRows(order: RowOrder, a: RowArray, b: RowArray): number {
  if (order.byTime) {
    const t = compareSqlValues(a[3], b[3]);
    if (t) return t;
  }
  return order.byId ? compareSqlValues(a[1], b[1]) : compareSqlValues(a[0], b[0]);
}

/**
 * `rows` (in the index's order: by row id) in the order of `order`. Rows are mostly written in that order already, so
 * they are only checked; otherwise sorted (a stable sort: rows that tie keep their row id order).
 */
export function inReadOrder(rows: RowArray[], order: RowOrder): RowArray[] {
  for (let i = 1; i < rows.length; i++) {
    if (compareRows(order, rows[i - 1]!, rows[i]!) > 0) return rows.sort((a, b) => compareRows(order, a, b));
  }
  return rows;
}
