// What a walk of a root enters: how deep, and which folders it skips (walk.ts, the snapshot's walk, the watcher, the quick check), with no file system code so the quick paths can load it.

/** Folders that never hold sessions but can hold millions of files. */
const SKIP_DIRS = new Set(['node_modules', '.git', '.hg', '.svn', '__pycache__', '.venv', 'target', '.cache']);

export const MAX_WALK_DEPTH = 8;

export function isSkippedDir(name: string): boolean {
  return SKIP_DIRS.has(name);
}
