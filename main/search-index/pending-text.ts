// Text read and listed but not yet in the full-text tables (fts_pending: words, idents_pending: identifiers), which the writer thread works off after a scan; and files listed whose text was not read yet (fts_pending's `more` NULL).
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { CHUNK_SLOTS } from './body-chunks.ts';
import { identsOf } from './index-text.ts';

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

const asBytes = (value: unknown): Uint8Array => {
  if (value instanceof Uint8Array) return value;
  return typeof value === 'string' ? Buffer.from(value) : new Uint8Array(0);
};

/**
 * The listing writes a file's stored text (texts, body_chunks), and what only the full-text tables need: the words
 * beyond the stored body (fts_pending) and its identifiers (idents_pending). The catch-up indexes them, words first
 * (indexNextWords), then the identifiers (nextIdents): trigram indexing costs several times as much per byte, and a
 * file is searchable by its words once they are in (identifier substrings follow).
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
  private readonly identsRows: StatementSync;
  private readonly removeIdentsIn: StatementSync;
  private readonly counted: StatementSync;
  private readonly wordsSizes: StatementSync;
  private readonly indexDocs: StatementSync;
  private readonly indexHeads: StatementSync;
  private readonly removeWordsIn: StatementSync;

  constructor(db: DatabaseSync) {
    this.wordsExist = db.prepare('SELECT more IS NULL AS unread FROM fts_pending WHERE id = ?');
    this.identsExist = db.prepare('SELECT 1 AS y FROM idents_pending WHERE id = ?');
    this.insertWords = db.prepare('INSERT OR REPLACE INTO fts_pending (id, more) VALUES (?, ?)');
    this.insertIdents = db.prepare('INSERT OR REPLACE INTO idents_pending (id, idents) VALUES (?, ?)');
    this.removeWords = db.prepare('DELETE FROM fts_pending WHERE id = ?');
    this.removeIdents = db.prepare('DELETE FROM idents_pending WHERE id = ?');
    this.firstWords = db.prepare('SELECT id FROM fts_pending WHERE more IS NOT NULL ORDER BY id LIMIT ?');
    this.firstIdents = db.prepare('SELECT id FROM idents_pending ORDER BY id LIMIT ?');
    // Each waiting file's text bytes, as queueWords counts them: title, stored body, a newline and `more`, meta.
    const bytesOf = (column: string) => `coalesce(length(CAST(${column} AS BLOB)), 0)`;
    this.wordsSizes = db.prepare(
      `SELECT p.id AS id, coalesce(t.body_bytes, 0) + ${bytesOf('p.more')} + (length(p.more) > 0) + ${bytesOf('t.title')} + ${bytesOf('t.meta')} AS n
       FROM fts_pending p LEFT JOIN texts t ON t.id = p.id WHERE p.more IS NOT NULL ORDER BY p.id`,
    );
    // The stored pieces in order, joined (blobs of UTF-8 concatenate into the text they were cut from), then the words
    // no column stores after a newline, as fullBody joins them (index-write.ts).
    const storedBody = `coalesce((SELECT group_concat(c.text, '') FROM (SELECT text FROM body_chunks WHERE rowid >= p.id * ${CHUNK_SLOTS} AND rowid < (p.id + 1) * ${CHUNK_SLOTS} ORDER BY rowid) c), '')`;
    const waiting = 'FROM fts_pending p LEFT JOIN texts t ON t.id = p.id WHERE p.id BETWEEN ? AND ? AND p.more IS NOT NULL ORDER BY p.id';
    this.indexDocs = db.prepare(
      `INSERT INTO docs (rowid, title, body, meta)
       SELECT p.id, coalesce(t.title, ''), CASE WHEN length(p.more) > 0 THEN ${storedBody} || char(10) || p.more ELSE ${storedBody} END, coalesce(t.meta, '') ${waiting}`,
    );
    this.indexHeads = db.prepare(`INSERT INTO heads (rowid, title, meta) SELECT p.id, coalesce(t.title, ''), coalesce(t.meta, '') ${waiting}`);
    this.removeWordsIn = db.prepare('DELETE FROM fts_pending WHERE id BETWEEN ? AND ? AND more IS NOT NULL');
    // The stored body only where the identifiers are still to be found in it.
    this.identsRows = db.prepare(
      `SELECT p.id AS id, p.idents AS idents, t.title AS title, t.meta AS meta, CASE WHEN p.idents IS NULL THEN CAST(${storedBody} AS BLOB) END AS body
       FROM idents_pending p LEFT JOIN texts t ON t.id = p.id ORDER BY p.id`,
    );
    this.removeIdentsIn = db.prepare('DELETE FROM idents_pending WHERE id BETWEEN ? AND ?');
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
   * Puts the next waiting files' words into `docs` (title, stored body + `more`, meta) and `heads` (title, meta), oldest
   * first, until about `budget` bytes (at least one file), and takes them out; returns the text bytes indexed. SQLite
   * joins each file's stored pieces and its `more` itself: reading them into JS and binding them back was a third of
   * the words' catch-up (10,000 OpenCode sessions, 98 MB of text: 1,029-1,110 -> 704-762 ms of CPU, 3 runs each).
   */
  indexNextWords(budget: number): number {
    let bytes = 0;
    let first = -1;
    let last = -1;
    for (const row of this.wordsSizes.iterate() as Iterable<{ id: number; n: number }>) {
      if (bytes >= budget) break;
      if (first < 0) first = row.id;
      last = row.id;
      bytes += row.n;
    }
    if (first < 0) return 0;
    this.indexDocs.run(first, last);
    this.indexHeads.run(first, last);
    this.removeWordsIn.run(first, last);
    return bytes;
  }

  /**
   * The next files' identifiers (found in their stored text unless given), oldest first, until about `budget` bytes;
   * each taken out. One statement reads the step's files, each with its title, meta and stored body joined (one blob),
   * in place of three statements a file (the same CPU on the bench's store: 711-847 ms before, 696-825 ms since).
   */
  *nextIdents(budget: number): Generator<PendingIdents> {
    let bytes = 0;
    let first = -1;
    let last = -1;
    for (const row of this.identsRows.iterate() as Iterable<{ id: number; idents: unknown; title: unknown; meta: unknown; body: unknown }>) {
      if (bytes >= budget) break;
      if (first < 0) first = row.id;
      last = row.id;
      const idents = row.idents === null ? identsOf(asBytes(row.title), [asBytes(row.body)], asBytes(row.meta)) : asBytes(row.idents);
      bytes += idents.length;
      yield { id: row.id, idents };
    }
    if (first >= 0) this.removeIdentsIn.run(first, last);
  }
}
