// The library's contract methods: the list and search, opening sessions and their raw sources, the folders, progress, compare, app info, the window's preferences.
import { join } from 'node:path';
import type { ServiceMethods } from '../../shared/api.ts';
import type { Decorate } from '../catalogue/catalogue.ts';
import { compareKeys } from '../compare/compare-keys.ts';
import { appVersion } from '../env/app-version.ts';
import { pricingFileInfo } from '../pricing/pricing-file-info.ts';
import { readUiPreferences, writeUiPreferences } from '../preferences/ui-preferences.ts';
import { PRICING_FILE_NAME } from '../pricing/user-pricing.ts';
import { readRawRecord } from '../raw/raw-record.ts';
import { readRawWindow } from '../raw/raw-source.ts';
import { rowsRecord, rowsWindow } from '../raw/contained-raw.ts';
import type { SessionFileCheck } from '../roots/session-files.ts';
import { listEarly, listableEarly, type EarlyListingContext } from '../search-index/early-listing.ts';
import type { IndexProgressTracker } from '../search-index/index-progress.ts';
import type { SessionIndex } from '../search-index/index-store.ts';
import type { IndexedCatalogue } from '../search-index/indexed-catalogue.ts';
import { listWithIndex, searchSessions, type Annotated } from '../search-index/search-service.ts';
import { usageReport } from '../search-index/usage-report.ts';
import { usageBlocks } from '../search-index/usage-block-report.ts';
import { usageDashboard } from '../search-index/usage-dashboard.ts';
import type { ReadPool } from '../workers/read-pool.ts';
import type { LibraryRoots } from './library-roots.ts';
import type { SessionReader } from './session-reader.ts';

export type LibraryMethodNames =
  | 'getAppInfo'
  | 'listSessions'
  | 'searchSessions'
  | 'usageReport'
  | 'usageBlocks'
  | 'usageDashboard'
  | 'getSession'
  | 'getMessages'
  | 'getRawSource'
  | 'getRawRecord'
  | 'getIndexProgress'
  | 'listRoots'
  | 'addRoot'
  | 'removeRoot'
  | 'openDemo'
  | 'rescanRoots'
  | 'getPricingFile'
  | 'getUiPreferences'
  | 'setUiPreferences'
  | 'compareSessions';

/** A start of the services as the list sees it (the composition's start-up). */
export interface ListingStart {
  /** What the list needs to be read from the index alone while a start restores the catalogue; null before a start. */
  earlyListing(): Promise<EarlyListingContext | null>;
  /** The start's restore of the catalogue (resolved once done); null before a start. */
  restoring(): Promise<void> | null;
}

export interface LibraryDeps {
  dataDir: string;
  shell: 'electron' | 'web' | 'cli';
  catalogue: IndexedCatalogue;
  index: SessionIndex;
  roots: LibraryRoots;
  sessions: SessionReader;
  /** The worker that keeps opened sessions parsed: comparisons run there. */
  sessionPool: ReadPool;
  /** The one roots check every file operation on a session passes. */
  files: SessionFileCheck;
  progress: IndexProgressTracker;
  /** The vault's star, tags and note on list rows, and what its filters allow. */
  decorate: Decorate;
  annotated: Annotated;
  start: ListingStart;
}

export class Library {
  private readonly deps: LibraryDeps;

  constructor(deps: LibraryDeps) {
    this.deps = deps;
  }

  methods(): Pick<ServiceMethods, LibraryMethodNames> {
    const { catalogue, index, roots, sessions, sessionPool, files, progress, decorate, annotated, start } = this.deps;
    return {
      getAppInfo: async () => ({
        version: appVersion,
        dataDir: this.deps.dataDir,
        shell: this.deps.shell,
        demoRootPath: roots.demoPath(),
      }),
      listSessions: async (input) => {
        // While a start restores the catalogue, the list's plain pages come from the index file alone.
        const early = await start.earlyListing();
        if (early && !catalogue.restored && listableEarly(input)) return listEarly(index, input, early);
        const restoring = start.restoring();
        if (restoring) await restoring;
        return listWithIndex(catalogue, input, decorate, annotated);
      },
      searchSessions: async (input) => searchSessions(catalogue, input, decorate, annotated),
      usageReport: async (input) => usageReport(catalogue, input, annotated),
      usageBlocks: async (input) => usageBlocks(catalogue, input, annotated),
      usageDashboard: async (input) => usageDashboard(catalogue, input, annotated),
      getSession: async ({ key, messageLimit }) => {
        const { session, messagesTotal } = await sessions.openWindow(key, 0, messageLimit);
        return { ...session, messagesTotal };
      },
      getMessages: async ({ key, offset, limit }) => {
        const { session, messagesTotal } = await sessions.openWindow(key, offset, limit);
        return { offset, messages: session.messages, total: messagesTotal };
      },
      getRawSource: async ({ key, fileIndex, offset, length }) => {
        // A session inside a store shows its own rows as JSON, never the store's bytes; the store passes the roots check.
        const store = sessions.entryFor(key).store;
        if (store)
          return files
            .assertInside(store, 'read')
            .then(() => sessions.rowsDocument(key))
            .then((doc) => rowsWindow(doc, fileIndex, offset, length));
        const path = await sessions.sourcePath(key, fileIndex);
        return readRawWindow(await files.assertInside(path, 'read'), path, offset, length);
      },
      getRawRecord: async ({ key, fileIndex, line, pointer }) => {
        const store = sessions.entryFor(key).store;
        if (store)
          return files
            .assertInside(store, 'read')
            .then(() => sessions.rowsDocument(key))
            .then((doc) => rowsRecord(doc, fileIndex, pointer));
        const path = await sessions.sourcePath(key, fileIndex);
        return readRawRecord(await files.assertInside(path, 'read'), path, { line, pointer });
      },
      getIndexProgress: async () => progress.current(),
      listRoots: async () => roots.list(),
      addRoot: async ({ path }) => roots.add(path),
      removeRoot: async ({ id }) => roots.remove(id),
      openDemo: async () => roots.openDemo(),
      rescanRoots: async ({ id }) => roots.rescan(id),
      getPricingFile: async () => pricingFileInfo(join(this.deps.dataDir, PRICING_FILE_NAME)),
      getUiPreferences: async () => readUiPreferences(this.deps.dataDir),
      setUiPreferences: async (preferences) => writeUiPreferences(this.deps.dataDir, preferences),
      // Compared in the session worker, which keeps both parsed for opening them afterwards.
      compareSessions: async ({ a, b }) => compareKeys(a, b, (key) => catalogue.byKey(key), sessionPool),
    };
  }
}
