// Applies one batch of watcher events to the catalogue: files read again or dropped, stores listed again, a session handed between twin files, and what changed reported once.
import { storeOfWal, storeReader } from '../catalogue/contained-sessions.ts';
import { holderTwinsOf, shadowedTwinsOf } from '../catalogue/walk-rules.ts';
import { statFile } from '../fs/stat-file.ts';
import type { WatchBatch } from '../watch/root-watcher.ts';
import type { ContainerSync } from './container-sync.ts';
import type { LibrarySyncOptions } from './library-sync-options.ts';
import { isClaimed, mayBeSession } from './session-paths.ts';

/** What a batch works on: the LibrarySync's catalogue, its stores, and its reads. */
export interface BatchSync extends Pick<LibrarySyncOptions, 'catalogue' | 'onChange' | 'onRootsChanged' | 'onProblem'> {
  containers: ContainerSync;
  isClosed(): boolean;
  /** Unchanged since its head said it is no session. */
  knownNotSession(path: string, size: number, mtimeMs: number): boolean;
  /** Reads a changed file into the catalogue (off the scan's budget); its key, or null when it is no session. */
  readInto(path: string, size: number, mtimeMs: number): Promise<string | null>;
}

/** Whether any of these files exists. */
async function someExists(paths: readonly string[]): Promise<boolean> {
  for (const path of paths) if (await statFile(path)) return true;
  return false;
}

export async function applyWatchBatch({ files, removedDirs }: WatchBatch, sync: BatchSync): Promise<void> {
  const { catalogue } = sync;
  const changed: string[] = [];
  const removed: string[] = [];
  for (const dir of removedDirs) removed.push(...catalogue.removeUnder(dir));
  // A changed companion (a ProjectHub transcript, a sub-agent's meta file) re-reads the sessions built from it.
  const owners = files.filter((f) => !isClaimed(f)).flatMap((f) => catalogue.ownersOf(f));
  for (const owner of owners) catalogue.markStale(owner);
  // A store, or its WAL: the store is listed again (whatever its mtime says) and its changed sessions read.
  const stores = new Set(files.flatMap((f) => storeOfWal(f) ?? (storeReader(f) ? [f] : [])));
  const targets = [...new Set([...files.filter((f) => mayBeSession(f) && !stores.has(f)), ...owners])];
  /**
   * Visited after the batch: files whose holder twin is gone (Codex compressed it, Hermes's session log removed),
   * which stand for their sessions now, and holders that read a changed shadowed twin in (Antigravity's full transcript).
   */
  const after: string[] = [];
  const visit = async (path: string) => {
    const info = await statFile(path);
    // A file beside its holder twin is left to it (walk-rules.ts: isShadowedTwin).
    if (!info || (await someExists(holderTwinsOf(path)))) {
      const key = catalogue.remove(path);
      if (key) removed.push(key);
      if (!info) for (const twin of shadowedTwinsOf(path)) if (!targets.includes(twin) && mayBeSession(twin)) after.push(twin);
      if (info)
        for (const owner of catalogue.ownersOf(path)) {
          catalogue.markStale(owner);
          after.push(owner);
        }
      return;
    }
    if (catalogue.isFresh(path, info.size, info.mtimeMs) || sync.knownNotSession(path, info.size, info.mtimeMs)) return;
    const key = await sync.readInto(path, info.size, info.mtimeMs);
    if (key) changed.push(key);
  };
  await Promise.all([
    ...[...stores].map(async (store) => {
      try {
        const result = (await statFile(store)) ? await sync.containers.sync(store, true) : { changed: [], removed: sync.containers.forget(store) };
        changed.push(...result.changed);
        removed.push(...result.removed);
      } catch (err) {
        // Its listing failed (its worker crashed, or a quit closed the pools under it): the store's sessions stay
        // listed as they were, and its next change lists it again. Left unhandled, this ended the process.
        if (!sync.isClosed()) sync.onProblem(`${store} could not be listed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }),
    ...targets.map(visit),
  ]);
  await Promise.all([...new Set(after)].map(visit));
  if (sync.isClosed() || (!changed.length && !removed.length)) return;
  // A session whose file was replaced by its twin is listed again under the same key: changed, not gone.
  const listed = new Set(changed);
  sync.onChange(
    changed,
    removed.filter((key) => !listed.has(key)),
  );
  sync.onRootsChanged();
  await catalogue.release();
}
