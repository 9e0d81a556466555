// Writer thread: applies batches of index changes, so FTS inserts never run on the main thread.
import { CATCH_UP_IDENT_BYTES, CATCH_UP_STEP_BYTES } from '../env/tuning.ts';
import type { PendingCounts } from './pending-text.ts';
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
 * what bulk writes left unmerged (index-tidy.ts). `catchUp`: from now on, put the text that batches left waiting
 * (pending-text.ts) into the full-text tables, a step at a time between batches, before any tidy pass: every
 * file's words first, then the identifiers.
 */
/** What the main thread asks of the writer thread: a batch to write, a tidy pass, the catch-up, or to close. */
export type WriterRequest = { kind: 'write'; seq: number; ops: WriteOp[]; deferText?: boolean } | { kind: 'tidy' } | { kind: 'catchUp' } | { kind: 'close' };
/**
 * `tidying`: whether a tidy pass runs now (sent when one starts or ends, and in answer to every tidy request).
 * `bulk` (with `tidying`): the file is in bulk merge mode (merge-mode.ts), its batches waiting for a tidy pass to be
 * merged. Every batch this thread applies puts the file in that mode.
 * `pending` (once asked to catch up): files whose words are not in the full-text tables yet (not searchable), and
 * whose identifiers are not (no substring matches), after what `committed` covers.
 */
export type WriterReport = { committed: number; error: string | null; tidying?: boolean; bulk?: boolean; pending?: PendingCounts };

/** The last batch applied (or given up on), so the main thread can wait for it without an event loop. */
export const COMMITTED = 0;
/** 0 while running; CLOSED once the database is closed; FAILED when it could not be opened. */
export const STATE = 1;
export const CLOSED = 1;
export const FAILED = 2;

/** The writer thread's connection settings (the bench's replay of the writer opens its connection alike). */
export function configureWriterConnection(db: DatabaseSync): void {
  db.exec('PRAGMA busy_timeout = 5000');
  // The index is a cache of the session files: after an OS crash it is checked, and rebuilt if damaged.
  db.exec('PRAGMA synchronous = OFF');
  db.exec('PRAGMA cache_size = -8000');
}

export function runIndexWriter(port: MessagePort, data: WriterData): void {
  const signal = new Int32Array(data.signal);
  let writes: IndexWrites;
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(data.file);
    configureWriterConnection(db);
    writes = new IndexWrites(db);
  } catch {
    Atomics.store(signal, STATE, FAILED);
    Atomics.notify(signal, COMMITTED);
    Atomics.notify(signal, STATE);
    port.close();
    return;
  }
  const queue: Array<{ seq: number; ops: WriteOp[]; deferText?: boolean }> = [];
  let scheduled = false;
  let tidy: IndexTidy | null = null;
  let stepScheduled = false;
  // This thread writes scans and large changes: their batches are merged by a tidy pass afterwards (merge-mode.ts).
  let bulk = false;
  /** Asked to catch up: text left waiting goes into the full-text tables whenever no batch waits. */
  let catchingUp = false;
  let catchUpScheduled = false;
  /** A tidy pass asked for while catching up starts once the text is in. */
  let tidyAfterCatchUp = false;

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

  const enterBulk = (): void => {
    if (bulk) return;
    try {
      setMergeMode(db, 'bulk');
      bulk = true;
    } catch {
      // Then FTS5 merges as the batches come in: slower, nothing lost.
    }
  };

  const NONE: PendingCounts = { words: 0, idents: 0 };
  const pendingCounts = (): PendingCounts => {
    try {
      return writes.pendingCounts();
    } catch {
      return NONE;
    }
  };
  const waits = (p: PendingCounts) => p.words + p.idents > 0;

  const scheduleCatchUp = (): void => {
    if (catchUpScheduled || !catchingUp) return;
    catchUpScheduled = true;
    setImmediate(catchUpStep);
  };

  // One step of text per turn of the event loop, and none while batches wait: the list's rows go in first.
  const catchUpStep = (): void => {
    catchUpScheduled = false;
    if (!catchingUp || queue.length) return;
    enterBulk();
    let error: string | null = null;
    let left: PendingCounts;
    try {
      left = writes.catchUp({ words: CATCH_UP_STEP_BYTES, idents: CATCH_UP_IDENT_BYTES });
    } catch (err) {
      // The step is rolled back; the first waiting file's text is given up (it stays listed), so the rest goes on.
      error = `Some sessions could not be added to the search index: ${err instanceof Error ? err.message : String(err)}`;
      try {
        writes.dropFirstPending();
        left = pendingCounts();
      } catch {
        left = NONE;
      }
    }
    port.postMessage({ committed: Atomics.load(signal, COMMITTED), error, pending: left } satisfies WriterReport);
    if (waits(left)) return scheduleCatchUp();
    scheduleStep();
    if (tidyAfterCatchUp) {
      tidyAfterCatchUp = false;
      startTidy();
    }
  };

  // One merge step per turn of the event loop, and none while batches wait or text is caught up: they go in first.
  const tidyStep = (): void => {
    stepScheduled = false;
    if (!tidy || queue.length) return;
    if (catchingUp && waits(pendingCounts())) return;
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
    // Text still waiting will add segments when it goes in: the pass waits for it (a one-shot command that only
    // lists never asks for it, and closes the thread with the pass still waiting).
    if (waits(pendingCounts())) {
      tidyAfterCatchUp = true;
      port.postMessage({ committed: Atomics.load(signal, COMMITTED), error: null, tidying: true, bulk } satisfies WriterReport);
      return;
    }
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
    scheduleCatchUp();
    if (!queue.length) return;
    const batches = queue.splice(0);
    const last = (batches.at(-1) as { seq: number }).seq;
    enterBulk();
    // One bad row must not cost the whole batch. Batches a scan sent while listing leave their text waiting
    // (applied apart from any others that came with them).
    let error: string | null = null;
    for (let i = 0; i < batches.length;) {
      const deferText = batches[i]?.deferText === true;
      const ops: WriteOp[] = [];
      for (; i < batches.length && (batches[i]?.deferText === true) === deferText; i++) ops.push(...(batches[i]?.ops ?? []));
      error ??= writes.applyEach(ops, { deferText });
      releaseText(ops);
    }
    Atomics.store(signal, COMMITTED, last);
    Atomics.notify(signal, COMMITTED);
    port.postMessage({ committed: last, error, ...(catchingUp ? { pending: pendingCounts() } : {}) } satisfies WriterReport);
  };

  const startCatchUp = (): void => {
    catchingUp = true;
    const pending = pendingCounts();
    port.postMessage({ committed: Atomics.load(signal, COMMITTED), error: null, pending } satisfies WriterReport);
    if (waits(pending)) scheduleCatchUp();
    else if (tidyAfterCatchUp) {
      tidyAfterCatchUp = false;
      startTidy();
    }
  };

  port.on('message', (request: WriterRequest) => {
    if (request.kind === 'tidy') return startTidy();
    if (request.kind === 'catchUp') return startCatchUp();
    if (request.kind === 'close') {
      // A tidy pass cut short here goes on at the next tidy request: its count stays in the file. So does text
      // still waiting: the next writer thread asked to catch up takes it.
      tidy = null;
      catchingUp = false;
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
