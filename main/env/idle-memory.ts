// Holds V8's young generations at their size during long scans, and hands spare heap back once a scan is over.
import { WORKER_SEMI_SPACE_MB } from './tuning.ts';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** V8's gc(): a full collection now with no options; `execution: 'async'` returns a promise. */
export type Collect = (options?: { type: 'major'; execution: 'sync' | 'async'; flavor: 'regular' | 'last-resort' }) => Promise<void> | void;

let collect: Collect | null | undefined;

/**
 * V8's collector: the global one under --expose-gc, else one exposed for a fresh context (the flag applies to new
 * contexts), so the app's own global scope gains no gc(). Null where the runtime refuses.
 */
export function collector(): Collect | null {
  if (collect !== undefined) return collect;
  try {
    const exposed = (globalThis as { gc?: unknown }).gc;
    if (typeof exposed === 'function') collect = exposed as Collect;
    else {
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as Collect;
    }
  } catch {
    collect = null;
  }
  return collect;
}

let configured = false;

/**
 * Sets V8's heap sizing for the whole process. Idempotent; never throws (a runtime that refuses the flags keeps
 * V8's defaults). Called by each process that runs the services, before they start their worker threads: the
 * Electron entry, `serve`, the one-shot CLI commands and the benchmarks (never by createServices); the command line
 * calls it before any command runs, so a quick read that starts no service is held too.
 *
 * Young generation: stops V8 from growing one past the size it has (`--semi-space-growth-factor=1`, read each
 * time V8 considers growing, so it works set at run time), and has every isolate made after it start with
 * WORKER_SEMI_SPACE_MB semi-spaces (`--min-semi-space-size`, read when an isolate is made: the worker threads;
 * the main thread's was made before). Why: a cold index of 100,000 sessions grew the main thread's young
 * generation from 26 to 103 MB, and it grew back within seconds of every memory-reducing collection; holding
 * it: peak RSS 458 -> 408 MB. Workers held at V8's small first size parsed a 54 MB transcript 15-30% slower
 * (708-850 against 627-668 ms); starting at 8 MB they take 630-690 ms, at 216-219 MB of process RSS against
 * 257-264 by default. A scan's many small files collect less at 16 MB (tuning.ts, WORKER_SEMI_SPACE_MB).
 */
export function configureHeaps(): void {
  if (configured) return;
  configured = true;
  try {
    setFlagsFromString('--semi-space-growth-factor=1');
    setFlagsFromString(`--min-semi-space-size=${WORKER_SEMI_SPACE_MB}`);
  } catch {
    // The defaults stay.
  }
}

/**
 * A memory-reducing collection: V8 grows a busy isolate's young generation up to a size it derives from the
 * machine's memory (~130 MB here) and never shrinks it on its own, so after the start-up scan and the watcher's
 * walk of 10,000 sessions `serve` sat at ~295 MB with 40 MB of live heap (ordinary collections and 30 s of
 * idling changed nothing). This collection ('last-resort': it also shrinks the spaces) brought it to 134 MB,
 * costing ~180 ms of main-thread time, once, when a scan ends. Resolves when done; never throws.
 */
export async function releaseIdleMemory(): Promise<void> {
  try {
    await collector()?.({ type: 'major', execution: 'async', flavor: 'last-resort' });
  } catch {
    // Nothing to give back is not an error.
  }
}

/**
 * A regular full collection, started now and run alongside (V8 marks concurrently): what a long scan calls every
 * few thousand files. Never throws.
 */
export function collectOldGarbage(): void {
  try {
    void Promise.resolve(collector()?.({ type: 'major', execution: 'async', flavor: 'regular' })).catch(() => undefined);
  } catch {
    // A runtime without gc() keeps V8's own schedule.
  }
}
