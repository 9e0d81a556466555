// Keeps the catalogue in step with the disk: scans the roots and the vault, watches them, and reads what changed.
import { COLLECT_EVERY_FILES, LARGE_FILE_BYTES, SCAN_HEAP_MB, SCAN_LARGE_BYTES, scanWorkers } from '../env/tuning.ts';
import { scanRoot } from '../catalogue/scan-root.ts';
import type { KnownFiles } from '../catalogue/known-files.ts';
import { holderTwinsOf, MAX_WALK_DEPTH, shadowedTwinsOf } from '../catalogue/walk-rules.ts';
import { isClaimed, mayBeSession } from './session-paths.ts';
import { applyWatchBatch } from './watch-batch.ts';
import { collectOldGarbage, releaseIdleMemory } from '../env/idle-memory.ts';
import { statFile } from '../fs/stat-file.ts';
import { fsErrorSentence } from '../fs/fs-error-text.ts';
import type { RootRecord } from '../roots/root-store.ts';
import { findReader } from '../sources/registry.ts';
import { parseBytes } from '../sources/compressed.ts';
import { RootWatcher, type WatchBatch } from '../watch/root-watcher.ts';
import { ReadPool } from '../workers/read-pool.ts';
import type { SummaryResponse } from '../workers/read-protocol.ts';
import { summarizeHere } from '../workers/summarize-here.ts';
import { storeOfWal, storeReader } from '../catalogue/contained-sessions.ts';
import { ContainerSync } from './container-sync.ts';
import type { InlineReads, LibrarySyncOptions } from './library-sync-options.ts';
import { changesAsListed } from './changes-as-listed.ts';

/** Kept copies sit below `source/<their original absolute path>`, deeper than a user folder is walked. */
const VAULT_DEPTH = 40;

export class LibrarySync {
  /** Why a root could not be scanned, by root id (shown on the root). */
  readonly rootErrors = new Map<string, string>();
  private readonly o: LibrarySyncOptions;
  /** Scans' small files: a capped heap keeps a busy scan worker from holding hundreds of MB it no longer uses. */
  private readonly scanPool: ReadPool;
  private readonly watcher: RootWatcher;
  private readonly vaultWatcher: RootWatcher;
  /** Every scan and the first watch, in order; what whenScanned waits for. */
  private scanning: Promise<void> = Promise.resolve();
  private closed = false;
  /** Scans parsing a file over LARGE_FILE_BYTES in their large-file lane: the scan pool runs one worker fewer meanwhile. */
  private narrowScans = 0;
  /** Files a scan read since the main thread's heap was last collected. */
  private readSinceCollect = 0;
  /** Files whose head said they are no session, with the `size:mtime` they had then: read again only once changed. */
  private readonly notSessions = new Map<string, string>();
  /** Stores that hold many sessions (an agent's SQLite database): listed, and only their changed sessions read. */
  private readonly containers: ContainerSync;
  /** The files the first scan reads instead of walking (options.knownFiles); taken by it. */
  private knownFiles: KnownFiles | undefined;
  /** What the first scan may still parse on this thread (options.inlineReads); none once it is over. */
  private inlineReads: InlineReads | null;

  constructor(options: LibrarySyncOptions) {
    this.o = { ...options, onChange: changesAsListed(options) };
    this.knownFiles = options.knownFiles;
    this.inlineReads = options.inlineReads ? { ...options.inlineReads } : null;
    // The status line says while search is still catching up with what the scans listed.
    options.index.onTextPending = (pending) => options.progress.textPending(pending);
    this.scanPool = new ReadPool(scanWorkers(), { pricingFile: options.pricingFile, resourceLimits: { maxOldGenerationSizeMb: SCAN_HEAP_MB } });
    this.containers = new ContainerSync({
      catalogue: options.catalogue,
      list: (store, live) => (live ? options.livePool : this.scanPool).list(store),
      // As a scan's small files: the capped scan pool, and without the cap when a batch needs more.
      summarizeMany: (store, ids, live) =>
        live ? options.livePool.summarizeMany(store, ids) : this.scanPool.summarizeMany(store, ids).catch(() => options.livePool.summarizeMany(store, ids)),
      room: () => options.index.room(),
      stopped: () => this.closed,
      afterRead: () => this.countRead(),
      onProblem: (message) => options.onProblem(message),
    });
    this.watcher = new RootWatcher({
      // A store's writes land in its WAL (`<store>-wal`) before the store itself changes: both are watched.
      claims: (path) => mayBeSession(path) || storeOfWal(path) !== null || options.catalogue.ownersOf(path).length > 0,
      onBatch: (batch) => void this.applyBatch(batch),
      onError: (err) => options.onProblem(`Watcher: ${err.message}`),
    });
    this.vaultWatcher = new RootWatcher({
      claims: isClaimed,
      onBatch: (batch) => void this.applyBatch(batch),
      onError: (err) => options.onProblem(`Vault watcher: ${err.message}`),
      depth: VAULT_DEPTH,
    });
  }

  /** Starts watching the vault's folders (nothing when not watching). */
  async watchVault(): Promise<void> {
    if (this.o.watch) await this.vaultWatcher.setRoots(this.o.vaultRoots());
  }

  /**
   * The first scan: the vault, then the roots once the watcher is in place, as one run of progress (the window
   * sees one idle at the end). Resolves when the roots are scanned.
   */
  firstScan(): Promise<void> {
    this.o.progress.begin();
    // What the files were at the start, for this scan alone: any later one (a keep's, a root added) walks the disk.
    const known = this.knownFiles;
    this.knownFiles = undefined;
    this.scanning = this.scanning.then(() => this.scanVault(known));
    // The watcher's first walk of a large library takes seconds (100,000 files: about 3 s): the list is served
    // from the index meanwhile, and the roots are scanned once the watcher is in place, so no change is missed.
    const watching = this.rewatch().catch((err: unknown) => {
      this.o.onProblem(`Watcher: ${err instanceof Error ? err.message : String(err)}`);
    });
    this.scanning = this.scanning.then(() => watching);
    return this.scanAll(this.o.roots(), known).finally(() => {
      this.inlineReads = null;
      this.o.progress.end();
    });
  }

  /** Scans these roots after whatever scan is running; the catalogue then lets go of what the index holds. */
  scanAll(list: RootRecord[], known?: KnownFiles): Promise<void> {
    // A scan that failed before is its caller's to report: it must not fail every scan queued after it.
    this.scanning = this.scanning
      .catch(() => undefined)
      .then(async () => {
        await Promise.all(list.map((root) => this.scan(root, undefined, undefined, known)));
        // Scanned means listed: every file's row is in the index; then the catalogue lets go of the summaries the
        // index now holds. The text follows: the writer thread puts it into the full-text tables now (the app), or
        // when a command that searches asks (a one-shot command that does not search never waits for it).
        await this.o.catalogue.release();
        if (!this.closed && this.o.watch) this.o.index.catchUp();
        // After a large scan, the writer thread merges the full-text tables (index-tidy.ts), once the text is in. After
        // a one-shot command's scan of what its check found changed, when it wrote on this thread alone: one step
        // here, about what the thread got through before the command's close cut the pass, without its start.
        if (!this.closed) {
          if (this.o.watch || !known || this.o.index.writerThreadRunning) this.o.index.tidy();
          else this.o.index.tidyStep();
        }
        // The scan worker's memory goes back; the pool for live changes stays, so an edit is searchable at once.
        await this.scanPool.release();
        // And the main thread's: the scan and the watcher's walk grew its young generation, which V8 keeps otherwise.
        // Not in a one-shot command (no watching): its process ends soon, and the collection held its answer back.
        if (!this.closed && this.o.watch) await releaseIdleMemory();
        if (!this.closed) this.o.onRootsChanged();
      });
    return this.scanning;
  }

  /** Scans the vault's folders (after an import, a keep, a recording). */
  async scanVault(known?: KnownFiles): Promise<void> {
    // The vault's own JSON (session.json, meta.json, annotations) is no agent's session: only path claims there.
    await Promise.all(this.o.vaultRoots().map((path) => this.scan({ id: `vault:${path}`, path }, VAULT_DEPTH, isClaimed, known)));
    await this.o.catalogue.release();
  }

  /** Watches the roots as they are now (after one was added or removed). */
  async rewatch(): Promise<void> {
    if (!this.o.watch || this.closed) return;
    await this.watcher.setRoots(this.o.roots().map((r) => r.path));
  }

  whenScanned(): Promise<void> {
    return this.scanning;
  }

  /** Stops watching and scanning: a scan in flight stops at its next file (whenScanned says when it has). */
  async stop(): Promise<void> {
    this.closed = true;
    await this.watcher.close();
    await this.vaultWatcher.close();
    await this.scanPool.close();
  }

  /**
   * Reads one file the user opened on its own (outside every root) into the catalogue, as a watch event would.
   * Its key, or null when no reader recognises the file (by its place or its first records).
   */
  async readOpenedFile(path: string): Promise<string | null> {
    const info = await statFile(path);
    if (!info) return null;
    this.notSessions.delete(path);
    const key = await this.readInto(path, info.size, info.mtimeMs, true);
    if (key) this.o.onChange([key], []);
    return key;
  }

  /** `live`: the file changed while the app runs (a watch event), rather than being found by a scan. */
  private async readInto(path: string, size: number, mtimeMs: number, live = false): Promise<string | null> {
    const { livePool, sessionPool } = this.o;
    const bytes = parseBytes(path, size);
    const removalsBefore = this.o.catalogue.removals;
    try {
      // A large file that just appeared is likely the one the user opens next: the session worker lists it and keeps the
      // parse (opening it costs a window, not a second parse). A scan's are not kept: a cold start would hold hundreds of MB.
      const result = live
        ? bytes > LARGE_FILE_BYTES
          ? await sessionPool.summarize(path, 'background', true)
          : await livePool.summarize(path)
        : this.readInline(bytes)
          ? await summarizeHere(path, this.textLater).catch(() => livePool.summarize(path, 'background', false, this.textLater))
          : bytes > SCAN_LARGE_BYTES
            ? await this.readLarge(path, bytes)
            : // A file that needs more than the capped heap (or crashes its worker) is read again without the cap.
              await this.scanPool
                .summarize(path, 'background', false, this.textLater)
                .catch(() => livePool.summarize(path, 'background', false, this.textLater));
      if (this.closed) return null;
      if (!live) this.countRead();
      if (this.o.catalogue.removals !== removalsBefore && (await this.goneWhileRead(path))) return null;
      if (!result.ok && result.format === null && !isClaimed(path)) return this.notASession(path, size, mtimeMs);
      return await this.put(path, size, mtimeMs, result);
    } catch (err) {
      if (this.closed || (await this.goneWhileRead(path))) return null;
      const message = err instanceof Error ? err.message : String(err);
      return this.put(path, size, mtimeMs, {
        id: 0,
        ok: false,
        format: findReader(path)?.format ?? null,
        unreadable: { code: 'io_error', message: `Reading stopped unexpectedly: ${message}` },
      });
    }
  }

  /**
   * Puts a file read into the catalogue, in place of its twin's entry (walk-rules.ts: `X.jsonl` / `X.jsonl.zst`,
   * Hermes's `session_X.json` / `X.jsonl`): the file read stands for the session now, under the same key. A shadowed
   * file stands only once its holder is gone.
   */
  private async put(path: string, size: number, mtimeMs: number, result: SummaryResponse): Promise<string> {
    const { catalogue } = this.o;
    const gone: string[] = [];
    for (const twin of shadowedTwinsOf(path)) if (catalogue.has(twin)) gone.push(twin);
    for (const holder of holderTwinsOf(path)) if (catalogue.has(holder) && !(await statFile(holder))) gone.push(holder);
    const goneKeys = gone.map((twin) => catalogue.remove(twin));
    const key = catalogue.put(path, size, mtimeMs, result);
    const removed = goneKeys.filter((k): k is string => k !== null && k !== key);
    if (removed.length) this.o.onChange([], removed);
    return key;
  }

  /** Whether a file of this size is parsed on this thread: taken from what the first scan may still parse here. */
  private readInline(size: number): boolean {
    const left = this.inlineReads;
    if (!left || left.files < 1 || size > left.bytes) return false;
    left.files--;
    left.bytes -= size;
    return true;
  }

  /**
   * A file deleted or moved away while it was read (a kept copy sent to the trash while a watch batch re-read it): not
   * listed from that read, which would outlive the batch that saw it go (batches run side by side). Gone from the list.
   * Asked only after a removal during the read (a later one removes the file itself): a stat per file cost 170 ms of CPU.
   */
  private async goneWhileRead(path: string): Promise<boolean> {
    if (await statFile(path)) return false;
    const key = this.o.catalogue.remove(path);
    if (key) this.o.onChange([], [key]);
    return true;
  }

  /**
   * A file no path claims whose head no reader recognised (the read worker decided from one bounded read): not
   * listed, and not read again until it changes. One that was a session before leaves the list.
   */
  private notASession(path: string, size: number, mtimeMs: number): null {
    this.notSessions.set(path, `${size}:${mtimeMs}`);
    const key = this.o.catalogue.remove(path);
    if (key) this.o.onChange([], [key]);
    return null;
  }

  /**
   * A scan's large file, parsed in the live pool's worker (one at a time, beside the scan workers' small files).
   * After one over LARGE_FILE_BYTES the worker ends: a worker that parsed one 52 MB transcript parses the next with
   * the first one's garbage still in its old generation (peak heap 160 MB where a fresh worker needs ~105). Below
   * that a worker goes on: starting one costs ~200 ms of CPU (its modules), and a realistic gigabyte holds ~20
   * transcripts of 8-32 MB.
   */
  private async readLarge(path: string, size: number): Promise<SummaryResponse> {
    try {
      return await this.o.livePool.summarize(path, 'background', false, this.textLater);
    } finally {
      if (size > LARGE_FILE_BYTES) await this.o.livePool.release();
    }
  }

  /** `claims`: which files to read; a user's folder also has its `*.json`/`*.jsonl` tried by content. */
  /** `known`: the files below the root as they are now (knownFiles), read instead of a walk. */
  private async scan(
    root: Pick<RootRecord, 'id' | 'path'>,
    maxDepth?: number,
    claims: (path: string) => boolean = mayBeSession,
    known?: KnownFiles,
  ): Promise<void> {
    // Stopped (the services are closing): a late caller (a vault rescan after a keep) finds the index closed.
    if (this.closed) return;
    const { catalogue, index, progress } = this.o;
    progress.begin();
    // Listing first: the scan's text waits for the full-text tables until every file is listed (scanAll's end).
    index.beginListing();
    const writesBefore = catalogue.writes;
    // Files an earlier command listed without their text are read again by a scan that reads text (the index marks them).
    const unread = this.textLater ? null : index.textUnreadPaths();
    // Whether this scan's large-file lane holds the scan pool at one worker fewer (several roots are scanned at once).
    let narrowing = false;
    const narrow = (on: boolean) => {
      if (on === narrowing) return;
      narrowing = on;
      this.narrowScans += on ? 1 : -1;
      this.scanPool.limit(this.narrowScans > 0 ? Math.max(1, scanWorkers() - 1) : undefined);
    };
    const result = await scanRoot(
      root.path,
      {
        claims,
        // A store is never fresh by its own size and mtime: its listing says which of its sessions changed (container-sync.ts).
        isFresh: (p, size, mtime) =>
          storeReader(p) === null && ((catalogue.isFresh(p, size, mtime) && !unread?.has(p)) || this.knownNotSession(p, size, mtime)),
        // Backpressure: the next file is read only while the index writer keeps up.
        read: (path, size, mtimeMs) => (storeReader(path) ? this.readStore(path, false) : index.room().then(() => this.readInto(path, size, mtimeMs))),
        onKeys: (keys) => this.o.onChange(keys, []),
        stopped: () => this.closed,
        found: (bytes, fresh) => progress.found(bytes, fresh),
        done: (bytes) => progress.done(bytes),
        // A command that only lists (textLater) reads files over 8 MB in a lane of their own, in the live pool, one at a
        // time and the largest first, beside the scan pool's small files: read after the others, the 50-200 MB ones (a
        // third of a realistic gigabyte) kept one core idle for a third of the listing. Memory: while a file over 32 MB
        // is parsed, the scan pool runs one worker fewer (its idle one ends), so one large parse and one small file's
        // share the two cores.
        // The app reads files over 32 MB after the others instead (those of 8-32 MB go to the live pool as they are
        // found, readInto: 10,000-session bench corpus, cold index 20.3 / 19.1 s -> 15.9 / 16.2 s against reading them
        // after the rest): its writer thread takes the listed text on the core the scan then leaves; with the lane it
        // waited for the whole listing (searchable later than it was).
        largeAbove: this.textLater ? SCAN_LARGE_BYTES : LARGE_FILE_BYTES,
        parseBytes,
        largeAfterOthers: !this.textLater,
        // A store's sessions are read one by one in the scan pool, with the small files: the store is never a large file.
        readInPieces: (path) => storeReader(path) !== null,
        beforeLarge: (bytes) => narrow(bytes > LARGE_FILE_BYTES),
        afterLarge: () => narrow(false),
        othersRead: async () => {
          // Only large files are left, one at a time: the app's writer thread takes the text already listed meanwhile,
          // on the core the scan no longer uses, and the idle scan workers' memory goes back.
          if (this.o.watch && !this.closed) index.catchUp();
          await this.scanPool.release();
          // The peak of a scan is a large file's parse: let the main thread's grown heap go.
          await releaseIdleMemory();
        },
      },
      maxDepth,
      known?.filesUnder(root.path, maxDepth ?? MAX_WALK_DEPTH) ?? undefined,
    )
      // A walk that throws (a file system failing under it) marks this root, never the scans of the others.
      .catch((err: unknown) => ({
        seen: new Set<string>(),
        error: `The folder could not be scanned: ${fsErrorSentence(err) ?? (err instanceof Error ? err.message : String(err))}.`,
      }))
      .finally(() => {
        index.endListing();
        progress.end();
      });
    if (result.error) {
      this.rootErrors.set(root.id, result.error);
      return;
    }
    this.rootErrors.delete(root.id);
    // Files deleted while the app was not watching (or before a rescan) leave the list now.
    const gone = catalogue.removeUnseen(root.path, result.seen, writesBefore);
    if (gone.length) this.o.onChange([], gone);
  }

  /** A store's sessions brought up to date; returns the keys read (those gone are told at once). */
  private async readStore(store: string, live: boolean): Promise<string[]> {
    const { changed, removed } = await this.containers.sync(store, live);
    if (removed.length && !this.closed) this.o.onChange([], removed);
    return changed;
  }

  /** A scan read one more file: the main thread's old garbage is collected every so many. */
  private countRead(): void {
    if (++this.readSinceCollect >= (this.o.collectEvery ?? COLLECT_EVERY_FILES)) {
      this.readSinceCollect = 0;
      (this.o.collectGarbage ?? collectOldGarbage)();
    }
  }

  /** Scans read files without their index text (see LibrarySyncOptions.textLater). */
  private get textLater(): boolean {
    return this.o.textLater === true;
  }

  /** Unchanged since its head said it is no session: not read again. */
  private knownNotSession(path: string, size: number, mtimeMs: number): boolean {
    return this.notSessions.get(path) === `${size}:${mtimeMs}`;
  }

  private applyBatch(batch: WatchBatch): Promise<void> {
    return applyWatchBatch(batch, {
      catalogue: this.o.catalogue,
      containers: this.containers,
      isClosed: () => this.closed,
      knownNotSession: (path, size, mtimeMs) => this.knownNotSession(path, size, mtimeMs),
      readInto: (path, size, mtimeMs) => this.readInto(path, size, mtimeMs, true),
      onChange: this.o.onChange,
      onRootsChanged: this.o.onRootsChanged,
      onProblem: this.o.onProblem,
    });
  }
}
