// The index writer that writes on the calling thread: in-memory indexes, small batches, and when no thread can run.
import type { DatabaseSync } from 'node:sqlite';
import { IndexWrites, type WriteOp } from './index-write.ts';
import type { IndexWriter } from './index-writer.ts';
import type { PendingCounts } from './pending-text.ts';

const NONE: PendingCounts = { words: 0, idents: 0 };

/** Writes here, at once: an in-memory index (no other thread can open it), small batches, and when the thread cannot run. */
export class InlineWriter implements IndexWriter {
  private readonly db: DatabaseSync;
  private readonly writes: IndexWrites;
  readonly backlog = 0;
  /** Its writes go into the full-text tables at once: nothing waits. */
  readonly pendingText = NONE;
  onCommit = () => undefined;
  onPending = () => undefined;
  problem: string | null = null;

  constructor(db: DatabaseSync) {
    this.db = db;
    this.writes = new IndexWrites(db);
  }

  /**
   * Its batches are written as the writer thread writes them, without syncing the file (configureWriterConnection):
   * the index is a cache of the session files. A command that only lists writes every batch here (no text: no
   * thread), and at the connection's own `synchronous = NORMAL` each WAL checkpoint synced the WAL and the file, on the
   * main thread that hands the scan workers their files: a cold list of the realistic gigabyte made 82 fsyncs, 2 s
   * blocked at load 10. The connection's own setting is back for whatever it writes next.
   */
  write(ops: WriteOp[]): void {
    const level = (this.db.prepare('PRAGMA synchronous').get() as { synchronous: number } | undefined)?.synchronous ?? 2;
    this.db.exec('PRAGMA synchronous = OFF');
    let error: string | null;
    try {
      error = this.writes.applyEach(ops);
    } finally {
      this.db.exec(`PRAGMA synchronous = ${level}`);
    }
    if (error) this.problem = `Some sessions could not be added to the search index: ${error}`;
    this.onCommit();
  }

  sync(): void {}

  rest(): void {}

  uncommittedPaths(): void {}

  /** Not here: a tidy pass takes seconds of a large index, and this writer runs on the main thread. */
  tidy(): void {}

  whenTidied(): Promise<void> {
    return Promise.resolve();
  }

  catchUp(): void {}

  whenSearchable(): Promise<void> {
    return Promise.resolve();
  }

  whenCaughtUp(): Promise<void> {
    return Promise.resolve();
  }

  close(): void {}
}
