// Writer thread: applies batches of index changes, so FTS inserts never run on the main thread.
import { DatabaseSync } from 'node:sqlite';
import type { MessagePort } from 'node:worker_threads';
import { IndexWrites, releaseText, type WriteOp } from './index-write.ts';
import { IndexTidy, tidyNeeded, type TidyLimits } from './index-tidy.ts';
import { mergeModeOf, setMergeMode } from './merge-mode.ts';

export interface WriterData {
  role: 'index-writer';
  file: string;
  /** Int32 slots, see COMMITTED / STATE. */
  signal: SharedArrayBuffer;
  /** Thresholds for tests; the defaults are in index-tidy.ts. */
  tidy?: TidyLimits;
}

/**
 * `tidy`: merge the full-text tables, between batches: all of them if enough text came in since the last time, or
 * what bulk writes left unmerged (index-tidy.ts).
 */
export type WriterRequest = { seq: number; ops: WriteOp[] } | { close: true } | { tidy: true };
/**
 * `tidying`: whether a tidy pass runs now (sent when one starts or ends, and in answer to every tidy request).
 * `bulk` (with `tidying`): the file is in bulk merge mode (merge-mode.ts), its batches waiting for a tidy pass to be
 * merged. Every batch this thread applies puts the file in that mode.
 */
export type WriterReport = { committed: number; error: string | null; tidying?: boolean; bulk?: boolean };

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
  let tidy: IndexTidy | null = null;
  let stepScheduled = false;
  // This thread writes scans and large changes: their batches are merged by a tidy pass afterwards (merge-mode.ts).
  let bulk = false;

  const readMode = (): boolean => {
    try {
      return mergeModeOf(db) === 'bulk';
    } catch {
      return bulk;
    }
  };
  bulk = readMode();

  const scheduleStep = (): void => {
    if (stepScheduled || !tidy) return;
    stepScheduled = true;
    setImmediate(tidyStep);
  };

  // One merge step per turn of the event loop, and none while batches wait: they go in first.
  const tidyStep = (): void => {
    stepScheduled = false;
    if (!tidy || queue.length) return;
    let error: string | null = null;
    let more = false;
    try {
      more = tidy.step();
    } catch (err) {
      // A file left in bulk mode is asked again after the next scan. (Steady mode now would have FTS5 merge the
      // whole pile at the next write, maybe on the main thread.)
      error = `Merging the search index stopped: ${err instanceof Error ? err.message : String(err)}`;
    }
    if (more) return scheduleStep();
    tidy = null;
    bulk = readMode();
    port.postMessage({ committed: Atomics.load(signal, COMMITTED), error, tidying: false, bulk } satisfies WriterReport);
  };

  const startTidy = (): void => {
    let error: string | null = null;
    try {
      const kind = tidy ? null : tidyNeeded(db, data.tidy);
      if (kind) tidy = new IndexTidy(db, data.tidy, kind);
    } catch (err) {
      error = `The search index could not be merged: ${err instanceof Error ? err.message : String(err)}`;
    }
    port.postMessage({ committed: Atomics.load(signal, COMMITTED), error, tidying: tidy !== null, bulk } satisfies WriterReport);
    scheduleStep();
  };

  const applyAll = (): void => {
    scheduled = false;
    scheduleStep();
    if (!queue.length) return;
    const batches = queue.splice(0);
    const last = (batches.at(-1) as { seq: number }).seq;
    if (!bulk) {
      try {
        setMergeMode(db, 'bulk');
        bulk = true;
      } catch {
        // Then FTS5 merges as the batches come in: slower, nothing lost.
      }
    }
    // One bad row must not cost the whole batch.
    const ops = batches.flatMap((b) => b.ops);
    const error = writes.applyEach(ops);
    releaseText(ops);
    Atomics.store(signal, COMMITTED, last);
    Atomics.notify(signal, COMMITTED);
    port.postMessage({ committed: last, error } satisfies WriterReport);
  };

  port.on('message', (request: WriterRequest) => {
    if ('tidy' in request) return startTidy();
    if ('close' in request) {
      // A tidy pass cut short here goes on at the next tidy request: its count stays in the file.
      tidy = null;
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
