// Hands batches of index changes to the writer thread; the main thread can still wait for them when it must.
import { Worker } from 'node:worker_threads';
import { workerFile } from '../workers/read-pool.ts';
import { WORKER_YOUNG_MB, WRITER_HEAP_MB } from '../env/tuning.ts';
import { transferables, type WriteOp } from './index-write.ts';
import { CLOSED, COMMITTED, FAILED, STATE, type WriterData, type WriterReport, type WriterRequest } from './index-writer-thread.ts';
import type { TidyLimits } from './index-tidy.ts';
import type { PendingCounts } from './pending-text.ts';

const NONE: PendingCounts = { words: 0, idents: 0 };

export interface IndexWriter {
  /** `deferText`: a scan's batch, written while it lists: its text waits for the catch-up (a thread's writes only). */
  write(ops: WriteOp[], bytes: number, deferText?: boolean): void;
  /** Returns once every batch written so far is in the index file. */
  sync(): void;
  /** Bytes of text handed over and not yet in the index. */
  readonly backlog: number;
  /** Called after batches land, so scans held back by a full backlog go on. */
  onCommit: () => void;
  /** The last write that failed, said plainly. */
  readonly problem: string | null;
  /** Gives back what an idle writer holds. */
  rest(): void;
  /** Paths of the batches handed over and not yet committed. */
  uncommittedPaths(into: Set<string>): void;
  /**
   * Merges the full-text tables between batches, when due: all of them after much new text, else what bulk writes
   * left unmerged (index-tidy.ts, merge-mode.ts).
   */
  tidy(): void;
  /** Resolves when no tidy pass runs. */
  whenTidied(): Promise<void>;
  /**
   * From now on, text that batches left waiting (pending-text.ts) goes into the full-text tables, a step at a time
   * between batches, before any tidy pass. Until asked, a scan's batches write the list's rows only.
   */
  catchUp(): void;
  /** Files whose words (then identifiers) are not in the full-text tables yet, as last known (none before a catch-up). */
  readonly pendingText: PendingCounts;
  /** Called when those counts change. */
  onPending: (pending: PendingCounts) => void;
  /** Asks for the catch-up; resolves once every file's words are in (or the writer is gone). */
  whenSearchable(): Promise<void>;
  /** Asks for the catch-up; resolves once no file's text waits at all, identifiers included (or the writer is gone). */
  whenCaughtUp(): Promise<void>;
  close(): void;
}

/** The main thread never waits longer than this for the writer; past it the writer is taken as stuck. */
const SYNC_LIMIT_MS = 60_000;
/** An idle writer thread is closed after this long, so a quiet app does not keep it (and its caches) around. */
const IDLE_CLOSE_MS = 3000;
/** A batch this small (a watched file changed) is written here when no writer thread runs: starting one costs more. */
const INLINE_BYTES = 256 * 1024;

/** Blocks until the slot may have changed. Where a host forbids Atomics.wait on its main thread, it spins instead. */
let canWait = true;
function pause(signal: Int32Array, slot: number, seen: number, ms: number): void {
  if (canWait) {
    try {
      Atomics.wait(signal, slot, seen, ms);
      return;
    } catch {
      canWait = false;
    }
  }
  const until = performance.now() + Math.min(ms, 5);
  while (Atomics.load(signal, slot) === seen && performance.now() < until) {
    // spin: the writer thread is working on the other core
  }
}

interface Thread {
  worker: Worker;
  signal: Int32Array;
}

export class ThreadWriter implements IndexWriter {
  private readonly file: string;
  private readonly fallback: () => IndexWriter;
  private thread: Thread | null = null;
  /** Batches handed over and not yet reported applied (their text moved to the thread), for a takeover. */
  private readonly inFlight = new Map<number, { ops: WriteOp[]; bytes: number }>();
  private seq = 0;
  private bytes = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  private replacement: IndexWriter | null = null;
  private inline: IndexWriter | null = null;
  /** A tidy pass asked for and not yet over: the thread is not retired meanwhile. */
  private tidying = false;
  /**
   * The thread's batches may not be merged yet (every batch it applies puts the file in bulk merge mode,
   * merge-mode.ts): it settles them before it is retired.
   */
  private bulk = false;
  /** A settling pass was asked for since the last batch: if it failed, the thread retires anyway. */
  private settleAsked = false;
  private tidied: Array<() => void> = [];
  private readonly tidyLimits: TidyLimits | undefined;
  /** Asked to catch up: every thread started from now on is asked too. */
  private catchUpAsked = false;
  private pending: PendingCounts = NONE;
  /** The running thread has said how much text waits (so `pending` is current). */
  private pendingKnown = false;
  /** Who waits, for the words or for everything. */
  private caughtUp: Array<{ words: boolean; resolve: () => void }> = [];
  problem: string | null = null;
  onCommit = () => undefined;
  onPending: (pending: PendingCounts) => void = () => undefined;

  /** `fallback` makes an in-thread writer, used for small batches while no thread runs and when the thread cannot run. */
  constructor(file: string, fallback: () => IndexWriter, tidyLimits?: TidyLimits) {
    this.file = file;
    this.fallback = fallback;
    this.tidyLimits = tidyLimits;
  }

  get backlog(): number {
    return this.replacement ? this.replacement.backlog : this.bytes;
  }

  /** Started on the first write, so a start that finds nothing changed never spawns it. */
  private spawn(): Thread {
    const shared = new SharedArrayBuffer(8);
    const signal = new Int32Array(shared);
    Atomics.store(signal, COMMITTED, this.seq);
    const data: WriterData = { role: 'index-writer', file: this.file, signal: shared, ...(this.tidyLimits ? { tidy: this.tidyLimits } : {}) };
    // The writer holds at most one batch of text at a time: a small heap cap keeps V8 from growing past that.
    const worker = new Worker(workerFile(), {
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: WRITER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
    });
    worker.unref();
    if (this.catchUpAsked) worker.postMessage({ kind: 'catchUp' } satisfies WriterRequest);
    this.pendingKnown = false;
    const thread: Thread = { worker, signal };
    worker.on('message', (report: WriterReport) => {
      // A tidy report's error is a sentence of its own; a batch's names what failed.
      if (report.error) this.problem = report.tidying === undefined ? `Some sessions could not be added to the search index: ${report.error}` : report.error;
      // A pass's end says whether the file is still in bulk mode; a batch sent after what it covers puts it back.
      if (this.thread === thread && report.bulk !== undefined) this.bulk = report.bulk || this.seq > report.committed;
      if (report.tidying === false) this.endTidy();
      this.settle(report.committed);
      if (this.thread === thread && report.pending !== undefined) this.notePending(report.pending, report.committed);
      this.onCommit();
      if (this.thread === thread && !this.inFlight.size) this.idleLater();
    });
    worker.on('error', (err) => {
      if (this.thread === thread) this.takeOver(err.message);
    });
    worker.on('exit', () => {
      if (this.thread === thread && Atomics.load(signal, STATE) !== CLOSED) this.takeOver('the writer thread stopped');
    });
    return thread;
  }

  private idleLater(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.rest(), IDLE_CLOSE_MS);
    this.idleTimer.unref();
  }

  rest(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.replacement || this.inFlight.size || this.tidying || !this.thread || (this.catchUpAsked && this.pending.words + this.pending.idents > 0)) return;
    // Not before what it wrote in bulk is merged: every search reads each of those segments, and nothing else would
    // merge them before the next scan. That pass ends with an idle thread again, and this is called once more.
    if (this.bulk && !this.settleAsked) {
      this.settleAsked = true;
      return this.tidy();
    }
    // Retired: it closes its connection and ends; the next write starts a fresh one.
    this.thread.worker.postMessage({ kind: 'close' } satisfies WriterRequest);
    this.thread = null;
  }

  /** Whether a writer thread runs now (it is retired when idle). */
  get threadRunning(): boolean {
    return this.thread !== null;
  }

  private settle(committed: number): void {
    for (const [seq, batch] of this.inFlight) {
      if (seq > committed) break;
      this.bytes -= batch.bytes;
      this.inFlight.delete(seq);
    }
  }

  tidy(): void {
    if (this.replacement) return this.replacement.tidy();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.thread ??= this.spawn();
    this.tidying = true;
    this.thread.worker.postMessage({ kind: 'tidy' } satisfies WriterRequest);
  }

  get pendingText(): PendingCounts {
    return this.replacement ? this.replacement.pendingText : this.pending;
  }

  /** `start`: start a thread if none runs (false: a thread that starts later is asked, none is started for it). */
  catchUp(start = true): void {
    if (this.replacement) return this.replacement.catchUp();
    const asked = this.catchUpAsked;
    this.catchUpAsked = true;
    if (this.thread) {
      if (this.idleTimer) clearTimeout(this.idleTimer);
      this.idleTimer = null;
      if (!asked) this.thread.worker.postMessage({ kind: 'catchUp' } satisfies WriterRequest);
    } else if (start) this.thread = this.spawn();
  }

  whenSearchable(): Promise<void> {
    return this.waitFor(true);
  }

  whenCaughtUp(): Promise<void> {
    return this.waitFor(false);
  }

  /** `words`: only until every file's words are in. */
  private waitFor(words: boolean): Promise<void> {
    if (this.replacement) return words ? this.replacement.whenSearchable() : this.replacement.whenCaughtUp();
    this.catchUp();
    if (this.pendingKnown && !this.inFlight.size && this.done(words)) return Promise.resolve();
    return new Promise((resolve) => this.caughtUp.push({ words, resolve }));
  }

  private done(words: boolean): boolean {
    return this.pending.words === 0 && (words || this.pending.idents === 0);
  }

  /** `committed`: the last batch the counts cover; they are current only once they cover every batch sent. */
  private notePending(pending: PendingCounts, committed: number): void {
    if (pending.words !== this.pending.words || pending.idents !== this.pending.idents) {
      this.pending = pending;
      this.onPending(pending);
    }
    if (committed < this.seq) return;
    this.pendingKnown = true;
    if (this.inFlight.size) return;
    const waiting = this.caughtUp;
    this.caughtUp = waiting.filter((w) => !this.done(w.words));
    for (const w of waiting) if (this.done(w.words)) w.resolve();
  }

  /** Nobody waits for the catch-up any more (the thread is gone or closing). */
  private endCatchUp(): void {
    const waiting = this.caughtUp;
    this.caughtUp = [];
    for (const w of waiting) w.resolve();
  }

  whenTidied(): Promise<void> {
    if (this.replacement) return this.replacement.whenTidied();
    if (!this.tidying) return Promise.resolve();
    return new Promise((resolve) => this.tidied.push(resolve));
  }

  private endTidy(): void {
    this.tidying = false;
    const waiting = this.tidied;
    this.tidied = [];
    for (const resolve of waiting) resolve();
  }

  /** The thread is gone: what it had not applied is written here, and so is everything after. */
  private takeOver(reason: string): void {
    if (this.replacement) return;
    this.endTidy();
    // What waits in the file is indexed by the next writer thread (a later start); nobody waits for it now.
    this.pending = NONE;
    this.onPending(NONE);
    this.endCatchUp();
    if (this.thread) this.settle(Atomics.load(this.thread.signal, COMMITTED));
    this.problem ??= `The search index is written on the main thread (${reason}).`;
    const replacement = this.fallback();
    // Their text went with the thread: the files stay listed, and an impossible mtime has the next start read them again.
    for (const { ops, bytes } of this.inFlight.values()) {
      replacement.write(
        ops.map((op) => (op.kind === 'put' ? { ...op, mtimeMs: -1, text: null } : op)),
        bytes,
      );
    }
    this.inFlight.clear();
    this.bytes = 0;
    this.replacement = replacement;
    if (this.thread) void this.thread.worker.terminate();
    this.thread = null;
    this.onCommit();
  }

  write(ops: WriteOp[], bytes: number, deferText = false): void {
    if (this.replacement) return this.replacement.write(ops, bytes);
    if (!this.thread && bytes < INLINE_BYTES) {
      this.inline ??= this.fallback();
      this.inline.write(ops, bytes);
      this.onCommit();
      return;
    }
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.thread ??= this.spawn();
    const seq = ++this.seq;
    this.pendingKnown = false;
    this.bulk = true;
    this.settleAsked = false;
    this.inFlight.set(seq, { ops, bytes });
    this.bytes += bytes;
    this.thread.worker.postMessage({ kind: 'write', seq, ops, ...(deferText ? { deferText } : {}) } satisfies WriterRequest, transferables(ops));
  }

  uncommittedPaths(into: Set<string>): void {
    if (this.replacement) return this.replacement.uncommittedPaths(into);
    for (const { ops } of this.inFlight.values()) for (const op of ops) into.add(op.path);
  }

  sync(): void {
    if (this.replacement) return this.replacement.sync();
    const thread = this.thread;
    if (!thread) return;
    const until = performance.now() + SYNC_LIMIT_MS;
    for (;;) {
      const committed = Atomics.load(thread.signal, COMMITTED);
      if (committed >= this.seq) break;
      if (Atomics.load(thread.signal, STATE) === FAILED) return this.takeOver('the writer thread could not open the index');
      const left = until - performance.now();
      if (left <= 0) return this.takeOver('the writer thread stopped answering');
      pause(thread.signal, COMMITTED, committed, Math.min(left, 1000));
    }
    this.settle(Atomics.load(thread.signal, COMMITTED));
  }

  close(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    // The thread stops a tidy pass and the catch-up at close; nobody waits for them any more.
    this.endTidy();
    this.endCatchUp();
    if (this.replacement) return this.replacement.close();
    this.sync();
    const thread = this.thread;
    if (this.replacement || !thread) return;
    this.thread = null;
    thread.worker.postMessage({ kind: 'close' } satisfies WriterRequest);
    const until = performance.now() + SYNC_LIMIT_MS;
    // Wait for the thread to close its connection, so the file is complete when close() returns.
    while (Atomics.load(thread.signal, STATE) === 0 && performance.now() < until) pause(thread.signal, STATE, 0, 1000);
  }
}
