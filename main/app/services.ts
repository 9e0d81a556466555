// The composition root: constructs the rooms (roots, catalogue, index, read pools, vault, bundles, library) and wires them into the contract's methods.
import { EventEmitter } from 'node:events';
import { AppError } from '../../shared/result.ts';
import { OpenedFiles } from '../open/opened-files.ts';
import { basename, join } from 'node:path';
import type { AppEvent, ServiceMethods } from '../../shared/api.ts';
import { createApiClient, type ApiClient } from '../../shared/api-client.ts';
import { IndexedCatalogue } from '../search-index/indexed-catalogue.ts';
import { SessionIndex } from '../search-index/index-store.ts';
import { IndexProgressTracker } from '../search-index/index-progress.ts';
import { ownSummaryKeys } from '../search-index/summary-flags.ts';
import { createDispatch, type Dispatch } from '../transport/dispatch.ts';
import { defaultRootCandidates } from '../roots/default-roots.ts';
import { SessionFileCheck } from '../roots/session-files.ts';
import { RootStore } from '../roots/root-store.ts';
import { OpenedBundles } from '../open/opened-bundles.ts';
import { ReadPool } from '../workers/read-pool.ts';
import { Vault, type VaultHost } from '../vault/vault-service.ts';
import { VaultMarksWatcher } from '../vault/marks-watcher.ts';
import { BundleService } from '../bundle/bundle-service.ts';
import { PRICING_FILE_NAME } from '../pricing/user-pricing.ts';
import { pricingMethods } from '../pricing/pricing-methods.ts';
import { Library } from '../library/library-service.ts';
import { LibraryRoots } from '../library/library-roots.ts';
import { SessionChanges } from '../library/session-changes.ts';
import { SessionReader } from '../library/session-reader.ts';
import { pagingIn } from '../library/paged-sessions.ts';
import { LibrarySync } from '../library/library-sync.ts';
import type { InlineReads } from '../library/library-sync-options.ts';
import type { KnownFiles } from '../catalogue/known-files.ts';
import { Startup } from './startup.ts';
import { outsideLayout } from '../library/outside-layout.ts';
import { listingsOf, TeamSource } from '../team/team-source.ts';
import { withTeamSessions } from '../team/team-routes.ts';

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
  /** Scans read no index text (a one-shot command that only lists; library-sync.ts); the next that searches reads it. */
  textLater?: boolean;
  /** The files below the roots as a one-shot command found them a moment ago: the first scan reads them instead of walking. */
  knownFiles?: KnownFiles | undefined;
  /** How many files, and bytes, the first scan may parse on the main thread (library-sync.ts): a one-shot command's. */
  inlineReads?: InlineReads | undefined;
  /** Desktop abilities (the OS trash) the vault uses when running in Electron. */
  host?: VaultHost;
}

export interface Services {
  /** Every call from outside: input checked against the contract, held while a start restores the catalogue (all but the list), a Result. */
  dispatch: Dispatch;
  /** The typed in-process client over `dispatch` (the CLI's, the bench's and the tests'): values, or ClientErrors with the contract's codes. */
  client: ApiClient;
  /** The contract's implementations that `dispatch` calls: no input check, no wait for a start. Call through `client`. */
  methods: ServiceMethods;
  subscribe(handler: (event: AppEvent) => void): () => void;
  start(): Promise<void>;
  /** Resolves when every root has been scanned once and every session's text is searchable (start() does not wait for it). */
  whenScanned(): Promise<void>;
  /** Resolves when every root has been scanned once and every session is listed, before search has caught up with them. */
  whenListed(): Promise<void>;
  /** Resolves when every session is searchable by its words (substrings of identifiers may still be catching up). */
  whenSearchable(): Promise<void>;
  /** Resolves once scanned and no merge of the index's full-text tables runs (what a scan may start; the bench waits for it). */
  whenIndexTidied(): Promise<void>;
  close(): Promise<void>;
  /** Problems met while loading (unreadable roots file, a --root that does not exist). */
  startupProblems(): string[];
  /** Sharing: the CLI loads whole sessions through it, the HTTP transport its uploads and downloads. */
  bundles: BundleService;
  /** A bundle the OS asked the app to open: a window takes it and imports it; a sentence when the file cannot be. */
  openBundleFile(path: string): Promise<string | null>;
  /** A session file the OS or the File menu opened: shown in the window without adding its folder; a sentence when it cannot be. */
  openSessionFile(path: string): Promise<string | null>;
}

export function createServices(options: ServicesOptions): Services {
  const env = options.env ?? process.env;
  const watch = options.watch !== false;
  const emitter = new EventEmitter();
  const emit = (event: AppEvent) => emitter.emit('event', event);

  const roots = new RootStore(options.dataDir);
  // The vault needs the catalogue and the catalogue asks the vault which paths are its own.
  // Search index: the catalogue mirrors every read into <data dir>/index.sqlite and restores it at start.
  const index = SessionIndex.inDataDir(options.dataDir);
  const catalogue = new IndexedCatalogue(
    index,
    (path) => vault.kindOf(path),
    (key) => vault.annotations.get(key).note,
    (path) => vault.copyKeyOf(path),
    outsideLayout,
  );
  const pricingFile = join(options.dataDir, PRICING_FILE_NAME);
  /** Scans: parse many files, keep nothing. */
  const pool = new ReadPool(undefined, { pricingFile });
  /** Opened sessions: one worker that keeps the last few parsed, for the first screen and every later page. */
  const sessionPool = new ReadPool(1, { pricingFile });
  const sessions = new SessionReader({ catalogue, pool, sessionPool, paging: pagingIn(options.dataDir) });
  // The one roots check every file operation on a session passes: the folders added, and the vault's own.
  // Files opened on their own (OpenedFiles, below) count as sources of one file each.
  const files = new SessionFileCheck(() => [...roots.list().map((r) => r.path), ...vault.roots(), ...opened.paths()]);
  // Indexing progress: every scan (roots, vault) counts into one run that ends idle when the last scan does.
  const changes = new SessionChanges(emit);
  const progress = new IndexProgressTracker((payload) => {
    // The changes a scan noted go out before the index says it is idle (session-changes.ts: flush).
    if (payload.phase === 'idle') changes.flush();
    emit({ name: 'indexProgress', payload });
  });
  const openedBundles = new OpenedBundles(() => emit({ name: 'bundleOpened', payload: {} }));

  const sync: LibrarySync = new LibrarySync({
    catalogue,
    index,
    roots: () => roots.list(),
    vaultRoots: () => vault.roots(),
    livePool: pool,
    sessionPool,
    pricingFile,
    progress,
    watch,
    textLater: options.textLater === true,
    knownFiles: options.knownFiles,
    inlineReads: options.inlineReads,
    onChange: changes.note,
    onRootsChanged: () => libraryRoots.emitChanged(),
    onProblem: (message) => startup.noteProblem(message),
  });
  const libraryRoots = new LibraryRoots({ dataDir: options.dataDir, roots, catalogue, scans: sync, onRemoved: (keys) => changes.note([], keys), emit });
  const rescanVault = async () => {
    await sync.scanVault();
    libraryRoots.emitChanged();
  };

  const vault: Vault = new Vault({
    dataDir: options.dataDir,
    catalogue,
    files,
    readFull: (key) => sessions.readFull(key),
    rowsDocument: (key) => sessions.rowsDocument(key),
    rescanVault,
    host: options.host,
    ownSummaries: (keys) => ownSummaryKeys(index, keys),
    sessionHead: async (key) => (await sessions.openWindow(key, 0, 0)).session,
  });

  // Sharing: export/import bundles. Bundles parse, serialize and scan each session in a worker of their own
  // (ended with the export), so this thread never holds a parsed session; Markdown/HTML go through `load`.
  const bundles = new BundleService({
    dataDir: options.dataDir,
    env,
    // A bundle's session.json carries the vault's summary of a session in place of its own.
    locate: (key) => ({ ...sessions.locate(key), summary: vault.summaries.vaultSummaryOf(key) }),
    pricingFile,
    // Markdown and HTML exports show the vault's summary in place of the session's own.
    load: async (key) => vault.summaries.withVaultSummary(await sessions.load(key)),
    known: (key) => catalogue.byKey(key) !== undefined,
    files,
    rescanVault,
    adoptSummary: async (key, summary) => void (await vault.summaries.set(key, summary, 'imported with a bundle')),
    emit,
  });

  // Stars, tags, notes and summaries another process writes (the CLI, the MCP server, `serve` on this data folder)
  // reach the list and an open session as a change of those sessions.
  const marks = watch
    ? new VaultMarksWatcher({
        annotations: vault.annotations,
        summaries: vault.summaries.store,
        onChanged: (keys) => changes.note(keys, []),
        onProblem: (message) => startup.noteProblem(message),
      })
    : null;
  const startup: Startup = new Startup({
    marks,
    roots,
    defaultRoots: () => (options.discoverDefaults === false ? [] : defaultRootCandidates(env)),
    extraRoots: options.extraRoots ?? [],
    pricingFile,
    vault,
    index,
    catalogue,
    sync,
    progress,
    watch,
  });

  const library = new Library({
    dataDir: options.dataDir,
    shell: options.shell,
    catalogue,
    index,
    roots: libraryRoots,
    sessions,
    sessionPool,
    files,
    progress,
    decorate: vault.decorate,
    annotated: vault.annotated,
    start: startup,
  });

  const opened: OpenedFiles = new OpenedFiles({
    dataDir: options.dataDir,
    readFile: async (path) => {
      const key = await sync.readOpenedFile(path);
      const entry = key ? catalogue.byKey(key) : undefined;
      if (!key || !entry) {
        throw new AppError('INVALID_INPUT', `${basename(path)} is not a session file any reader recognises (by its place or its first records).`);
      }
      return { key, title: entry.summary.title };
    },
    takeUpload: (uploadId) => bundles.takeUpload(uploadId),
    notify: () => emit({ name: 'sessionFileOpened', payload: {} }),
  });

  // The Team source: a team store set in the app. Calls about its sessions (`<machine>/<key>`) go to it; sessions that
  // change are pushed by auto-push when it is on.
  const team = new TeamSource({
    dataDir: options.dataDir,
    env,
    emit,
    openLoader: () => bundles.openLoader(),
    listings: (keys) => listingsOf(keys, library.methods().listSessions),
  });
  emitter.on('event', (event: AppEvent) => {
    if (event.name === 'sessionsChanged') team.noteChanged(event.payload.changed);
  });
  // Prices edited in Settings: every file is read again (idle workers end, so the next ones and the session worker's
  // cache start from the new pricing.json), and the list, the dashboard and an open session show the new costs.
  const pricing = pricingMethods({
    pricingFile,
    reprice: async () => {
      for (const entry of catalogue.entries()) catalogue.markStale(entry.path);
      await Promise.all([pool.release(), sessionPool.release()]);
      await libraryRoots.rescan();
      await rescanVault();
    },
    onProblem: (message) => startup.noteProblem(message),
  });
  const methods: ServiceMethods = withTeamSessions(
    { ...vault.methods(), ...bundles.methods(), ...openedBundles.methods(), ...opened.methods(), ...library.methods(), ...team.methods(), ...pricing },
    () => team.readMethods(),
    (key) => sessions.load(key),
  );
  // A call that comes while a start restores the catalogue (the server listens meanwhile) waits for it; the list
  // reads its first pages from the index alone.
  const dispatch = createDispatch(methods, { ready: startup.restoring, exempt: ['listSessions'] });

  return {
    dispatch,
    client: createApiClient({ invoke: dispatch }),
    methods,
    bundles,
    openBundleFile: (path) => openedBundles.add(path),
    openSessionFile: (path) => opened.openForWindow(path),
    subscribe(handler) {
      emitter.on('event', handler);
      return () => emitter.off('event', handler);
    },
    start: () => startup.start(),
    whenScanned: () => startup.whenScanned(),
    whenListed: () => startup.whenListed(),
    whenSearchable: () => startup.whenSearchable(),
    whenIndexTidied: () => startup.whenIndexTidied(),
    async close() {
      await marks?.close();
      await team.close();
      changes.close();
      startup.close();
      await vault.close();
      progress.close();
      await sync.stop();
      await pool.close();
      await sessionPool.close();
      index.close();
      // A scan still running stops at its next file (its pools and index are closed now).
      await sync.whenScanned().catch(() => undefined);
    },
    startupProblems: () => startup.problems(),
  };
}
