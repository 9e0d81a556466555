// Gathers one session's own rows from an agent's SQLite store, table by table: what the raw view shows and a bundle or kept copy carries instead of the store.
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { StoreTable, StoreValue } from './types.ts';

/** A table or column name quoted for SQL ("a""b"), whatever it holds. */
export function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The columns of a table in their order, or null when the store has no such table. */
export function tableColumns(db: DatabaseSync, table: string): string[] | null {
  const rows = db.prepare(`PRAGMA table_info(${quoteName(table)})`).all() as Array<{ name: string }>;
  return rows.length ? rows.map((r) => r.name) : null;
}

/** The column the rows are keyed by when a table has no `key` column: SQLite's own row id. */
const ROWID = '__session_vault_rowid';

/**
 * The rows of `table` that `where` selects (SQL over the table's columns with `?` placeholders for `params`), keyed
 * by their `key` column as text, or by SQLite's row id when the table has none. Null when the store has no such table.
 */
export function ownRows(db: DatabaseSync, table: string, where: string, params: readonly SQLInputValue[], key = 'id'): StoreTable | null {
  const columns = tableColumns(db, table);
  if (!columns) return null;
  const keyed = columns.includes(key);
  const select = keyed ? '*' : `_rowid_ AS ${ROWID}, *`;
  const order = keyed ? quoteName(key) : '_rowid_';
  const rows: Record<string, Record<string, StoreValue>> = {};
  for (const row of db.prepare(`SELECT ${select} FROM ${quoteName(table)} WHERE ${where} ORDER BY ${order}`).iterate(...params) as Iterable<
    Record<string, StoreValue>
  >) {
    const id = String(keyed ? row[key] : row[ROWID]);
    if (!keyed) delete row[ROWID];
    // Defined, not assigned: a row id "__proto__" stays a key.
    Object.defineProperty(rows, id, { value: { ...row }, enumerable: true, writable: true, configurable: true });
  }
  return { columns, rows };
}
