// Writer thread: applies batches of index changes, so FTS inserts never run on the main thread.
import { DatabaseSync } from 'node:sqlite';
import type { MessagePort } from 'node:worker_threads';
import { IndexWrites, releaseText, type WriteOp } from './index-write.ts';

export interface WriterData {
  role: 'index-writer';
  file: string;
  /** Int32 slots, see COMMITTED / STATE. */
  signal: SharedArrayBuffer;
}

export type WriterRequest = { seq: number; ops: WriteOp[] } | { close: true };
export type WriterReport = { committed: number; error: string | null };

/** The last batch applied (or given up on), so the main thread can wait for it without an event loop. */
export const COMMITTED = 0;
/** 0 while running; CLOSED once the database is closed; FAILED when it could not be opened. */
export const STATE = 1;
export const CLOSED = 1;
export const FAILED = 2;

export function runIndexWriter(port: MessagePort, data: WriterData): void {
  const signal = new Int32Array(data.signal);
  let writes: IndexWrites;
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(data.file);
    db.exec('PRAGMA busy_timeout = 5000');
    // The index is a cache of the session files: after an OS crash it is checked, and rebuilt if damaged.
    db.exec('PRAGMA synchronous = OFF');
    db.exec('PRAGMA cache_size = -8000');
    writes = new IndexWrites(db);
  } catch {
    Atomics.store(signal, STATE, FAILED);
    Atomics.notify(signal, COMMITTED);
    Atomics.notify(signal, STATE);
    port.close();
    return;
  }
  const queue: Array<{ seq: number; ops: WriteOp[] }> = [];
  let scheduled = false;

  const applyAll = (): void => {
    scheduled = false;
    if (!queue.length) return;
    const batches = queue.splice(0);
    const last = (batches.at(-1) as { seq: number }).seq;
    // One bad row must not cost the whole batch.
    const ops = batches.flatMap((b) => b.ops);
    const error = writes.applyEach(ops);
    releaseText(ops);
    Atomics.store(signal, COMMITTED, last);
    Atomics.notify(signal, COMMITTED);
    port.postMessage({ committed: last, error } satisfies WriterReport);
  };

  port.on('message', (request: WriterRequest) => {
    if ('close' in request) {
      applyAll();
      db.close();
      Atomics.store(signal, STATE, CLOSED);
      Atomics.notify(signal, STATE);
      port.close();
      return;
    }
    queue.push(request);
    // Batches that arrive together go in one transaction.
    if (!scheduled) {
      scheduled = true;
      setImmediate(applyAll);
    }
  });
}
