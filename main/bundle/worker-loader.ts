// The app's bundle loader: each session is parsed, serialized and scanned in a read worker of the export's own, which ends with it.
import { AppError } from '../../shared/result.ts';
import { EXPORT_CAPPED_FILE_MAX, EXPORT_CAPPED_HEAP_MB, EXPORT_CAPPED_YOUNG_MB } from '../env/tuning.ts';
import type { SessionSummaryText } from '../../shared/session.ts';
import { ReadPool } from '../workers/read-pool.ts';
import type { JsonScan, PreparedSession, SessionLoader, ShareSpec } from './prepare-session.ts';
import { unmap } from './read-whole.ts';

/** Where a session's file is, its size as the catalogue last saw it, and the children the catalogue knows of it (its session.json lists them). */
/** Where a session is, and the summary the vault keeps for it (it travels in session.json in place of the session's own). */
export type LocateSession = (key: string) => { path: string; size: number; childKeys: string[]; summary?: SessionSummaryText | null };

export interface ClosableLoader extends SessionLoader {
  /** Ends the workers, returning all the memory the export's parsing took. */
  close(): Promise<void>;
}

/** Files up to `cappedFileMax` parse in a worker whose heap is capped (why, and the figures: env/tuning.ts). */
export interface WorkerLimits {
  cappedFileMax: number;
  cappedHeapMb: number;
  cappedYoungMb: number;
}
const LIMITS: WorkerLimits = { cappedFileMax: EXPORT_CAPPED_FILE_MAX, cappedHeapMb: EXPORT_CAPPED_HEAP_MB, cappedYoungMb: EXPORT_CAPPED_YOUNG_MB };

function outOfMemory(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
}

/**
 * Workers for one export (or review scan, or team push): sessions are taken in order, a few ahead, so one worker of each kind
 * is enough, and ending them afterwards hands back their heaps instead of leaving a grown worker in a shared
 * pool. The user's price list applies as in every other read worker.
 */
export function workerLoader(locate: LocateSession, pricingFile?: string, limits: WorkerLimits = LIMITS): ClosableLoader {
  const base = pricingFile ? { pricingFile } : {};
  let capped: ReadPool | null = null;
  let uncapped: ReadPool | null = null;
  const resourceLimits = { maxOldGenerationSizeMb: limits.cappedHeapMb, maxYoungGenerationSizeMb: limits.cappedYoungMb };
  const cappedPool = () => (capped ??= new ReadPool(1, { ...base, resourceLimits }));
  const uncappedPool = () => (uncapped ??= new ReadPool(1, base));

  /** Which pool's worker wrote each session.json, so its store goes back there. */
  const writtenBy = new WeakMap<ArrayBufferLike, ReadPool>();
  const prepareIn = async (
    pool: ReadPool,
    key: string,
    path: string,
    childKeys: string[],
    scan: JsonScan | null,
    share?: ShareSpec,
    summary?: SessionSummaryText | null,
  ): Promise<PreparedSession> => {
    const result = await pool.prepare(path, { key, childKeys, ...(share ? { share } : {}), ...(summary ? { summary } : {}) }, scan);
    if (!result.ok) throw new AppError('UNREADABLE', `${path} cannot be read: ${result.unreadable.message}`);
    if (result.prepared.json) writtenBy.set(result.prepared.json.buffer, pool);
    return result.prepared;
  };

  return {
    prepare: async (key, scan, share) => {
      const { path, size, childKeys, summary } = locate(key);
      if (size > limits.cappedFileMax) return prepareIn(uncappedPool(), key, path, childKeys, scan, share, summary);
      try {
        return await prepareIn(cappedPool(), key, path, childKeys, scan, share, summary);
      } catch (err) {
        if (!outOfMemory(err)) throw err;
        return prepareIn(uncappedPool(), key, path, childKeys, scan, share, summary);
      }
    },
    // A push's sessions, every size, in the worker without a heap cap (a push's worker builds every row there). 1,000
    // generated sessions, same-run A/B: 14.0-14.9 s of this process's CPU with the export's 128 MB cap, 14.5 s with
    // 512 MB, 9.0 s without (the worker's garbage collection: 5.5 s -> 1.0 s in its profile); the process's peak RSS
    // 514-533 MB, below the 680-770 MB, in the same runs, of the push that built its rows on the main thread. One
    // worker: two gave the same push throughput for 0.8 s more CPU and ~100 MB more RSS.
    preparePush: async (key, scan, spec, gate) => {
      const { path, childKeys, summary } = locate(key);
      const result = await uncappedPool().preparePush(path, { key, childKeys, ...(summary ? { summary } : {}) }, { scan, spec, gate: gate ?? null });
      if (!result.ok) throw new AppError('UNREADABLE', `${path} cannot be read: ${result.unreadable.message}`);
      return result.ready;
    },
    recycle: (json) => {
      // A closed pool shrinks the store itself.
      const pool = writtenBy.get(json.buffer);
      if (pool) pool.recycle(json.buffer as ArrayBuffer);
      else unmap(json);
    },
    close: async () => {
      const ending = [capped, uncapped];
      capped = null;
      uncapped = null;
      await Promise.all(ending.map((pool) => pool?.close()));
    },
  };
}
