// Text read and listed but not yet in the full-text tables (fts_pending: words, idents_pending: identifiers), which the writer thread works off after a scan; and files listed whose text was not read yet (fts_pending's `more` NULL).
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { CHUNK_SLOTS, firstChunkRowid } from './body-chunks.ts';
import { identsOf } from './index-text.ts';

/** One file's words as the word tables (docs, heads) take them, read back from what the listing wrote. */
export interface PendingWords {
  id: number;
  title: Uint8Array | string;
  /** The stored body's pieces, then the words no column stores (`more`), joined. */
  body: Uint8Array;
  meta: Uint8Array | string;
}

/** One file's identifiers, as the trigram table (idents) takes them. */
export interface PendingIdents {
  id: number;
  idents: Uint8Array;
}

/**
 * How many files wait: for the word tables (then they are not searchable), and for the identifiers' substrings. Files
 * whose text was not read (`putUnread`) are in neither: no catch-up can index them, the next scan that reads text does.
 */
export interface PendingCounts {
  words: number;
  idents: number;
}

const NEWLINE = new Uint8Array([0x0a]);

const asBytes = (value: unknown): Uint8Array => {
  if (value instanceof Uint8Array) return value;
  return typeof value === 'string' ? Buffer.from(value) : new Uint8Array(0);
};

/**
 * The listing writes a file's stored text (texts, body_chunks), and what only the full-text tables need: the words
 * beyond the stored body (fts_pending) and its identifiers (idents_pending). The catch-up reads them back and
 * indexes them, words first: trigram indexing costs several times as much per byte, and a file is searchable by its
 * words once they are in (identifier substrings follow).
 */
export class PendingText {
  private readonly wordsExist: StatementSync;
  private readonly identsExist: StatementSync;
  private readonly insertWords: StatementSync;
  private readonly insertIdents: StatementSync;
  private readonly removeWords: StatementSync;
  private readonly removeIdents: StatementSync;
  private readonly firstWords: StatementSync;
  private readonly firstIdents: StatementSync;
  private readonly wordsAfter: StatementSync;
  private readonly identsAfter: StatementSync;
  private readonly wordsRow: StatementSync;
  private readonly identsRow: StatementSync;
  private readonly chunks: StatementSync;
  private readonly counted: StatementSync;

  constructor(db: DatabaseSync) {
    this.wordsExist = db.prepare('SELECT more IS NULL AS unread FROM fts_pending WHERE id = ?');
    this.identsExist = db.prepare('SELECT 1 AS y FROM idents_pending WHERE id = ?');
    this.insertWords = db.prepare('INSERT OR REPLACE INTO fts_pending (id, more) VALUES (?, ?)');
    this.insertIdents = db.prepare('INSERT OR REPLACE INTO idents_pending (id, idents) VALUES (?, ?)');
    this.removeWords = db.prepare('DELETE FROM fts_pending WHERE id = ?');
    this.removeIdents = db.prepare('DELETE FROM idents_pending WHERE id = ?');
    this.firstWords = db.prepare('SELECT id FROM fts_pending WHERE more IS NOT NULL ORDER BY id LIMIT ?');
    this.firstIdents = db.prepare('SELECT id FROM idents_pending ORDER BY id LIMIT ?');
    this.wordsAfter = db.prepare('SELECT id FROM fts_pending WHERE id > ? AND more IS NOT NULL ORDER BY id LIMIT ?');
    this.identsAfter = db.prepare('SELECT id FROM idents_pending WHERE id > ? ORDER BY id LIMIT ?');
    this.wordsRow = db.prepare('SELECT p.more AS more, t.title AS title, t.meta AS meta FROM fts_pending p LEFT JOIN texts t ON t.id = p.id WHERE p.id = ?');
    this.identsRow = db.prepare(
      'SELECT p.idents AS idents, t.title AS title, t.meta AS meta FROM idents_pending p LEFT JOIN texts t ON t.id = p.id WHERE p.id = ?',
    );
    this.chunks = db.prepare('SELECT text FROM body_chunks WHERE rowid >= ? AND rowid < ? ORDER BY rowid');
    this.chunks.setReturnArrays(true);
    this.counted = db.prepare('SELECT (SELECT count(*) FROM fts_pending WHERE more IS NOT NULL) AS words, (SELECT count(*) FROM idents_pending) AS idents');
  }

  /** `idents` null: found in the stored text when their turn comes (identsOf). */
  put(id: number, idents: Uint8Array | string | null, more: Uint8Array | string): void {
    this.insertWords.run(id, more);
    this.insertIdents.run(id, idents);
  }

  /**
   * A file listed without its text (a one-shot command that only lists had the worker skip it): in no full-text table,
   * and not searchable until a scan that reads text reads the file again (`SessionIndex.textUnreadPaths`).
   */
  putUnread(id: number): void {
    this.insertWords.run(id, null);
    this.removeIdents.run(id);
  }

  /** Takes a file's rows out; says which tables never got its text (nothing to delete from those). */
  take(id: number): { words: boolean; idents: boolean } {
    const row = this.wordsExist.get(id) as { unread: number } | undefined;
    const words = row !== undefined;
    const idents = this.identsExist.get(id) !== undefined;
    if (words) this.removeWords.run(id);
    if (idents) this.removeIdents.run(id);
    // A file whose text was never read was in no full-text table.
    return { words, idents: idents || row?.unread === 1 };
  }

  /** Gives up the first waiting file's text of the phase that failed: the file stays listed, without that text. */
  dropFirst(): void {
    const words = this.firstWords.get(1) as { id: number } | undefined;
    if (words) return void this.removeWords.run(words.id);
    const idents = this.firstIdents.get(1) as { id: number } | undefined;
    if (idents) this.removeIdents.run(idents.id);
  }

  counts(): PendingCounts {
    return this.counted.get() as unknown as PendingCounts;
  }

  /**
   * The waiting files' ids in order, `page` at a time, until the caller stops: a step takes files until its budget is
   * spent, not a page of them. One page a step made the catch-up of 3,000 small OpenCode sessions (23 KB each) 59
   * steps where its budgets mean 4, each a transaction that flushes a segment into every FTS5 table: the tidy pass
   * after a first scan of 10,000 of them then took 606-745 ms of CPU to merge them, 165-201 ms since.
   */
  private *ids(after: StatementSync, page: number): Generator<number> {
    let last = 0;
    for (;;) {
      const rows = after.all(last, page) as Array<{ id: number }>;
      for (const { id } of rows) {
        last = id;
        yield id;
      }
      if (rows.length < page) return;
    }
  }

  private storedBody(id: number): Uint8Array[] {
    const start = firstChunkRowid(id);
    return (this.chunks.all(start, start + CHUNK_SLOTS) as unknown as Array<[unknown]>).map(([text]) => asBytes(text));
  }

  /** The next files' words, oldest first, until about `budget` bytes (at least one); each taken out. */
  *nextWords(budget: number): Generator<PendingWords> {
    let bytes = 0;
    // Ids first, a page at a time, each file's text when its turn comes: a step never holds much more than its budget.
    for (const id of this.ids(this.wordsAfter, 64)) {
      if (bytes >= budget) return;
      const row = this.wordsRow.get(id) as { more: unknown; title: unknown; meta: unknown } | undefined;
      if (!row) continue;
      const pieces = this.storedBody(id);
      const more = asBytes(row.more);
      if (more.length) pieces.push(NEWLINE, more);
      const body = pieces.length === 1 ? (pieces[0] as Uint8Array) : Buffer.concat(pieces);
      this.removeWords.run(id);
      bytes += body.length;
      yield { id, title: (row.title as Uint8Array | string | null) ?? '', body, meta: (row.meta as Uint8Array | string | null) ?? '' };
    }
  }

  /** The next files' identifiers (found in their stored text unless given), oldest first, until about `budget` bytes; each taken out. */
  *nextIdents(budget: number): Generator<PendingIdents> {
    let bytes = 0;
    for (const id of this.ids(this.identsAfter, 256)) {
      if (bytes >= budget) return;
      const row = this.identsRow.get(id) as { idents: unknown; title: unknown; meta: unknown } | undefined;
      if (!row) continue;
      const idents = row.idents === null ? identsOf(asBytes(row.title), this.storedBody(id), asBytes(row.meta)) : asBytes(row.idents);
      this.removeIdents.run(id);
      bytes += idents.length;
      yield { id, idents };
    }
  }
}
