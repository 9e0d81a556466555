// What `usage` saw of the disk after a full scan (every folder's and file's size and time below the roots), so a later run can tell in a few stats that nothing changed.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isSkippedDir, MAX_WALK_DEPTH } from '../catalogue/walk.ts';
import { writeFileAtomic } from '../fs/atomic-write.ts';
import { defaultRootCandidates } from '../roots/default-roots.ts';
import { appVersion } from '../env/app-version.ts';
import { SCHEMA_VERSION } from '../search-index/schema.ts';

export const SNAPSHOT_FILE = 'usage-scan.json';
/** The vault's folders are walked deeper (kept copies keep their original absolute path), as the app scans them. */
const VAULT_DEPTH = 40;

/** A folder: its time, and the files in it by name with their size and time. */
type Folder = [mtimeMs: number, files: Record<string, [size: number, mtimeMs: number]>];

export interface UsageSnapshot {
  /** What decides the roots and how files are read: a run with another answer scans again. */
  config: string;
  /** The index's files as that run left them (indexSignature): another command's scan changes it. */
  index: string;
  folders: Record<string, Folder>;
}

/** A short signature of the index's files: their number, last row id, sizes and times added up. */
export function indexSignature(db: { prepare(sql: string): { get(): unknown } }): string {
  return JSON.stringify(db.prepare('SELECT count(*) AS n, max(id) AS last, total(size) AS bytes, total(mtime_ms) AS times FROM files').get());
}

/** The roots' configuration as one string: saved roots, --root folders, the default folders that exist, app and index versions. */
export function configKey(dataDir: string, extraRoots: readonly string[], noDefaults: boolean, env: NodeJS.ProcessEnv): string {
  const rootsFile = join(dataDir, 'roots.json');
  const saved = existsSync(rootsFile) ? readFileSync(rootsFile, 'utf8') : null;
  const defaults = noDefaults ? [] : defaultRootCandidates(env).map((r) => `${r.path}:${existsSync(r.path)}`);
  return JSON.stringify({ appVersion, schema: SCHEMA_VERSION, saved, extra: [...extraRoots].sort(), noDefaults, defaults });
}

function walk(root: string, maxDepth: number, folders: Record<string, Folder>): void {
  const stack: Array<{ dir: string; depth: number }> = [{ dir: root, depth: 0 }];
  while (stack.length) {
    const next = stack.pop() as { dir: string; depth: number };
    let entries;
    let mtimeMs;
    try {
      mtimeMs = statSync(next.dir).mtimeMs;
      entries = readdirSync(next.dir, { withFileTypes: true });
    } catch {
      continue;
    }
    const files: Folder[1] = {};
    for (const entry of entries) {
      const full = join(next.dir, entry.name);
      if (entry.isDirectory()) {
        if (next.depth < maxDepth && !isSkippedDir(entry.name)) stack.push({ dir: full, depth: next.depth + 1 });
      } else if (entry.isFile()) {
        try {
          const s = statSync(full);
          files[entry.name] = [s.size, s.mtimeMs];
        } catch {
          // Gone meanwhile: the folder's time says so next time.
        }
      }
    }
    folders[next.dir] = [mtimeMs, files];
  }
}

/**
 * Walks the roots as the app's scan does (the same skipped folders and depth) and records every folder and file. Null
 * when something changed after `since` (the scan's start): what the index holds may then not be what is on disk.
 */
export function takeSnapshot(config: string, index: string, roots: readonly string[], vaultRoots: readonly string[], since: number): UsageSnapshot | null {
  const folders: Record<string, Folder> = {};
  for (const root of roots) walk(root, MAX_WALK_DEPTH, folders);
  for (const root of vaultRoots) walk(root, VAULT_DEPTH, folders);
  for (const [mtimeMs, files] of Object.values(folders)) {
    if (mtimeMs >= since || Object.values(files).some(([, m]) => m >= since)) return null;
  }
  return { config, index, folders };
}

export function saveSnapshot(dataDir: string, snapshot: UsageSnapshot): Promise<void> {
  return writeFileAtomic(join(dataDir, SNAPSHOT_FILE), JSON.stringify(snapshot));
}

export function readSnapshot(dataDir: string): UsageSnapshot | null {
  try {
    return JSON.parse(readFileSync(join(dataDir, SNAPSHOT_FILE), 'utf8')) as UsageSnapshot;
  } catch {
    return null;
  }
}

/** Whether the configuration is the same and no folder or file below the roots changed since the snapshot was taken. */
export function unchangedSince(snapshot: UsageSnapshot, config: string): boolean {
  if (snapshot.config !== config || typeof snapshot.folders !== 'object' || snapshot.folders === null) return false;
  for (const [dir, [mtimeMs, files]] of Object.entries(snapshot.folders)) {
    try {
      // A file added, removed or renamed changes its folder's time; one written to changes its own.
      if (statSync(dir).mtimeMs !== mtimeMs) return false;
      for (const [name, [size, fileMtime]] of Object.entries(files)) {
        const s = statSync(join(dir, name));
        if (s.size !== size || s.mtimeMs !== fileMtime) return false;
      }
    } catch {
      return false;
    }
  }
  return true;
}
