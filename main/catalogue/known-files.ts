// The files below a root as a walk would find them, from folders already listed (a one-shot command's check of the last run's snapshot): the scan reads that list instead of the disk.
import { join, sep } from 'node:path';
import type { FoundFile } from './scan-root.ts';
import { isShadowedTwin, isSkippedDir } from './walk-rules.ts';

/** A folder's path, its time, and three entries per file in it (name, size, time): the snapshot's layout. */
export type ListedFolder = readonly [path: string, mtimeMs: number, files: ReadonlyArray<string | number>];

export interface KnownFiles {
  /**
   * The files a walk of `root` to `maxDepth` (walk.ts: the same skipped folders) would find, with their sizes and
   * times; null when `root` is not among the folders listed (then the scan walks it).
   */
  filesUnder(root: string, maxDepth: number): FoundFile[] | null;
}

/**
 * How many folders below `root` the folder `dir` is (0: the root itself), or -1 when a walk of `root` would not
 * enter it: outside the root, or below a folder the walk skips.
 */
function depthBelow(root: string, dir: string): number {
  if (dir === root) return 0;
  const prefix = root.endsWith(sep) ? root : `${root}${sep}`;
  if (!dir.startsWith(prefix)) return -1;
  const parts = dir.slice(prefix.length).split(sep);
  return parts.some(isSkippedDir) ? -1 : parts.length;
}

export function knownFiles(folders: readonly ListedFolder[]): KnownFiles {
  return {
    filesUnder(root, maxDepth) {
      if (!folders.some(([dir]) => dir === root)) return null;
      const found: FoundFile[] = [];
      for (const [dir, , files] of folders) {
        const depth = depthBelow(root, dir);
        if (depth < 0 || depth > maxDepth) continue;
        let names: Set<string> | null = null;
        const has = (name: string) => (names ??= new Set(files.filter((_, i) => i % 3 === 0) as string[])).has(name);
        for (let i = 0; i < files.length; i += 3) {
          const name = files[i] as string;
          // As a walk would: a compressed file beside its plain twin is left to it.
          if (isShadowedTwin(name, has, dir)) continue;
          found.push({ path: join(dir, name), size: files[i + 1] as number, mtimeMs: files[i + 2] as number });
        }
      }
      return found;
    },
  };
}
