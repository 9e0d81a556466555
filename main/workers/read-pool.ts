// A small pool of worker threads that parse session files; interactive reads jump ahead of scans.
import { WORKER_YOUNG_MB } from '../env/tuning.ts';
import type { SessionSummaryText } from '../../shared/session.ts';
import { SCAN_PIPELINE } from '../env/tuning.ts';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import type { JsonScan, ShareSpec } from '../bundle/prepare-session.ts';
import type { PushGate, PushSpec } from '../team/push-prepare.ts';
import type { Paging } from '../library/paged-sessions.ts';
import type {
  CompareResponse,
  FullResponse,
  ListResponse,
  PrepareResponse,
  PushResponse,
  ReadRequest,
  ReadResponse,
  RowsResponse,
  SummariesResponse,
  SummaryResponse,
  UnsentRequest,
  WindowResponse,
} from './read-protocol.ts';

export type Priority = 'interactive' | 'background';

/** A scan's read (a file's summary, or a batch of a store's sessions): one may wait in a busy worker behind another. */
const isScanRead = (request: ReadRequest | undefined): boolean => request?.mode === 'summary' || request?.mode === 'summaries';

interface Task {
  request: ReadRequest;
  resolve: (r: ReadResponse) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  /**
   * Running first, then scan summaries queued behind it, SCAN_PIPELINE tasks at most (env/tuning.ts says why); a worker
   * still runs one task at a time (read-worker.ts).
   */
  tasks: Task[];
}

/**
 * The bundle runs the sibling `read-worker.js`. Sources run `read-worker.ts` (type stripping), unless
 * SESSION_VAULT_WORKER_FILE names a bundled worker entry: the unit tests' setup bundles one for their run
 * (build/test-workers.ts says why), and the benchmarks start the app's own (`out/main/read-worker.js`).
 */
export function workerFile(): string {
  const bundled = process.env.SESSION_VAULT_WORKER_FILE;
  if (bundled) return bundled;
  const here = fileURLToPath(import.meta.url);
  return join(dirname(here), here.endsWith('.ts') ? 'read-worker.ts' : 'read-worker.js');
}

export class ReadPool {
  private readonly slots: Slot[] = [];
  private readonly interactive: Task[] = [];
  private readonly background: Task[] = [];
  private nextId = 1;
  private closed = false;
  private readonly size: number;
  /** Workers that may take tasks now (the size, unless `limit` lowered it). */
  private active: number;

  private readonly workerData: { pricingFile?: string };
  private readonly resourceLimits: ResourceLimits | undefined;

  /**
   * `resourceLimits`: a heap cap, for pools that only ever see small files (V8 otherwise lets a busy heap grow far
   * past what it holds). Every worker's young generation is WORKER_YOUNG_MB unless the options say otherwise.
   */
  constructor(size = Math.max(1, Math.min(4, availableParallelism() - 1)), options: { pricingFile?: string; resourceLimits?: ResourceLimits } = {}) {
    this.size = size;
    this.active = size;
    this.workerData = options.pricingFile ? { pricingFile: options.pricingFile } : {};
    this.resourceLimits = { maxYoungGenerationSizeMb: WORKER_YOUNG_MB, ...options.resourceLimits };
  }

  /** The whole session, every message. */
  read(path: string, priority: Priority = 'background'): Promise<FullResponse> {
    return this.enqueue({ path, mode: 'full' }, priority) as Promise<FullResponse>;
  }

  /**
   * Only the list's summary: the worker parses the file and posts back a few hundred bytes (and the index text).
   * `textLater`: without the index text (a one-shot command that only lists).
   */
  summarize(path: string, priority: Priority = 'background', keep = false, textLater = false): Promise<SummaryResponse> {
    return this.enqueue({ path, mode: 'summary', keep, ...(textLater ? { textLater } : {}) }, priority) as Promise<SummaryResponse>;
  }

  /** The sessions a store holds (`path` is the store), from its reader's listing query. */
  list(path: string, priority: Priority = 'background'): Promise<ListResponse> {
    return this.enqueue({ path, mode: 'list' }, priority) as Promise<ListResponse>;
  }

  /** Summaries of several sessions of one store (`store` is the store), read in one task and answered in one message. */
  summarizeMany(store: string, ids: string[], priority: Priority = 'background'): Promise<SummariesResponse> {
    return this.enqueue({ path: store, mode: 'summaries', ids }, priority) as Promise<SummariesResponse>;
  }

  /** A contained session's own rows as a rows document (`path` is `<store>#<id>`). */
  rows(path: string, priority: Priority = 'interactive'): Promise<RowsResponse> {
    return this.enqueue({ path, mode: 'rows' }, priority) as Promise<RowsResponse>;
  }

  /**
   * One window of an opened session's messages; the worker keeps the session parsed between calls. With `paging`,
   * a big session is read through its page table when it has one, and gets one after its first full read.
   */
  window(path: string, offset: number, limit: number, priority: Priority = 'interactive', paging?: Paging): Promise<WindowResponse> {
    return this.enqueue({ path, mode: 'window', offset, limit, ...(paging ? { paging } : {}) }, priority) as Promise<WindowResponse>;
  }

  /** Two sessions compared where they are kept parsed; only the Comparison crosses threads. */
  compare(pathA: string, pathB: string, keys: { a: string; b: string }, priority: Priority = 'interactive'): Promise<CompareResponse> {
    return this.enqueue({ path: pathA, otherPath: pathB, keyA: keys.a, keyB: keys.b, mode: 'compare' }, priority) as Promise<CompareResponse>;
  }

  /**
   * A session for a bundle: parsed (uncached), given the catalogue's key and children, its session.json
   * serialized and, with `scan`, scanned in the worker; the bytes come back as a moved buffer.
   */
  async prepare(
    path: string,
    session: { key: string; childKeys: string[]; share?: ShareSpec; summary?: SessionSummaryText },
    scan: JsonScan | null,
    priority: Priority = 'background',
  ): Promise<PrepareResponse> {
    const share = session.share ? { share: session.share } : {};
    const summary = session.summary ? { summary: session.summary } : {};
    const response = (await this.enqueue(
      { path, mode: 'bundle', key: session.key, childKeys: session.childKeys, scan, ...share, ...summary },
      priority,
    )) as PrepareResponse;
    if (response.ok && response.prepared.json) {
      // A moved buffer arrives as a plain Uint8Array; the bundle wants a Buffer over the same memory.
      const bytes = response.prepared.json as Uint8Array;
      response.prepared.json = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    return response;
  }

  /**
   * A session for a team push (team/push-worker.ts): prepared as `prepare` does, past `gate`'s roots check, made
   * ready to send in the worker; a changed session's bodies and file parts come back in one moved buffer.
   */
  preparePush(
    path: string,
    session: { key: string; childKeys: string[]; summary?: SessionSummaryText },
    push: { scan: JsonScan; spec: PushSpec; gate: PushGate | null },
    priority: Priority = 'background',
  ): Promise<PushResponse> {
    const summary = session.summary ? { summary: session.summary } : {};
    return this.enqueue({ path, mode: 'push', key: session.key, childKeys: session.childKeys, ...push, ...summary }, priority) as Promise<PushResponse>;
  }

  /**
   * Moves a session.json's store (from `prepare`, its bytes written) back to a worker, which writes the next
   * one into it; with no worker left, it is shrunk to nothing. The store and every view on it are unusable after.
   */
  recycle(store: ArrayBuffer): void {
    const slot = this.slots[0];
    if (this.closed || !slot) {
      if (store.resizable) store.resize(0);
      return;
    }
    slot.worker.postMessage({ recycle: store }, [store]);
  }

  private enqueue(request: UnsentRequest, priority: Priority): Promise<ReadResponse> {
    if (this.closed) return Promise.reject(new Error('read pool is closed'));
    return new Promise((resolve, reject) => {
      const task: Task = { request: { ...request, id: this.nextId++ }, resolve, reject };
      (priority === 'interactive' ? this.interactive : this.background).push(task);
      this.pump();
    });
  }

  /** Tasks waiting or running; the scanner uses it to report progress. */
  get pending(): number {
    return this.interactive.length + this.background.length + this.slots.reduce((n, s) => n + s.tasks.length, 0);
  }

  /**
   * From now on at most `workers` workers take tasks (the pool's size again without it); one above that ends as soon
   * as it has nothing to do, so its memory goes back (a scan makes room so for a large file parsed beside it).
   */
  limit(workers?: number): void {
    this.active = Math.max(1, Math.min(this.size, workers ?? this.size));
    void this.endSurplus();
    this.pump();
  }

  /** Ends the idle workers above the limit. */
  private async endSurplus(): Promise<void> {
    const surplus = this.slots.slice(this.active).filter((s) => !s.tasks.length);
    for (const slot of surplus) this.slots.splice(this.slots.indexOf(slot), 1);
    await Promise.all(surplus.map((s) => s.worker.terminate()));
  }

  /** Ends the workers that have nothing to do (they start again on demand), returning their memory. */
  async release(): Promise<void> {
    const idle = this.slots.filter((s) => !s.tasks.length);
    for (const slot of idle) this.slots.splice(this.slots.indexOf(slot), 1);
    await Promise.all(idle.map((s) => s.worker.terminate()));
  }

  async close(): Promise<void> {
    this.closed = true;
    const error = new Error('read pool is closed');
    for (const t of [...this.interactive.splice(0), ...this.background.splice(0)]) t.reject(error);
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }

  private spawn(): Slot {
    const slot: Slot = { worker: new Worker(workerFile(), { workerData: this.workerData, resourceLimits: this.resourceLimits }), tasks: [] };
    slot.worker.unref();
    slot.worker.on('message', (response: ReadResponse) => {
      // The worker answers in order: this is its first task.
      const task = slot.tasks[0];
      if (task && task.request.id === response.id) {
        slot.tasks.shift();
        task.resolve(response);
      }
      this.pump();
      // Idle workers must not keep a CLI process alive; busy ones must.
      if (!slot.tasks.length) slot.worker.unref();
      if (!slot.tasks.length && this.slots.indexOf(slot) >= this.active) void this.endSurplus();
    });
    const fail = (err: Error) => {
      // A crashed worker fails only its current file; the one queued behind it goes back to the front of the
      // queue, and a fresh worker takes over.
      const [task, ...queued] = slot.tasks.splice(0);
      const index = this.slots.indexOf(slot);
      if (index >= 0) this.slots.splice(index, 1);
      this.background.unshift(...queued);
      task?.reject(err);
      if (!this.closed) this.pump();
    };
    slot.worker.on('error', fail);
    slot.worker.on('exit', (code) => {
      if (!this.closed && this.slots.includes(slot)) fail(new Error(`read worker exited with code ${code}`));
    });
    this.slots.push(slot);
    return slot;
  }

  private pump(): void {
    if (this.closed) return;
    for (;;) {
      const queue = this.interactive.length ? this.interactive : this.background;
      if (!queue.length) return;
      // Workers above the limit (see `limit`) take nothing new.
      const usable = this.slots.length > this.active ? this.slots.slice(0, this.active) : this.slots;
      let slot = usable.find((s) => !s.tasks.length);
      if (!slot && this.slots.length < this.active) slot = this.spawn();
      // Every worker is busy: a background summary may wait in one behind a summary it is running.
      slot ??=
        queue === this.background && isScanRead(queue[0]?.request)
          ? usable.find((s) => s.tasks.length < SCAN_PIPELINE && s.tasks.every((t) => isScanRead(t.request)))
          : undefined;
      if (!slot) return;
      const task = queue.shift();
      if (!task) return;
      slot.tasks.push(task);
      slot.worker.ref();
      slot.worker.postMessage(task.request);
    }
  }
}
