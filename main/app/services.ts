// Wires roots, catalogue, index, vault, bundles and the library's scanning and watching into the services that implement the contract.
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import type { AppEvent, Root } from '../../shared/api.ts';
import { AppError } from '../../shared/result.ts';
import { configureHeaps } from './idle-memory.ts';
import type { Session } from '../../shared/session.ts';
import { IndexedCatalogue } from '../search-index/indexed-catalogue.ts';
import { SessionIndex } from '../search-index/index-store.ts';
import { IndexProgressTracker } from '../search-index/index-progress.ts';
import { listWithIndex, searchSessions } from '../search-index/search-service.ts';
import { listEarly, listableEarly, type EarlyListingContext } from '../search-index/early-listing.ts';
import type { ServiceMethods } from '../../shared/api.ts';
import { createDispatch, type Dispatch } from '../transport/dispatch.ts';
import { writeDemoSessions } from '../demo/demo-sessions.ts';
import { readRawWindow } from '../raw/raw-source.ts';
import { readRawRecord } from '../raw/raw-record.ts';
import { defaultRootCandidates } from '../roots/default-roots.ts';
import { isWithin } from '../roots/paths.ts';
import { SessionFileCheck } from '../roots/session-files.ts';
import { RootStore, type RootRecord } from '../roots/root-store.ts';
import { fsErrorSentence } from '../fs/fs-error-text.ts';
import { appVersion } from '../env/app-version.ts';
import { OpenedBundles } from '../open/opened-bundles.ts';
import { ReadPool } from '../workers/read-pool.ts';
import { LibrarySync } from './library-sync.ts';
import { compareKeys } from '../compare/compare-keys.ts';
import { Vault, type VaultHost } from '../vault/vault-service.ts';
import { BundleService } from '../bundle/bundle-service.ts';
import { applyUserPricing, PRICING_FILE_NAME } from '../pricing/user-pricing.ts';

export interface ServicesOptions {
  dataDir: string;
  shell: 'electron' | 'web' | 'cli';
  /** --root DIR from the command line. */
  extraRoots?: string[];
  /** Add the tools' default folders when they exist (default true). */
  discoverDefaults?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Watch roots for changes (default true; the one-shot CLI turns it off). */
  watch?: boolean;
  /** Desktop abilities (the OS trash) the vault uses when running in Electron. */
  host?: VaultHost;
}

export interface Services {
  dispatch: Dispatch;
  methods: ServiceMethods;
  subscribe(handler: (event: AppEvent) => void): () => void;
  start(): Promise<void>;
  /** Resolves when every root has been scanned once (start() does not wait for it). */
  whenScanned(): Promise<void>;
  /** Resolves once scanned and no merge of the index's full-text tables runs (what a scan may start; the bench waits for it). */
  whenIndexTidied(): Promise<void>;
  close(): Promise<void>;
  /** Problems met while loading (unreadable roots file, a --root that does not exist). */
  startupProblems(): string[];
  /** Sharing: the CLI loads whole sessions through it, the HTTP transport its uploads and downloads. */
  bundles: BundleService;
  /** A bundle the OS asked the app to open: a window takes it and imports it; a sentence when the file cannot be. */
  openBundleFile(path: string): Promise<string | null>;
}

export function createServices(options: ServicesOptions): Services {
  configureHeaps();
  const env = options.env ?? process.env;
  const roots = new RootStore(options.dataDir);
  // The vault needs the catalogue and the catalogue asks the vault which paths are its own.
  // Search index: the catalogue mirrors every read into <data dir>/index.sqlite and restores it at start.
  const index = SessionIndex.inDataDir(options.dataDir);
  const catalogue = new IndexedCatalogue(
    index,
    (path) => vault.kindOf(path),
    (key) => vault.annotations.get(key).note,
    (path) => vault.copyKeyOf(path),
  );
  const pricingFile = join(options.dataDir, PRICING_FILE_NAME);
  /** Scans: parse many files, keep nothing. */
  const pool = new ReadPool(undefined, { pricingFile });
  /** Opened sessions: one worker that keeps the last few parsed, for the first screen and every later page. */
  const sessionPool = new ReadPool(1, { pricingFile });
  const emitter = new EventEmitter();
  let problems: string[] = [];
  let autoKeepTimer: NodeJS.Timeout | null = null;

  /** A start in progress (roots, vault, the catalogue restored from the index): every method but the list waits for it. */
  let starting: Promise<void> | null = null;
  /** The whole of start(), scans begun. */
  let started: Promise<void> | null = null;
  /** What the list needs to be read from the index alone while the catalogue is restored; null before a start. */
  let earlyListing: Promise<EarlyListingContext | null> = Promise.resolve(null);

  const emit = (event: AppEvent) => emitter.emit('event', event);
  const openedBundles = new OpenedBundles(() => emit({ name: 'bundleOpened', payload: {} }));
  // Indexing progress: every scan (roots, vault) counts into one run that ends idle when the last scan does.
  const progress = new IndexProgressTracker((payload) => emit({ name: 'indexProgress', payload }));

  // Scans and watch batches touch many files at once: coalesce their keys into one event per tick.
  const pendingChanged = new Set<string>();
  const pendingRemoved = new Set<string>();
  let flushTimer: NodeJS.Timeout | null = null;
  const noteChange = (changed: string[], removed: string[]) => {
    for (const k of changed) pendingChanged.add(k);
    for (const k of removed) pendingRemoved.add(k);
    flushTimer ??= setTimeout(() => {
      flushTimer = null;
      const event: AppEvent = {
        name: 'sessionsChanged',
        payload: { changed: [...pendingChanged], removed: [...pendingRemoved] },
      };
      pendingChanged.clear();
      pendingRemoved.clear();
      emit(event);
    }, 50);
  };

  const describeRoot = (r: RootRecord): Root => {
    let sessionCount = 0;
    let unreadableCount = 0;
    for (const e of catalogue.entries()) {
      if (!isWithin(r.path, e.path)) continue;
      if (e.unreadable) unreadableCount++;
      else sessionCount++;
    }
    const error = sync.rootErrors.get(r.id) ?? null;
    return { ...r, exists: error === null, sessionCount, unreadableCount, error };
  };
  const listRoots = (): Root[] => roots.list().map(describeRoot);
  const emitRoots = () => emit({ name: 'rootsChanged', payload: { roots: listRoots() } });

  const sync: LibrarySync = new LibrarySync({
    catalogue,
    index,
    roots: () => roots.list(),
    vaultRoots: () => vault.roots(),
    livePool: pool,
    sessionPool,
    pricingFile,
    progress,
    watch: options.watch !== false,
    onChange: noteChange,
    onRootsChanged: () => emitRoots(),
    onProblem: (message) => problems.push(message),
  });
  const rescanVault = async () => {
    await sync.scanVault();
    emitRoots();
  };

  // The one roots check every file operation on a session passes: the folders added, and the vault's own.
  const sessionFiles = new SessionFileCheck(() => [...roots.list().map((r) => r.path), ...vault.roots()]);

  const vault: Vault = new Vault({
    dataDir: options.dataDir,
    catalogue,
    files: sessionFiles,
    readFull: async (key) => {
      const entry = entryFor(key);
      const result = await sessionPool.read(entry.path, 'interactive');
      if (!result.ok) throw new AppError('UNREADABLE', `${entry.path} cannot be read: ${result.unreadable.message}`);
      return { ...result.session, key };
    },
    rescanVault,
    host: options.host,
  });

  const entryFor = (key: string) => {
    const entry = catalogue.byKey(key);
    if (!entry) throw new AppError('NOT_FOUND', `No session with key "${key}" is known. It may have been deleted.`, 'key');
    return entry;
  };

  /**
   * Opens a window of a session's messages. The session worker keeps recently opened sessions parsed,
   * so the first screen and every later page cost one parse in all, and only a window crosses threads.
   */
  const openWindow = async (key: string, offset: number, limit: number): Promise<{ session: Session; messagesTotal: number }> => {
    const entry = entryFor(key);
    if (entry.summary.unreadable) {
      throw new AppError('UNREADABLE', `${entry.path} cannot be read: ${entry.summary.unreadable.message}`);
    }
    const result = await sessionPool.window(entry.path, offset, limit);
    if (!result.ok) throw new AppError('UNREADABLE', `${entry.path} cannot be read: ${result.unreadable.message}`);
    const session: Session = {
      ...result.session,
      key,
      // The catalogue knows children the parent's own file never mentioned (e.g. a sub-agent folder).
      childKeys: [...new Set([...result.session.childKeys, ...catalogue.childrenOf(key)])],
    };
    return { session, messagesTotal: result.messagesTotal };
  };

  const assertInsideRoots = (path: string) => sessionFiles.assertInside(path, 'read');

  /** The file behind a session's source-file index; paths never come from the UI. */
  const sourcePath = async (key: string, fileIndex: number): Promise<string> => {
    const entry = entryFor(key);
    if (fileIndex === 0) return entry.path;
    const file = (await openWindow(key, 0, 0)).session.sourceFiles[fileIndex];
    if (!file) throw new AppError('NOT_FOUND', `Session has no source file number ${fileIndex}.`, 'fileIndex');
    return file.path;
  };

  // Sharing: export/import bundles. Bundles parse, serialize and scan each session in a worker of their own
  // (ended with the export), so this thread never holds a parsed session; Markdown/HTML go through `load`.
  const bundles = new BundleService({
    dataDir: options.dataDir,
    env,
    locate: (key) => {
      const entry = entryFor(key);
      return { path: entry.path, size: entry.size, childKeys: catalogue.childrenOf(key) };
    },
    pricingFile,
    load: async (key) => {
      const entry = entryFor(key);
      const result = await pool.read(entry.path, 'background');
      if (!result.ok) throw new AppError('UNREADABLE', `${entry.path} cannot be read: ${result.unreadable.message}`);
      return { ...result.session, key, childKeys: [...new Set([...result.session.childKeys, ...catalogue.childrenOf(key)])] };
    },
    known: (key) => catalogue.byKey(key) !== undefined,
    files: sessionFiles,
    rescanVault,
    emit,
  });

  const methods: ServiceMethods = {
    ...vault.methods(),
    ...bundles.methods(),
    takeOpenedBundles: async () => openedBundles.take(),
    readOpenedBundle: async ({ openId, offset, length }) => openedBundles.read(openId, offset, length),
    getAppInfo: async () => ({
      version: appVersion,
      dataDir: options.dataDir,
      shell: options.shell,
      demoRootPath: roots.list().find((r) => r.kind === 'demo')?.path ?? null,
    }),
    listSessions: async (input) => {
      // While a start restores the catalogue, the list's plain pages come from the index file alone.
      const early = await earlyListing;
      if (early && !catalogue.restored && listableEarly(input)) return listEarly(index, input, early);
      if (starting) await starting;
      return listWithIndex(catalogue, input, vault.decorate, vault.annotated);
    },
    searchSessions: async (input) => searchSessions(catalogue, input, vault.decorate, vault.annotated),
    getSession: async ({ key, messageLimit }) => {
      const { session, messagesTotal } = await openWindow(key, 0, messageLimit);
      return { ...session, messagesTotal };
    },
    getMessages: async ({ key, offset, limit }) => {
      const { session, messagesTotal } = await openWindow(key, offset, limit);
      return { offset, messages: session.messages, total: messagesTotal };
    },
    getRawSource: async ({ key, fileIndex, offset, length }) => {
      const path = await sourcePath(key, fileIndex);
      return readRawWindow(await assertInsideRoots(path), path, offset, length);
    },
    getRawRecord: async ({ key, fileIndex, line, pointer }) => {
      const path = await sourcePath(key, fileIndex);
      return readRawRecord(await assertInsideRoots(path), path, { line, pointer });
    },
    getIndexProgress: async () => progress.current(),
    listRoots: async () => listRoots(),
    addRoot: async ({ path }) => {
      // roots.add validates first (exists, a folder, readable, not / or /proc or as broad as home) and saves only then.
      const known = new Set(roots.list().map((r) => r.path));
      const record = await roots.add(path);
      try {
        emitRoots();
        await sync.rewatch();
        await sync.scanAll([record]);
        const error = sync.rootErrors.get(record.id);
        if (error) throw new AppError('UNREADABLE', `${error.replace(/\.?$/, '.')} The folder was not added.`, 'path');
      } catch (err) {
        // Only what works is kept: a new folder that cannot be watched or scanned leaves the saved list again.
        if (!known.has(record.path)) await methods.removeRoot({ id: record.id }).catch(() => undefined);
        if (err instanceof AppError) throw err;
        throw new AppError('IO_ERROR', `Could not read ${record.path}: ${fsErrorSentence(err) ?? 'the folder could not be scanned'}. The folder was not added.`, 'path');
      }
      return describeRoot(record);
    },
    removeRoot: async ({ id }) => {
      const record = roots.get(id);
      if (!record) throw new AppError('NOT_FOUND', `No folder with id "${id}" is in the list.`, 'id');
      await roots.remove(id);
      sync.rootErrors.delete(id);
      // Sessions stay listed while another remaining root still covers them.
      const remaining = roots.list();
      const removed: string[] = [];
      for (const e of [...catalogue.entries()]) {
        if (isWithin(record.path, e.path) && !remaining.some((r) => isWithin(r.path, e.path))) {
          const key = catalogue.remove(e.path);
          if (key) removed.push(key);
        }
      }
      noteChange([], removed);
      emitRoots();
      await sync.rewatch();
      return { removed: true };
    },
    openDemo: async () => {
      const dir = join(options.dataDir, 'demo');
      await writeDemoSessions(dir);
      const record = await roots.add(dir, 'demo');
      emitRoots();
      await sync.rewatch();
      await sync.scanAll([record]);
      return describeRoot(record);
    },
    // Compared in the session worker, which keeps both parsed for opening them afterwards.
    compareSessions: async ({ a, b }) => compareKeys(a, b, (key) => catalogue.byKey(key), sessionPool),
  };

  async function startServices(): Promise<void> {
    // One run of progress from here to the end of the first scan: the status line never says idle in between.
    progress.begin();
    try {
      await startAndScan();
    } finally {
      progress.end();
    }
  }

  /** Roots, prices and the vault loaded: enough to read the list from the index alone (early-listing.ts). */
  async function loadLibrary(): Promise<EarlyListingContext> {
    const candidates = options.discoverDefaults === false ? [] : defaultRootCandidates(env);
    problems = await roots.load(candidates, options.extraRoots ?? []);
    const pricingProblem = applyUserPricing(pricingFile);
    if (pricingProblem) problems.push(pricingProblem);
    problems.push(...(await vault.load()));
    if (index.note) problems.push(index.note);
    const known = [...roots.list().map((r) => r.path), ...vault.roots()];
    return { roots: known, copiesDir: vault.copiesDir, kindOf: vault.kindOf, decorate: vault.decorate };
  }

  async function startAndScan(): Promise<void> {
    const loading = loadLibrary();
    earlyListing = loading.catch(() => null);
    // Search index: list what was indexed before at once; the scans below re-read only changed files.
    starting = loading.then(async ({ roots: known }) => {
      await catalogue.restore((path) => known.some((root) => isWithin(root, path)));
    });
    await starting;
    for (const dir of vault.roots()) await mkdir(dir, { recursive: true });
    await sync.watchVault();
    void sync.firstScan().then(() => vault.autoKeepSweep());
    if (options.watch !== false) {
      // Sessions close or go idle without a file event: look again every minute.
      autoKeepTimer = setInterval(() => void vault.autoKeepSweep().catch(() => undefined), 60_000);
      autoKeepTimer.unref();
    }
  }

  // A request that comes while a start restores the catalogue (the server listens meanwhile) waits for it.
  for (const name of Object.keys(methods) as Array<keyof ServiceMethods>) {
    if (name === 'listSessions') continue;
    const call = methods[name] as (input: unknown) => Promise<unknown>;
    (methods as unknown as Record<string, (input: unknown) => Promise<unknown>>)[name] = async (input) => {
      if (starting) await starting;
      return call(input);
    };
  }

  return {
    methods,
    bundles,
    openBundleFile: (path) => openedBundles.add(path),
    dispatch: createDispatch(methods),
    subscribe(handler) {
      emitter.on('event', handler);
      return () => emitter.off('event', handler);
    },
    start() {
      started = startServices();
      return started;
    },
    whenScanned: async () => {
      // A scan is started by start(): one not over yet has none to wait for yet.
      await started?.catch(() => undefined);
      return sync.whenScanned();
    },
    whenIndexTidied: async () => {
      await started?.catch(() => undefined);
      await sync.whenScanned();
      return index.whenTidied();
    },
    async close() {
      if (flushTimer) clearTimeout(flushTimer);
      if (autoKeepTimer) clearInterval(autoKeepTimer);
      progress.close();
      await sync.stop();
      await pool.close();
      await sessionPool.close();
      index.close();
      // A scan still running stops at its next file (its pools and index are closed now).
      await sync.whenScanned().catch(() => undefined);
    },
    startupProblems: () => [...problems],
  };
}
