// A contained session's own rows as one JSON document: what the raw view shows, and what a bundle or kept copy carries as the session's source instead of the store.
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { z } from 'zod';
import { quoteName } from '../sources/store-rows.ts';
import { UnreadableError, type StoreRows, type StoreValue } from '../sources/types.ts';

export const ROWS_DOCUMENT_FORMAT = 'session-vault-store-rows';
const SUFFIX = '.session-rows.json';

/** A cell as JSON holds it: BLOBs as `{"$base64": ...}`, integers beyond a double's precision as text. */
type Cell = string | number | null | { $base64: string };

const CellSchema = z.union([z.string(), z.number(), z.null(), z.object({ $base64: z.string() }).strict()]);
const Name = z.string().min(1).max(128);

/**
 * `source`: which reader's store it came from, where, and which session; `columns`: each table's columns in order;
 * `rows`: each table's rows by their id (a message's `origin.pointer` is `/rows/message/<id>`).
 */
export const RowsDocument = z
  .object({
    format: z.literal(ROWS_DOCUMENT_FORMAT),
    formatVersion: z.literal(1),
    source: z.object({ format: z.string().max(64), store: z.string().max(4096), session: z.string().min(1).max(1024) }),
    columns: z.record(Name, z.array(Name).max(512)),
    rows: z.record(Name, z.record(z.string(), z.record(z.string(), CellSchema))),
  })
  .refine((doc) => Object.keys(doc.columns).length <= 64, 'at most 64 tables');
export type RowsDocument = z.infer<typeof RowsDocument>;

/** Where the document goes by, beside its store: `<store>.<id>.session-rows.json` (an id unsafe in a name is made safe, with a hash). */
export function rowsDocumentPath(store: string, id: string): string {
  const safe = /^[A-Za-z0-9._-]{1,100}$/.test(id)
    ? id
    : `${id.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80)}-${createHash('sha256').update(id).digest('hex').slice(0, 8)}`;
  return `${store}.${safe}${SUFFIX}`;
}

export function isRowsDocumentPath(path: string): boolean {
  const name = basename(path);
  return name.endsWith(SUFFIX) && name.length > SUFFIX.length && !name.startsWith('.');
}

function cellOf(value: StoreValue): Cell {
  if (value instanceof Uint8Array) return { $base64: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') };
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  return value;
}

/** The document for a session's rows, as the raw view shows it and a bundle carries it (two-space JSON, one line per cell). */
export function renderRowsDocument(format: string, store: string, id: string, rows: StoreRows): string {
  const doc: RowsDocument = { format: ROWS_DOCUMENT_FORMAT, formatVersion: 1, source: { format, store, session: id }, columns: {}, rows: {} };
  for (const [table, { columns, rows: byId }] of Object.entries(rows)) {
    doc.columns[table] = columns;
    const out: Record<string, Record<string, Cell>> = {};
    for (const [rowId, row] of Object.entries(byId)) {
      const cells: Record<string, Cell> = {};
      for (const [column, value] of Object.entries(row))
        Object.defineProperty(cells, column, { value: cellOf(value), enumerable: true, writable: true, configurable: true });
      Object.defineProperty(out, rowId, { value: cells, enumerable: true, writable: true, configurable: true });
    }
    doc.rows[table] = out;
  }
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** Parses and checks a rows document; anything else is an UnreadableError saying what is wrong. */
export function parseRowsDocument(text: string): RowsDocument {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw new UnreadableError('invalid_json', 'Not a rows document: the file is not valid JSON.');
  }
  const parsed = RowsDocument.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UnreadableError(
      'wrong_shape',
      `Not a rows document Session Vault writes: ${issue ? `${issue.path.join('.') || 'the document'}: ${issue.message}` : 'unexpected shape'}.`,
    );
  }
  return parsed.data;
}

function inputOf(cell: Cell | undefined): SQLInputValue {
  if (cell === undefined) return null;
  if (cell !== null && typeof cell === 'object') return Buffer.from(cell.$base64, 'base64');
  return cell;
}

/**
 * Writes the rows into a new SQLite file at `dbPath` (tables with the document's columns, untyped, as SQLite allows),
 * so the store's own reader reads the session from it exactly as it read the store. Only names from the document are
 * used, always quoted: no SQL from a document is ever run.
 */
export function materializeRows(doc: RowsDocument, dbPath: string): void {
  const db = new DatabaseSync(dbPath);
  try {
    db.exec('BEGIN');
    for (const [table, columns] of Object.entries(doc.columns)) {
      if (!columns.length) continue;
      db.exec(`CREATE TABLE ${quoteName(table)} (${columns.map(quoteName).join(', ')})`);
      const insert = db.prepare(`INSERT INTO ${quoteName(table)} (${columns.map(quoteName).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
      for (const row of Object.values(doc.rows[table] ?? {})) insert.run(...columns.map((c) => inputOf(row[c])));
    }
    db.exec('COMMIT');
  } finally {
    db.close();
  }
}
