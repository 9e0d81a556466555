// Starts the services: roots, prices and the vault loaded, the catalogue restored from the index, then the first scan and auto-keep.
import { mkdir } from 'node:fs/promises';
import type { DefaultRoot } from '../roots/default-roots.ts';
import { isWithin } from '../roots/paths.ts';
import type { RootStore } from '../roots/root-store.ts';
import { applyUserPricing } from '../pricing/user-pricing.ts';
import type { EarlyListingContext } from '../search-index/early-listing.ts';
import type { IndexProgressTracker } from '../search-index/index-progress.ts';
import type { SessionIndex } from '../search-index/index-store.ts';
import type { IndexedCatalogue } from '../search-index/indexed-catalogue.ts';
import { stampReadingVersion } from '../search-index/reading-version.ts';
import type { Vault } from '../vault/vault-service.ts';
import type { VaultMarksWatcher } from '../vault/marks-watcher.ts';
import type { LibrarySync } from '../library/library-sync.ts';

export interface StartupDeps {
  roots: RootStore;
  /** The tools' default folders to look for (read at start). */
  defaultRoots(): DefaultRoot[];
  /** --root folders for this run. */
  extraRoots: string[];
  pricingFile: string;
  vault: Vault;
  index: SessionIndex;
  catalogue: IndexedCatalogue;
  sync: LibrarySync;
  progress: IndexProgressTracker;
  /** Watch the disk, and sweep for sessions to auto-keep every minute (the one-shot CLI does neither). */
  watch: boolean;
  /** Watches the vault's stars, tags, notes and summaries for other processes' writes (null when not watching). */
  marks: VaultMarksWatcher | null;
}

/** Sessions close or go idle without a file event: auto-keep looks again this often. */
const AUTO_KEEP_EVERY_MS = 60_000;

export class Startup {
  private readonly deps: StartupDeps;
  private problemList: string[] = [];
  /** The restore of the catalogue (roots, vault, then the index read back): the dispatcher holds every call but the list until it is over. */
  private restore: Promise<void> | null = null;
  /** What the list needs to be read from the index alone while the catalogue is restored; null before a start. */
  private early: Promise<EarlyListingContext | null> = Promise.resolve(null);
  /** The first scan read every file again for newer readers, and the index has said so (or nothing to say). */
  private readingNoted: Promise<void> = Promise.resolve();
  /** The whole of start(), scans begun. */
  private started: Promise<void> | null = null;
  private autoKeepTimer: NodeJS.Timeout | null = null;

  constructor(deps: StartupDeps) {
    this.deps = deps;
  }

  start(): Promise<void> {
    this.started = this.run();
    return this.started;
  }

  /** The start's restore of the catalogue, set as soon as start() returns; null before a start. */
  restoring = (): Promise<void> | null => this.restore;

  earlyListing = (): Promise<EarlyListingContext | null> => this.early;

  /** Problems met while loading (unreadable roots file, a --root that does not exist, a watcher that failed). */
  problems(): string[] {
    return [...this.problemList];
  }

  noteProblem = (message: string): void => {
    this.problemList.push(message);
  };

  /** Resolves when every root has been scanned once and every session is listed; search may still be catching up. */
  async whenListed(): Promise<void> {
    // A scan is started by start(): one not over yet has none to wait for yet.
    await this.started?.catch(() => undefined);
    await this.readingNoted.catch(() => undefined);
    return this.deps.sync.whenScanned();
  }

  /** Resolves when every root has been scanned once and every listed session is searchable by its words (identifier substrings may follow). */
  async whenSearchable(): Promise<void> {
    await this.whenListed();
    return this.deps.index.whenSearchable();
  }

  /** Resolves when every root has been scanned once and every listed session's text is in the index, identifiers too. */
  async whenScanned(): Promise<void> {
    await this.whenListed();
    return this.deps.index.whenCaughtUp();
  }

  /** Resolves once scanned and no merge of the index's full-text tables runs. */
  async whenIndexTidied(): Promise<void> {
    await this.whenScanned();
    return this.deps.index.whenTidied();
  }

  close(): void {
    if (this.autoKeepTimer) clearInterval(this.autoKeepTimer);
  }

  private async run(): Promise<void> {
    // One run of progress from here to the end of the first scan: the status line never says idle in between.
    this.deps.progress.begin();
    try {
      await this.startAndScan();
    } finally {
      this.deps.progress.end();
    }
  }

  /**
   * After a first scan that read again every file older readers had read (reading-version.ts): once what it read is
   * in the index file (its text may still wait in the catch-up, already this version's), the index says so. A start
   * that ends before reads them again.
   */
  private async noteReadingVersion(): Promise<void> {
    const { index } = this.deps;
    await index.settled();
    if (stampReadingVersion(index)) return;
    // The writer thread held the file past the busy timeout (the catch-up): once more when the text is in.
    void index
      .whenCaughtUp()
      .then(() => stampReadingVersion(index))
      .catch(() => undefined);
  }

  /** Roots, prices and the vault loaded: enough to read the list from the index alone (early-listing.ts). */
  private async loadLibrary(): Promise<EarlyListingContext> {
    const { roots, vault, index } = this.deps;
    this.problemList = await roots.load(this.deps.defaultRoots(), this.deps.extraRoots);
    const pricingProblem = applyUserPricing(this.deps.pricingFile);
    if (pricingProblem) this.problemList.push(pricingProblem);
    // Watched before they are read, so a write from another process in between is not missed.
    await this.deps.marks?.start().catch((err: unknown) => this.problemList.push(`Vault marks watcher: ${(err as Error).message}`));
    this.problemList.push(...(await vault.load()));
    if (index.note) this.problemList.push(index.note);
    const known = [...roots.list().map((r) => r.path), ...vault.roots()];
    return { roots: known, copiesDir: vault.copiesDir, kindOf: vault.kindOf, decorate: vault.decorate };
  }

  private async startAndScan(): Promise<void> {
    const { vault, catalogue, sync } = this.deps;
    const loading = this.loadLibrary();
    this.early = loading.catch(() => null);
    // Search index: list what was indexed before at once; the scans below re-read only changed files.
    this.restore = loading.then(async ({ roots: known }) => {
      await catalogue.restore((path) => known.some((root) => isWithin(root, path)));
    });
    await this.restore;
    for (const dir of vault.roots()) await mkdir(dir, { recursive: true });
    await sync.watchVault();
    const scanned = sync.firstScan();
    if (catalogue.readAgain) this.readingNoted = scanned.then(() => this.noteReadingVersion());
    void scanned.then(
      () => vault.sweepInBackground(),
      () => undefined,
    );
    if (this.deps.watch) {
      this.autoKeepTimer = setInterval(() => vault.sweepInBackground(), AUTO_KEEP_EVERY_MS);
      this.autoKeepTimer.unref();
    }
  }
}
