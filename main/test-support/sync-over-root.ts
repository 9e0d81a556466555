// A LibrarySync over one root folder `<base>/root`, for the library's tests: no watcher, its index, pools and sync stopped by the test's cleanups.
import { join } from 'node:path';
import { LibrarySync } from '../library/library-sync.ts';
import type { RootRecord } from '../roots/root-store.ts';
import { IndexProgressTracker } from '../search-index/index-progress.ts';
import { IndexedCatalogue } from '../search-index/indexed-catalogue.ts';
import type { SessionIndex } from '../search-index/index-store.ts';
import { ReadPool } from '../workers/read-pool.ts';

export type SyncOptions = Partial<ConstructorParameters<typeof LibrarySync>[0]>;

/** The sync and its catalogue; `cleanups` gets what closes the index, both pools and the sync, in that order. */
export function syncOverRoot(base: string, index: SessionIndex, livePool: ReadPool, cleanups: Array<() => Promise<void> | void>, extra: SyncOptions = {}) {
  const catalogue = new IndexedCatalogue(index);
  const sessionPool = new ReadPool(1);
  const root: RootRecord = { id: 'r1', path: join(base, 'root'), kind: 'user', format: null };
  const sync = new LibrarySync({
    catalogue,
    index,
    roots: () => [root],
    vaultRoots: () => [],
    livePool,
    sessionPool,
    pricingFile: join(base, 'pricing.json'),
    progress: new IndexProgressTracker(() => undefined),
    watch: false,
    onChange: () => undefined,
    onRootsChanged: () => undefined,
    onProblem: () => undefined,
    ...extra,
  });
  cleanups.push(
    () => index.close(),
    () => sessionPool.close(),
    () => livePool.close(),
    () => sync.stop(),
  );
  return { sync, catalogue };
}
