// The index's write statements, used by the writer thread (and in-thread for an in-memory index).
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { SessionSummary } from '../../shared/session.ts';
import type { SummaryResponse } from '../workers/read-protocol.ts';
import { isPacked, packedParts, type IndexText, type PackedIndexText } from './index-text.ts';
import { bodyChunks, CHUNK_SLOTS, firstChunkRowid } from './body-chunks.ts';
import { releaseBytes } from '../workers/release-bytes.ts';
import { SINCE_TIDY } from './index-tidy.ts';
import type { UsageRow } from './usage-rows.ts';

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
      usage?: UsageRow[];
    }
  | { kind: 'remove'; path: string }
  | { kind: 'key'; path: string; key: string };

const timeOf = (iso: string | null): number | null => {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
};

/** Bytes of text an op carries: what batches and backpressure are measured in. */
export function opBytes(op: WriteOp): number {
  if (op.kind !== 'put' || !op.text) return 256;
  if (isPacked(op.text)) return 256 + op.text.packed.byteLength;
  return 256 + op.text.title.length + op.text.body.length + op.text.meta.length + op.text.idents.length;
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

/** A batch's full-text changes per FTS5 table, each in the batch's order. */
interface FullText {
  docs: Array<() => void>;
  heads: Array<() => void>;
  idents: Array<() => void>;
}

export class IndexWrites {
  private readonly db: DatabaseSync;
  private readonly upsert: StatementSync;
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
  private readonly insertUsage: StatementSync;
  private readonly deleteUsage: StatementSync;
  /** Text bytes of the batch being applied, added to the tidy counter with it (index-tidy.ts). */
  private textBytes = 0;

  constructor(db: DatabaseSync) {
    this.db = db;
    this.upsert = db.prepare(`
      INSERT INTO files (path, size, mtime_ms, key, format, project, branch, status, outcome, model, created_ms, updated_ms, time_ms, tokens, cost, has_summary, parent_key, readable, companions)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT(path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms, key = excluded.key, format = excluded.format,
        project = excluded.project, branch = excluded.branch, status = excluded.status, outcome = excluded.outcome, model = excluded.model,
        created_ms = excluded.created_ms, updated_ms = excluded.updated_ms, time_ms = excluded.time_ms, tokens = excluded.tokens,
        cost = excluded.cost, has_summary = excluded.has_summary,
        parent_key = excluded.parent_key, readable = excluded.readable, companions = excluded.companions
      RETURNING id`);
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
    this.insertUsage = db.prepare(
      'INSERT INTO usage (file_id, hour_ms, model, input, output, cache_read, cache_write, reasoning, cost, unpriced, calls) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.deleteUsage = db.prepare('DELETE FROM usage WHERE file_id = ?');
  }

  /**
   * Applies a batch in one transaction; a failure leaves the index as it was before the batch.
   *
   * The full-text rows go in after every other row of the batch. A statement that may fail halfway (the files
   * upsert: a unique path and two indexes) runs in a statement savepoint, and FTS5 writes out the words it has
   * gathered at every savepoint, as a new segment: interleaved, each session's words became a segment of their
   * own, to be merged again later. 3,000 sessions (169 MB of text) on one thread: 6.8 s -> 4.0 s.
   *
   * And they go in table by table: each FTS5 table gathers its words in a hash of up to 16 MB, and a session's
   * words, title and identifiers written one after the other kept all three hashes in the processor's caches at
   * once. The 10,000-session bench corpus's batches replayed alone: 9.1 -> 7.8 s (4 interleaved runs each).
   */
  apply(ops: Iterable<WriteOp>): void {
    this.textBytes = 0;
    this.db.exec('BEGIN');
    try {
      const fullText: FullText = { docs: [], heads: [], idents: [] };
      for (const op of ops) this.one(op, fullText);
      for (const write of fullText.docs) write();
      for (const write of fullText.heads) write();
      for (const write of fullText.idents) write();
      if (this.textBytes) this.countText.run(this.textBytes, SINCE_TIDY);
      this.db.exec('COMMIT');
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw err;
    }
  }

  /** Applies a batch; when it fails as a whole, op by op, skipping what fails. Returns the first failure, if any. */
  applyEach(ops: WriteOp[]): string | null {
    try {
      this.apply(ops);
      return null;
    } catch {
      let error: string | null = null;
      for (const op of ops) {
        try {
          this.apply([op]);
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
    this.deleteUsage.run(row.id);
    this.deleteFile.run(row.id);
  }

  private deleteTexts(id: number, fullText: FullText): void {
    fullText.docs.push(() => this.deleteDoc.run(id));
    fullText.heads.push(() => this.deleteHead.run(id));
    fullText.idents.push(() => this.deleteIdents.run(id));
    this.deleteText.run(id);
    this.deleteChunks.run(firstChunkRowid(id), firstChunkRowid(id) + CHUNK_SLOTS);
  }

  private put(op: Extract<WriteOp, { kind: 'put' }>, fullText: FullText): void {
    const s: SessionSummary | null = op.result.ok ? op.result.summary : null;
    const created = timeOf(s?.createdAt ?? null);
    const updated = timeOf(s?.updatedAt ?? null);
    // A path seen for the first time has no text to delete: the common case of a cold build skips two lookups.
    const known = this.idOf.get(op.path) as { id: number } | undefined;
    const row = this.upsert.get(
      op.path,
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
    ) as { id: number };
    this.putResult.run(row.id, JSON.stringify(op.result));
    if (known) {
      this.deleteTexts(row.id, fullText);
      this.deleteUsage.run(row.id);
    }
    for (const u of op.usage ?? [])
      this.insertUsage.run(row.id, u.hourMs, u.model, u.input, u.output, u.cacheRead, u.cacheWrite, u.reasoning, u.costUsd, u.unpriced, u.calls);
    // Packed text goes in as its UTF-8 bytes (stored as blobs; readers decode them with storedString).
    const given = op.text && isPacked(op.text) ? packedParts(op.text) : op.text;
    const text = given ?? { title: s?.title ?? '', body: '', meta: s ? [s.id, s.projectPath, s.branch].filter(Boolean).join('\n') : op.path, idents: '' };
    fullText.docs.push(() => this.insertDoc.run(row.id, text.title, text.body, text.meta));
    fullText.heads.push(() => this.insertHead.run(row.id, text.title, text.meta));
    if (text.idents.length) fullText.idents.push(() => this.insertIdents.run(row.id, text.idents));
    const chunks = bodyChunks(text.body);
    const bodyBytes = chunks.reduce((n, c) => n + c.bytes.byteLength, 0);
    this.textBytes += bodyBytes + text.title.length + text.meta.length;
    this.putText.run(row.id, text.title, text.meta, bodyBytes, chunks.length);
    for (const c of chunks) this.insertChunk.run(firstChunkRowid(row.id) + c.n, c.firstMessage, c.bytes);
  }
}
