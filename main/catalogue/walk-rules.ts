// What a walk of a root enters: how deep, which folders it skips (walk.ts, the snapshot's walk, the watcher, the quick check) and which files it leaves to their twin, with no file system code so the quick paths can load it.

/** Folders that never hold sessions but can hold millions of files. */
const SKIP_DIRS = new Set(['node_modules', '.git', '.hg', '.svn', '__pycache__', '.venv', 'target', '.cache']);

export const MAX_WALK_DEPTH = 8;

export function isSkippedDir(name: string): boolean {
  return SKIP_DIRS.has(name);
}

/**
 * A compressed file whose plain twin lies beside it (`X.jsonl.zst` beside `X.jsonl`): the same session, left to the
 * plain file. Codex writes the .zst and then deletes the .jsonl, and a resumed session the other way round; while both
 * exist the session is listed once, from the plain file. `has`: whether the folder holds a file of that name.
 */
export function isShadowedTwin(name: string, has: (name: string) => boolean): boolean {
  return name.endsWith('.jsonl.zst') && has(name.slice(0, -'.zst'.length));
}
