// What LibrarySync is given: the rooms it keeps in step with the disk, and how a scan may read (library-sync.ts).
import type { KnownFiles } from '../catalogue/known-files.ts';
import type { RootRecord } from '../roots/root-store.ts';
import type { IndexProgressTracker } from '../search-index/index-progress.ts';
import type { IndexedCatalogue } from '../search-index/indexed-catalogue.ts';
import type { SessionIndex } from '../search-index/index-store.ts';
import type { ReadPool } from '../workers/read-pool.ts';

/** Files, and bytes, left to parse on the main thread. */
export interface InlineReads {
  files: number;
  bytes: number;
}

export interface LibrarySyncOptions {
  catalogue: IndexedCatalogue;
  index: SessionIndex;
  /** The user's folders, as they are now. */
  roots(): RootRecord[];
  /** The vault's own folders (kept copies, recorded sessions). */
  vaultRoots(): string[];
  /** Scans parse many files and keep nothing: the pool for live changes, shared with the rest of the app. */
  livePool: ReadPool;
  /** The worker that keeps opened sessions parsed: a large file that just appeared is read there. */
  sessionPool: ReadPool;
  pricingFile: string;
  progress: IndexProgressTracker;
  /** False: scans only, no watchers (the CLI). */
  watch: boolean;
  /**
   * A one-shot command that only lists (list, export, diff, resume): scans build no index text (about a quarter of a
   * cold `list`'s CPU), and the files go into the index marked as unread; the next scan that reads text reads them again.
   */
  textLater?: boolean;
  /**
   * The files below the roots and the vault's folders as they are now (a one-shot command's check of the last run's
   * snapshot, known-files.ts): the first scan reads this list instead of walking and stat-ing every file.
   */
  knownFiles?: KnownFiles | undefined;
  /**
   * How many files, and bytes, the first scan may parse on the main thread instead of in a worker: a one-shot command
   * whose check found what changed (starting a worker costs more than parsing a few small files). Past it, and for
   * stores and later scans, the workers read. (A check that found little may still be followed by many reads: an index
   * rebuilt, text a list-only run left; those go to the workers.)
   */
  inlineReads?: InlineReads | undefined;
  /** Sessions read (by key) and gone, to tell the window. */
  onChange(changed: string[], removed: string[]): void;
  /** A root's session counts or error may have changed. */
  onRootsChanged(): void;
  onProblem(message: string): void;
  /** Collects the main thread's old garbage during long scans (tests count the calls); and after how many files. */
  collectGarbage?: () => void;
  collectEvery?: number;
}
