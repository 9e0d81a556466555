// What a full run saw of the disk once its scan was over (every folder's and file's size and time below the roots), saved so a later run can tell in a few stats that nothing changed (index-current.ts).
import { statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { MAX_WALK_DEPTH } from '../catalogue/walk-rules.ts';
import { walkFolders } from './snapshot-changes.ts';
import { writeFileAtomic } from '../fs/atomic-write.ts';
import {
  configKey,
  discoverDefaults,
  INDEX_FILE,
  indexSignature,
  SNAPSHOT_FILE,
  SNAPSHOT_LAYOUT,
  vaultFolders,
  type Folder,
  type FoundChanges,
  type ScanSnapshot,
} from './index-current.ts';

/** The vault's folders are walked deeper (kept copies keep their original absolute path), as the app scans them. */
const VAULT_DEPTH = 40;

/** The files' times in a folder's entries (name, size, time each). */
const fileTimes = (files: Folder[2]) => files.filter((_, i) => i % 3 === 2) as number[];

/** Whether the folder was created at or after `since` (false where the file system keeps no birth time). */
function bornSince(dir: string, since: number): boolean {
  try {
    const { birthtimeMs } = statSync(dir);
    return birthtimeMs > 0 && birthtimeMs >= since;
  } catch {
    return false;
  }
}

/**
 * How far a file system's times may trail the clock the run's start is read from: Linux stamps files from a coarse
 * clock, up to a tick (4-10 ms) behind. A change that soon before the start counts as during the run (no snapshot:
 * the next run scans again), never as seen by it. (File systems with whole-second times, FAT's 2 s, are not covered.)
 */
export const FILE_CLOCK_SLACK_MS = 50;

/**
 * Walks the roots as the app's scan does (the same skipped folders and depth) and records every folder and file. Null
 * when something changed after `runStart` (the scan's start, less the file clock's slack): what the index holds may
 * then not be what is on disk.
 */
export function takeSnapshot(
  base: Omit<ScanSnapshot, 'folders' | 'layout'>,
  walked: readonly string[],
  vaultRoots: readonly string[],
  runStart: number,
): ScanSnapshot | null {
  const since = runStart - FILE_CLOCK_SLACK_MS;
  const folders: Folder[] = [];
  for (const root of walked) walkFolders(root, MAX_WALK_DEPTH, folders);
  const vault: Folder[] = [];
  for (const root of vaultRoots) walkFolders(root, VAULT_DEPTH, vault);
  for (const [dir, mtimeMs, files] of vault) {
    // A vault folder this run made (a fresh data folder's first run) holds nothing the index could have missed.
    if (mtimeMs >= since && !files.length && bornSince(dir, since)) continue;
    if (mtimeMs >= since || fileTimes(files).some((m) => m >= since)) return null;
  }
  for (const [, mtimeMs, files] of folders) {
    if (mtimeMs >= since || fileTimes(files).some((m) => m >= since)) return null;
  }
  // A folder walked twice (a root inside another, a vault folder below a root) is checked once.
  const seen = new Set<string>();
  const unique = [...folders, ...vault].filter(([dir]) => !seen.has(dir) && seen.add(dir));
  return { layout: SNAPSHOT_LAYOUT, ...base, folders: unique };
}

export interface FinishedRun {
  /** --root folders as given, resolved against the working directory. */
  extraRoots: readonly string[];
  noDefaults: boolean;
  env: NodeJS.ProcessEnv;
  /** The folders the run read (listRoots: path, and whether it exists). */
  roots: ReadonlyArray<{ path: string; exists: boolean }>;
  /** When the run's scan began: anything changed after it makes the snapshot worthless. */
  startedAt: number;
  /** What the start reported (services.startupProblems()): a run that warned is not repeated silently by a fast one. */
  problems: readonly string[];
  /**
   * What the run's check found on disk (index-current.ts' changesFound), when its scan read that instead of walking
   * the roots: the snapshot is patched with it instead of taken by another walk.
   */
  found?: FoundChanges | null;
}

async function walkedSnapshot(dataDir: string, run: FinishedRun, index: string): Promise<ScanSnapshot | null> {
  const defaults = run.noDefaults ? null : await discoverDefaults(run.env);
  const config = configKey(dataDir, run.extraRoots, run.noDefaults, defaults?.paths ?? []);
  const walked = [...new Set([...run.roots.filter((r) => r.exists).map((r) => r.path), ...run.extraRoots])];
  return takeSnapshot({ config, index, roots: run.roots.map((r) => r.path), defaults }, walked, vaultFolders(dataDir), run.startedAt);
}

/**
 * The last snapshot with what the check found (the sizes and times the scan read the files at) and the index as the run
 * left it. A folder or file whose time is within the file clock's slack of the check may have changed again unseen
 * (the same time, another size or content): it is recorded as never seen (size or time -1), so the next check reads it
 * again. The configuration is the one the check compared: a run that changed it leaves the next check another.
 */
export function patchedSnapshot(found: FoundChanges, index: string): ScanSnapshot {
  const since = found.checkedAt - FILE_CLOCK_SLACK_MS;
  const folders = found.folders.map(([dir, mtimeMs, files]): Folder => {
    const recent = fileTimes(files).some((m) => m >= since);
    const kept = recent ? files.map((value, i) => (i % 3 === 1 && (files[i + 1] as number) >= since ? -1 : value)) : files;
    return [dir, mtimeMs >= since ? -1 : mtimeMs, kept];
  });
  return { ...found.snapshot, index, folders };
}

/**
 * After a full run, its services closed (every write in the index file): records what it saw for the next run's fast
 * path. Nothing is recorded when the start reported a problem, something changed meanwhile, or the data folder cannot
 * be written or read back.
 */
export async function recordScan(dataDir: string, run: FinishedRun): Promise<void> {
  if (run.problems.length) return;
  try {
    const db = new DatabaseSync(join(dataDir, INDEX_FILE), { readOnly: true });
    let index: string;
    try {
      index = indexSignature(db);
    } finally {
      db.close();
    }
    const snapshot = run.found ? patchedSnapshot(run.found, index) : await walkedSnapshot(dataDir, run, index);
    if (snapshot) await writeFileAtomic(join(dataDir, SNAPSHOT_FILE), JSON.stringify(snapshot));
    // What `usage` alone kept before the three commands shared one snapshot.
    await rm(join(dataDir, 'usage-scan.json'), { force: true });
  } catch {
    // No snapshot (an index kept in memory, a data folder that cannot be written): the next run scans again.
  }
}
