// What changed below the roots since the last full run's snapshot, in a stat per folder and file and a readdir per changed folder: the disk as it is now, for a scan that need not walk it (known-files.ts) and a snapshot patched instead of walked again.
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { isSkippedDir } from '../catalogue/walk-rules.ts';
import type { Folder } from './index-current.ts';

export interface SnapshotChanges {
  /** The snapshot's folders as they are now: changed files' sizes and times, a changed folder's files as listed, new folders walked, gone ones left out. */
  folders: Folder[];
  /** Folders and files whose time or size differ from the snapshot's, folders added or gone (0: nothing changed). */
  changed: number;
}

/**
 * How deep a new folder is walked, below itself: the vault's depth, the deepest any walk goes. known-files.ts cuts
 * each root's files at that root's own depth.
 */
const NEW_FOLDER_DEPTH = 40;

/** A changed folder listed again: its files, and the folders a walk would enter. */
function relist(dir: string): { files: Folder[2]; dirs: string[] } {
  const files: Folder[2] = [];
  const dirs: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!isSkippedDir(entry.name)) dirs.push(join(dir, entry.name));
    } else if (entry.isFile()) {
      const s = statSync(join(dir, entry.name));
      files.push(entry.name, s.size, s.mtimeMs);
    }
  }
  return { files, dirs };
}

/**
 * Every folder below `root` to `maxDepth` (the same skipped folders as the scan's walk), with its time and its files'
 * names, sizes and times, as a snapshot records them (scan-snapshot.ts), and as this check records a folder that
 * appeared. A folder or file that cannot be read is left out, as the scan's walk leaves it.
 */
export function walkFolders(root: string, maxDepth: number, folders: Folder[]): void {
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
    const files: Folder[2] = [];
    for (const entry of entries) {
      const full = join(next.dir, entry.name);
      if (entry.isDirectory()) {
        if (next.depth < maxDepth && !isSkippedDir(entry.name)) stack.push({ dir: full, depth: next.depth + 1 });
      } else if (entry.isFile()) {
        try {
          const s = statSync(full);
          files.push(entry.name, s.size, s.mtimeMs);
        } catch {
          // Gone meanwhile: the folder's time says so next time.
        }
      }
    }
    folders.push([next.dir, mtimeMs, files]);
  }
}

/** Whether `dir` is `top` or below it. */
const within = (top: string, dir: string) => dir === top || dir.startsWith(top.endsWith(sep) ? top : `${top}${sep}`);

/**
 * The snapshot's folders compared with the disk. A folder's time is read before its entries: a file added meanwhile
 * leaves the recorded time older than the folder's, so the next check lists it again. A folder is gone when the
 * folder above it, listed again, no longer holds it. Null when a stat fails otherwise (a folder gone whose parent
 * still looks the same, no permission): only a walk tells then.
 */
export function changesSince(snapshotFolders: readonly Folder[]): SnapshotChanges | null {
  const known = new Set(snapshotFolders.map(([dir]) => dir));
  const now: Array<Folder | null> = [];
  /** Each folder listed again, with the folders it holds now. */
  const holds = new Map<string, Set<string>>();
  const appeared: string[] = [];
  let changed = 0;
  try {
    for (const folder of snapshotFolders) {
      const [dir, mtimeMs, files] = folder;
      let time: number;
      try {
        time = statSync(dir).mtimeMs;
      } catch (err) {
        // Gone: fine if the folder above it says so (below); anything else needs a walk.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && (err as NodeJS.ErrnoException).code !== 'ENOTDIR') return null;
        now.push(null);
        continue;
      }
      if (time !== mtimeMs) {
        // A file or folder added, removed or renamed changes its folder's time.
        const listed = relist(dir);
        holds.set(dir, new Set(listed.dirs));
        for (const child of listed.dirs) if (!known.has(child)) appeared.push(child);
        changed++;
        now.push([dir, time, listed.files]);
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
      }
      now.push(same === files ? folder : [dir, mtimeMs, same]);
    }
    // Folders gone, or no longer folders a walk enters (a link now): their parent, listed again, does not hold them.
    const gone = snapshotFolders.map(([dir]) => dir).filter((dir) => holds.get(dirname(dir))?.has(dir) === false);
    const isGone = (dir: string) => gone.some((top) => within(top, dir));
    const folders: Folder[] = [];
    for (const [i, folder] of now.entries()) {
      const dir = (snapshotFolders[i] as Folder)[0];
      if (isGone(dir)) continue;
      if (!folder) return null;
      folders.push(folder);
    }
    changed += gone.length;
    for (const dir of appeared) {
      if (isGone(dir)) continue;
      changed++;
      walkFolders(dir, NEW_FOLDER_DEPTH, folders);
    }
    return { folders, changed };
  } catch {
    return null;
  }
}
