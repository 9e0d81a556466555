// One pass over a root: find claimed files, read the new or changed ones (bounded concurrency), forget the gone.
import { stat } from 'node:fs/promises';
import { walkFiles } from './walk.ts';
import { statFile } from '../fs/stat-file.ts';
import { SCAN_READS_IN_FLIGHT } from '../env/tuning.ts';

export interface ScanHooks {
  claims: (path: string) => boolean;
  isFresh: (path: string, size: number, mtimeMs: number) => boolean;
  /** Reads a file into the catalogue and returns its key (a store that holds many sessions: the keys it read). */
  read: (path: string, size: number, mtimeMs: number) => Promise<string | string[] | null>;
  /** Called with keys in small batches as they are read, so the list fills while the scan runs. */
  onKeys: (keys: string[]) => void;
  stopped: () => boolean;
  /** Progress: a file was found (`fresh`: unchanged, not read again), and a read file is done. */
  found?: (bytes: number, fresh: boolean) => void;
  done?: (bytes: number) => void;
  /**
   * Files above this many bytes are read after all the others, one at a time, once `beforeLarge` has
   * resolved: parsing one takes several times its size in memory, so it should not overlap anything else.
   */
  largeAbove?: number;
  beforeLarge?: () => Promise<void>;
  /**
   * A file read a piece at a time however big it is (a store that holds many sessions, each read on its own): read
   * with the others, never held back as a large one.
   */
  readInPieces?: (path: string) => boolean;
}

export interface ScanResult {
  seen: Set<string>;
  error: string | null;
}

export async function scanRoot(root: string, hooks: ScanHooks, maxDepth?: number): Promise<ScanResult> {
  const seen = new Set<string>();
  try {
    if (!(await stat(root)).isDirectory()) return { seen, error: `Not a folder: ${root}` };
  } catch {
    return { seen, error: `Folder no longer exists: ${root}` };
  }
  const inFlight = new Set<Promise<void>>();
  const large: Array<{ path: string; size: number; mtimeMs: number }> = [];
  const read = (path: string, size: number, mtimeMs: number) =>
    hooks
      .read(path, size, mtimeMs)
      .then((key) => {
        const keys = key === null ? [] : typeof key === 'string' ? [key] : key;
        if (keys.length) hooks.onKeys(keys);
      })
      .finally(() => hooks.done?.(size));
  for await (const path of walkFiles(root, hooks.claims, maxDepth)) {
    if (hooks.stopped()) break;
    seen.add(path);
    const info = await statFile(path);
    if (!info) continue;
    const fresh = hooks.isFresh(path, info.size, info.mtimeMs);
    hooks.found?.(info.size, fresh);
    if (fresh) continue;
    if (hooks.largeAbove !== undefined && info.size > hooks.largeAbove && !hooks.readInPieces?.(path)) {
      large.push({ path, size: info.size, mtimeMs: info.mtimeMs });
      continue;
    }
    const tracked = read(path, info.size, info.mtimeMs).finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
    if (inFlight.size >= SCAN_READS_IN_FLIGHT) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  if (large.length && !hooks.stopped()) await hooks.beforeLarge?.();
  for (const file of large) {
    if (hooks.stopped()) break;
    await read(file.path, file.size, file.mtimeMs);
  }
  return { seen, error: null };
}
