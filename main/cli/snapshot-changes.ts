// What changed below the roots since the last full run's snapshot, in a stat per folder and file and a readdir per changed folder: the disk as it is now, for a scan that need not walk it (known-files.ts) and a snapshot patched instead of walked again.
import { readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { isSkippedDir } from '../catalogue/walk-rules.ts';
import type { Folder } from './index-current.ts';

export interface SnapshotChanges {
  /** The snapshot's folders as they are now: changed files' sizes and times, a changed folder's files as listed. */
  folders: Folder[];
  /** Folders and files whose time or size differ from the snapshot's (0: nothing changed). */
  changed: number;
  /** The files among them that are new or written to: how many, and their bytes now (what a scan reads again). */
  changedFiles: number;
  changedBytes: number;
}

/** A changed folder's files, listed again; null when a folder appeared in it (a walk would find files this check did not). */
function relist(dir: string, known: ReadonlySet<string>, before: Folder[2], count: (size: number) => void): Folder[2] | null {
  const was = new Map<string, string>();
  for (let i = 0; i < before.length; i += 3) was.set(before[i] as string, `${before[i + 1] as number}:${before[i + 2] as number}`);
  const files: Folder[2] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      // A folder the walk skips, or one it read before (checked on its own): nothing new below it here.
      if (!isSkippedDir(entry.name) && !known.has(full)) return null;
    } else if (entry.isFile()) {
      const s = statSync(full);
      files.push(entry.name, s.size, s.mtimeMs);
      if (was.get(entry.name) !== `${s.size}:${s.mtimeMs}`) count(s.size);
    }
  }
  return files;
}

/**
 * The snapshot's folders compared with the disk. Null when a folder is gone or a new one appeared (or a stat fails):
 * only a walk finds what is below it. A folder's time is read before its entries: a file added meanwhile leaves the
 * recorded time older than the folder's, so the next check lists it again.
 */
export function changesSince(snapshotFolders: readonly Folder[]): SnapshotChanges | null {
  const known = new Set(snapshotFolders.map(([dir]) => dir));
  const folders: Folder[] = [];
  let changed = 0;
  let changedFiles = 0;
  let changedBytes = 0;
  const count = (size: number) => {
    changedFiles++;
    changedBytes += size;
  };
  try {
    for (const folder of snapshotFolders) {
      const [dir, mtimeMs, files] = folder;
      const now = statSync(dir).mtimeMs;
      if (now !== mtimeMs) {
        // A file added, removed or renamed changes its folder's time.
        const listed = relist(dir, known, files, count);
        if (!listed) return null;
        changed++;
        folders.push([dir, now, listed]);
        continue;
      }
      let same = files;
      for (let i = 0; i < files.length; i += 3) {
        // The folder's path as the walk joined it, and an entry's own name: join() would change neither.
        const s = statSync(`${dir}${sep}${files[i] as string}`);
        if (s.size === files[i + 1] && s.mtimeMs === files[i + 2]) continue;
        // A file written to changes its own time and size only.
        if (same === files) same = [...files];
        same[i + 1] = s.size;
        same[i + 2] = s.mtimeMs;
        changed++;
        count(s.size);
      }
      folders.push(same === files ? folder : [dir, mtimeMs, same]);
    }
  } catch {
    return null;
  }
  return { folders, changed, changedFiles, changedBytes };
}
