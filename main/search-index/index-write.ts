// The index's write statements, used by the writer thread (and in-thread for an in-memory index).
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { SessionSummary } from '../../shared/session.ts';
import type { SummaryResponse } from '../workers/read-protocol.ts';
import { identsOf, isPacked, packedParts, type IndexText, type PackedIndexText } from './index-text.ts';
import { bodyChunks, CHUNK_SLOTS, firstChunkRowid } from './body-chunks.ts';
import { releaseBytes } from '../workers/release-bytes.ts';
import { SINCE_TIDY } from './index-tidy.ts';
import type { UsageFacts } from './usage-facts.ts';
import { UsageWrites } from './usage-write.ts';
import { PendingText, type PendingCounts } from './pending-text.ts';

/** One change to the index; the writer applies a batch of them in one transaction. */
export type WriteOp =
  | {
      kind: 'put';
      path: string;
      size: number;
      mtimeMs: number;
      key: string;
      result: SummaryResponse;
      text: IndexText | PackedIndexText | null;
      usage?: UsageFacts;
      /** Read without its text (a command that only lists): listed, and marked for the next scan that reads text. */
      textLater?: boolean;
    }
  | { kind: 'remove'; path: string }
  | { kind: 'key'; path: string; key: string };

/** The files table's columns after `path`, as put writes them. */
const FILE_COLUMNS = [
  'size',
  'mtime_ms',
  'key',
  'format',
  'project',
  'branch',
  'status',
  'outcome',
  'model',
  'created_ms',
  'updated_ms',
  'time_ms',
  'tokens',
  'cost',
  'has_summary',
  'parent_key',
  'readable',
  'companions',
] as const;

const timeOf = (iso: string | null): number | null => {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
};

/** Bytes of text an op carries: what batches and backpressure are measured in. */
export function opBytes(op: WriteOp): number {
  if (op.kind !== 'put' || !op.text) return 256;
  if (isPacked(op.text)) return 256 + op.text.packed.byteLength;
  return 256 + op.text.title.length + op.text.body.length + op.text.meta.length + op.text.idents.length + op.text.more.length;
}

/** The buffers a batch can move to the writer thread instead of copying. */
export function transferables(ops: WriteOp[]): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [];
  for (const op of ops) if (op.kind === 'put' && op.text && isPacked(op.text)) buffers.push(op.text.packed.buffer as ArrayBuffer);
  return buffers;
}

/**
 * Frees the packed text of written ops now (the writer thread's batches arrive as moved buffers, and a thread that
 * makes little garbage of its own held up to 96 MB of written ones until its next full collection).
 */
export function releaseText(ops: Iterable<WriteOp>): void {
  for (const op of ops) if (op.kind === 'put' && op.text && isPacked(op.text)) releaseBytes(op.text.packed);
}

/**
 * `deferText`: only the list's rows and the stored text are written; the full-text tables take the text later, in
 * `catchUp` steps (the writer thread, once a scan has listed everything): a CPU profile put ~80% of a cold `list`
 * in writing them. Without it, the text goes into them with the batch (searchable once it is committed).
 */
export interface ApplyOptions {
  deferText?: boolean;
}

const bytesOf = (v: Uint8Array | string): Uint8Array => (typeof v === 'string' ? Buffer.from(v) : v);

/** The body column as the word index takes it: the stored body, then the words no column stores. */
function fullBody(body: Uint8Array | string, more: Uint8Array | string): Uint8Array | string {
  if (!more.length) return body;
  if (typeof body === 'string' && typeof more === 'string') return `${body}\n${more}`;
  return Buffer.concat([bytesOf(body), Buffer.from('\n'), bytesOf(more)]);
}

/** A batch's full-text changes per FTS5 table, each in the batch's order. */
interface FullText {
  docs: Array<() => void>;
  heads: Array<() => void>;
  idents: Array<() => void>;
}

export class IndexWrites {
  private readonly db: DatabaseSync;
  private readonly insertFile: StatementSync;
  private readonly updateFile: StatementSync;
  private readonly deleteDoc: StatementSync;
  private readonly insertDoc: StatementSync;
  private readonly deleteIdents: StatementSync;
  private readonly deleteHead: StatementSync;
  private readonly insertHead: StatementSync;
  private readonly insertIdents: StatementSync;
  private readonly putText: StatementSync;
  private readonly deleteText: StatementSync;
  private readonly insertChunk: StatementSync;
  private readonly deleteChunks: StatementSync;
  private readonly idOf: StatementSync;
  private readonly deleteFile: StatementSync;
  private readonly putResult: StatementSync;
  private readonly deleteResult: StatementSync;
  private readonly setKey: StatementSync;
  private readonly countText: StatementSync;
  private readonly usage: UsageWrites;
  private readonly pending: PendingText;
  /** The batch being applied leaves its text for `catchUp`. */
  private deferText = false;
  /** Text bytes of the batch being applied, added to the tidy counter with it (index-tidy.ts). */
  private textBytes = 0;

  constructor(db: DatabaseSync) {
    this.db = db;
    this.pending = new PendingText(db);
    // A new path (every file of a first scan) is one INSERT, its id the last rowid; a known one is updated in place.
    // No path lookup and upsert ... RETURNING before it: RETURNING alone cost ~6 µs a file, 3x the INSERT (10,000
    // rows in 25 transactions, 5 runs each: lookup + upsert 96-113 ms, this INSERT 26-31 ms).
    this.insertFile = db.prepare(`
      INSERT INTO files (path, ${FILE_COLUMNS.join(', ')})
      VALUES (?, ${FILE_COLUMNS.map(() => '?').join(', ')})
      ON CONFLICT(path) DO NOTHING`);
    this.updateFile = db.prepare(`UPDATE files SET ${FILE_COLUMNS.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`);
    this.deleteDoc = db.prepare('DELETE FROM docs WHERE rowid = ?');
    this.insertDoc = db.prepare('INSERT INTO docs (rowid, title, body, meta) VALUES (?, ?, ?, ?)');
    this.deleteIdents = db.prepare('DELETE FROM idents WHERE rowid = ?');
    this.insertIdents = db.prepare('INSERT INTO idents (rowid, text) VALUES (?, ?)');
    this.deleteHead = db.prepare('DELETE FROM heads WHERE rowid = ?');
    this.insertHead = db.prepare('INSERT INTO heads (rowid, title, meta) VALUES (?, ?, ?)');
    this.putText = db.prepare('INSERT OR REPLACE INTO texts (id, title, meta, body_bytes, body_chunks) VALUES (?, ?, ?, ?, ?)');
    this.deleteText = db.prepare('DELETE FROM texts WHERE id = ?');
    this.insertChunk = db.prepare('INSERT INTO body_chunks (rowid, first_message, text) VALUES (?, ?, ?)');
    this.deleteChunks = db.prepare('DELETE FROM body_chunks WHERE rowid >= ? AND rowid < ?');
    this.idOf = db.prepare('SELECT id FROM files WHERE path = ?');
    this.deleteFile = db.prepare('DELETE FROM files WHERE id = ?');
    this.putResult = db.prepare('INSERT OR REPLACE INTO results (id, result) VALUES (?, ?)');
    this.deleteResult = db.prepare('DELETE FROM results WHERE id = ?');
    this.setKey = db.prepare('UPDATE files SET key = ? WHERE path = ?');
    this.countText = db.prepare('UPDATE index_state SET value = value + ? WHERE name = ?');
    this.usage = new UsageWrites(db);
  }

  /**
   * Applies a batch in one transaction; a failure leaves the index as it was before the batch.
   *
   * The full-text rows go in after every other row of the batch. A statement that may fail halfway (the files
   * insert: a unique path and two indexes) runs in a statement savepoint, and FTS5 writes out the words it has
   * gathered at every savepoint, as a new segment: interleaved, each session's words became a segment of their
   * own, to be merged again later. 3,000 sessions (169 MB of text) on one thread: 6.8 s -> 4.0 s.
   *
   * And they go in table by table: each FTS5 table gathers its words in a hash of up to 16 MB, and a session's
   * words, title and identifiers written one after the other kept all three hashes in the processor's caches at
   * once. The 10,000-session bench corpus's batches replayed alone: 9.1 -> 7.8 s (4 interleaved runs each).
   */
  apply(ops: Iterable<WriteOp>, options: ApplyOptions = {}): void {
    this.textBytes = 0;
    this.deferText = options.deferText === true;
    this.db.exec('BEGIN');
    try {
      const fullText: FullText = { docs: [], heads: [], idents: [] };
      for (const op of ops) this.one(op, fullText);
      // What the batch's files add to the usage totals, one row per key (usage-totals.ts).
      this.usage.writeTotals();
      for (const write of fullText.docs) write();
      for (const write of fullText.heads) write();
      for (const write of fullText.idents) write();
      if (this.textBytes) this.countText.run(this.textBytes, SINCE_TIDY);
      this.db.exec('COMMIT');
    } catch (err) {
      this.usage.clearTotals();
      this.db.exec('ROLLBACK');
      throw err;
    }
  }

  /** Applies a batch; when it fails as a whole, op by op, skipping what fails. Returns the first failure, if any. */
  applyEach(ops: WriteOp[], options: ApplyOptions = {}): string | null {
    try {
      this.apply(ops, options);
      return null;
    } catch {
      let error: string | null = null;
      for (const op of ops) {
        try {
          this.apply([op], options);
        } catch (err) {
          error ??= err instanceof Error ? err.message : String(err);
        }
      }
      return error;
    }
  }

  /** Writes the op's plain rows now and queues its full-text changes on `fullText`, in order for each table. */
  private one(op: WriteOp, fullText: FullText): void {
    if (op.kind === 'remove') this.remove(op.path, fullText);
    else if (op.kind === 'key') this.setKey.run(op.key, op.path);
    else this.put(op, fullText);
  }

  private remove(path: string, fullText: FullText): void {
    const row = this.idOf.get(path) as { id: number } | undefined;
    if (!row) return;
    this.deleteTexts(row.id, fullText);
    this.deleteResult.run(row.id);
    this.usage.remove(row.id);
    this.deleteFile.run(row.id);
  }

  private deleteTexts(id: number, fullText: FullText): void {
    // Text still waiting for the full-text tables was never in them.
    const waiting = this.pending.take(id);
    if (!waiting.words) {
      fullText.docs.push(() => this.deleteDoc.run(id));
      fullText.heads.push(() => this.deleteHead.run(id));
    }
    if (!waiting.idents) fullText.idents.push(() => this.deleteIdents.run(id));
    this.deleteText.run(id);
    this.deleteChunks.run(firstChunkRowid(id), firstChunkRowid(id) + CHUNK_SLOTS);
  }

  private put(op: Extract<WriteOp, { kind: 'put' }>, fullText: FullText): void {
    const s: SessionSummary | null = op.result.ok ? op.result.summary : null;
    const created = timeOf(s?.createdAt ?? null);
    const updated = timeOf(s?.updatedAt ?? null);
    // In FILE_COLUMNS' order.
    const values = [
      op.size,
      op.mtimeMs,
      op.key,
      s?.format ?? (op.result.ok ? null : op.result.format),
      s ? [s.projectName, s.projectPath].filter(Boolean).join('\n') : null,
      s?.branch ?? null,
      s?.status ?? null,
      s?.outcomeStatus ?? null,
      s?.model ?? null,
      created,
      updated,
      updated ?? created ?? Math.round(op.mtimeMs),
      s?.totalTokens ?? null,
      s?.costUsd ?? null,
      s?.outcomeSummary ? 1 : 0,
      s?.parentKey ?? null,
      op.result.ok ? 1 : 0,
      op.result.ok && op.result.companions.length ? JSON.stringify(op.result.companions) : null,
    ];
    // A path seen for the first time has no text to delete: the common case of a cold build, one statement a file.
    const inserted = this.insertFile.run(op.path, ...values);
    const known = inserted.changes === 0;
    const row = known ? (this.idOf.get(op.path) as { id: number }) : { id: Number(inserted.lastInsertRowid) };
    if (known) this.updateFile.run(...values, row.id);
    this.putResult.run(row.id, JSON.stringify(op.result));
    if (known) {
      this.deleteTexts(row.id, fullText);
      this.usage.remove(row.id);
    }
    this.usage.put(row.id, op.usage, s);
    // Packed text goes in as its UTF-8 bytes (stored as blobs; readers decode them with storedString).
    const given = op.text && isPacked(op.text) ? packedParts(op.text) : op.text;
    const text = given ?? {
      title: s?.title ?? '',
      body: '',
      meta: s ? [s.id, s.projectPath, s.branch].filter(Boolean).join('\n') : op.path,
      idents: '',
      more: '',
    };
    const chunks = bodyChunks(text.body);
    const bodyBytes = chunks.reduce((n, c) => n + c.bytes.byteLength, 0);
    this.putText.run(row.id, text.title, text.meta, bodyBytes, chunks.length);
    for (const c of chunks) this.insertChunk.run(firstChunkRowid(row.id) + c.n, c.firstMessage, c.bytes);
    // The scan worker leaves the identifiers to be found here, in the stored text (identsOf); strings come with theirs.
    const idents = text.idents.length ? text.idents : null;
    if (op.textLater) this.pending.putUnread(row.id);
    else if (this.deferText) this.pending.put(row.id, idents, text.more);
    else
      this.queueFullText(
        row.id,
        text.title,
        fullBody(text.body, text.more),
        text.meta,
        idents ??
          identsOf(
            bytesOf(text.title),
            chunks.map((c) => c.bytes),
            bytesOf(text.meta),
          ),
        fullText,
      );
  }

  private queueFullText(
    id: number,
    title: Uint8Array | string,
    body: Uint8Array | string,
    meta: Uint8Array | string,
    idents: Uint8Array | string,
    fullText: FullText,
  ): void {
    this.queueWords(id, title, body, meta, fullText);
    this.queueIdents(id, idents, fullText);
  }

  private queueWords(id: number, title: Uint8Array | string, body: Uint8Array | string, meta: Uint8Array | string, fullText: FullText): void {
    fullText.docs.push(() => this.insertDoc.run(id, title, body, meta));
    fullText.heads.push(() => this.insertHead.run(id, title, meta));
    this.textBytes += body.length + title.length + meta.length;
  }

  private queueIdents(id: number, idents: Uint8Array | string, fullText: FullText): void {
    if (idents.length) fullText.idents.push(() => this.insertIdents.run(id, idents));
  }

  /** See PendingText.dropFirst. */
  dropFirstPending(): void {
    this.pending.dropFirst();
  }

  /** Files whose text waits for the full-text tables: their words (not searchable yet), their identifiers. */
  pendingCounts(): PendingCounts {
    return this.pending.counts();
  }

  /**
   * One step of the catch-up, in one transaction: the next waiting files' words (about `budget.words` bytes), or,
   * once every file's words are in, their identifiers (about `budget.idents` bytes: trigrams cost far more a byte).
   * Returns what still waits.
   */
  catchUp(budget: { words: number; idents: number }): PendingCounts {
    this.textBytes = 0;
    const before = this.pending.counts();
    this.db.exec('BEGIN');
    try {
      const fullText: FullText = { docs: [], heads: [], idents: [] };
      // Words: docs, then heads, each file's text joined in SQL (pending-text.ts); else identifiers.
      if (before.words > 0) this.textBytes += this.pending.indexNextWords(budget.words);
      else for (const e of this.pending.nextIdents(budget.idents)) this.queueIdents(e.id, e.idents, fullText);
      for (const write of fullText.idents) write();
      if (this.textBytes) this.countText.run(this.textBytes, SINCE_TIDY);
      this.db.exec('COMMIT');
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw err;
    }
    return this.pending.counts();
  }
}
