// One pass over a root: find claimed files, read the new or changed ones (bounded concurrency, large ones in a lane of their own), forget the gone.
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
   * Files above this many bytes are read in a lane of their own, one at a time (parsing one takes several times its
   * size in memory, so no two overlap), largest first, from the end of the walk on, beside the other files: read after
   * them, the biggest was read alone at the end of the scan, one core idle.
   */
  largeAbove?: number;
  /** What parsing a file takes in, compared with `largeAbove` (default: its size; a compressed file's lines come to more). */
  parseBytes?: (path: string, size: number) => number;
  /**
   * The lane starts only once every other file is read (and `othersRead` has resolved): for a scan whose spare core
   * has other work waiting for the list (the app's full-text catch-up).
   */
  largeAfterOthers?: boolean;
  /** Before each large file is read, with its size: the caller may make room for it (fewer scan workers). */
  beforeLarge?: (bytes: number) => void;
  /** The large files' lane has nothing left to read (for now). */
  afterLarge?: () => void;
  /** Every other file is read, and large ones are still to be read or being read: a core is free for other work. */
  othersRead?: () => Promise<void>;
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

export interface FoundFile {
  path: string;
  size: number;
  mtimeMs: number;
}

/**
 * The files below the root with their sizes and times, as a walk would find them now (known-files.ts: a one-shot
 * command's check of the last run's snapshot): the scan reads them instead of walking and stat-ing every file.
 */
async function* listedFiles(known: readonly FoundFile[], claims: (path: string) => boolean): AsyncGenerator<FoundFile> {
  for (const file of known) if (claims(file.path)) yield file;
}

/** The walk's files with their stats; a file gone before its stat comes with none (seen, not read: as before). */
async function* walkedFiles(
  root: string,
  claims: (path: string) => boolean,
  maxDepth: number | undefined,
): AsyncGenerator<FoundFile | { path: string; size: null }> {
  for await (const path of walkFiles(root, claims, maxDepth)) {
    const info = await statFile(path);
    yield info ? { path, size: info.size, mtimeMs: info.mtimeMs } : { path, size: null };
  }
}

/** A large file, with what parsing it takes in (ScanHooks.parseBytes). */
interface LargeFile extends FoundFile {
  bytes: number;
}

/** Removes and returns the largest of `files` (not empty). */
function takeLargest(files: LargeFile[]): LargeFile {
  let at = 0;
  for (let i = 1; i < files.length; i++) if ((files[i] as LargeFile).bytes > (files[at] as LargeFile).bytes) at = i;
  return files.splice(at, 1)[0] as LargeFile;
}

/** `known`: the root's files as they are now (listedFiles), walked instead of the disk. */
export async function scanRoot(root: string, hooks: ScanHooks, maxDepth?: number, known?: readonly FoundFile[]): Promise<ScanResult> {
  const seen = new Set<string>();
  try {
    if (!(await stat(root)).isDirectory()) return { seen, error: `Not a folder: ${root}` };
  } catch {
    return { seen, error: `Folder no longer exists: ${root}` };
  }
  // The first failure of a read ends the scan once the reads already started are over (as a walk's failure does).
  const failures: unknown[] = [];
  const read = (file: FoundFile) =>
    hooks
      .read(file.path, file.size, file.mtimeMs)
      .then((key) => {
        const keys = key === null ? [] : typeof key === 'string' ? [key] : key;
        if (keys.length) hooks.onKeys(keys);
      })
      .catch((error: unknown) => {
        failures.push(error);
      })
      .finally(() => hooks.done?.(file.size));

  // The other files, in the order found, at most SCAN_READS_IN_FLIGHT at once; the walk goes on meanwhile, so every
  // large file is known soon.
  const waiting: FoundFile[] = [];
  let next = 0;
  const inFlight = new Set<Promise<void>>();
  const readWaiting = () => {
    while (inFlight.size < SCAN_READS_IN_FLIGHT && next < waiting.length && !hooks.stopped()) {
      const file = waiting[next++] as FoundFile;
      const tracked: Promise<void> = read(file).finally(() => {
        inFlight.delete(tracked);
        readWaiting();
      });
      inFlight.add(tracked);
    }
    if (next === waiting.length) waiting.length = next = 0;
  };

  const large: LargeFile[] = [];
  let laneIdle = true;
  let lane: Promise<void> = Promise.resolve();
  const startLane = () => {
    if (!laneIdle) return;
    laneIdle = false;
    lane = readLarge();
  };
  const readLarge = async () => {
    while (large.length && !hooks.stopped()) {
      const file = takeLargest(large);
      hooks.beforeLarge?.(file.bytes);
      await read(file);
    }
    hooks.afterLarge?.();
    laneIdle = true;
  };

  for await (const file of known ? listedFiles(known, hooks.claims) : walkedFiles(root, hooks.claims, maxDepth)) {
    if (hooks.stopped()) break;
    const { path, size } = file;
    seen.add(path);
    if (size === null) continue;
    const fresh = hooks.isFresh(path, size, file.mtimeMs);
    hooks.found?.(size, fresh);
    if (fresh) continue;
    const bytes = hooks.parseBytes?.(path, size) ?? size;
    if (hooks.largeAbove !== undefined && bytes > hooks.largeAbove && !hooks.readInPieces?.(path)) {
      large.push({ ...file, size, bytes });
      continue;
    }
    waiting.push(file);
    readWaiting();
    // With the large files after the others, the walk keeps pace with the reads (it need not find them early).
    if (hooks.largeAfterOthers) while (inFlight.size >= SCAN_READS_IN_FLIGHT) await Promise.race(inFlight);
  }
  // The lane starts once the walk is over (a gigabyte's walk takes a fraction of a second, the scan pool busy all the
  // while), so it takes the largest file first, in a fresh worker, and the smaller ones fill in beside the rest.
  if (!hooks.largeAfterOthers && large.length && !hooks.stopped()) startLane();
  while (inFlight.size) await Promise.race(inFlight);
  if ((large.length || !laneIdle) && !hooks.stopped()) await hooks.othersRead?.();
  if (large.length) startLane();
  await lane;
  if (failures.length) throw failures[0];
  return { seen, error: null };
}
