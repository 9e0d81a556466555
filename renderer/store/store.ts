// The app's one zustand store, built per client by a factory so every test gets a fresh one.
import { createStore, type StoreApi } from 'zustand/vanilla';
import { createOpenFileSlice, type OpenFileSlice } from './store-open.ts';
import { shareListKeys } from '../components/bundle/share-list-keys.ts';
import type { AppInfo } from '../../shared/api.ts';
import type { SessionSummary } from '../../shared/session.ts';
import { LIST_FIRST_PAGE, LIST_PAGE } from '../../shared/list-pages.ts';
import { describeError, type AppClient, type ConnectionStatus } from '../transport/client.ts';
import { shownSessions } from '../shown-sessions.ts';
import { createRawSlice, type RawSlice } from './store-raw.ts';
import { createRelatedSlice, type RelatedSlice } from './store-related.ts';
import { createVaultSlice, listQuery, type VaultSlice } from './store-vault.ts';
import { createCompareSlice, type CompareSlice } from './store-compare.ts';
import { createBundleSlice, type BundleSlice } from './store-bundle.ts';
import { createSearchSlice, type SearchSlice } from './store-search.ts';
import { createUsageSlice, type UsageSlice } from './store-usage.ts';
import { createSummarySlice, type SummarySlice } from './store-summary.ts';
import { createSettingsSlice, type SettingsSlice } from './store-settings.ts';
import { createTeamSlice, type TeamSlice } from './store-team.ts';
import { createRootsSlice, type RootsSlice } from './store-roots.ts';
import { createSessionSlice, type SessionSlice } from './store-session.ts';

export type { RawView } from './store-raw.ts';
export type { RawRecordView } from './store-related.ts';
export type { OpenSession } from './store-session.ts';

export interface AppState
  extends
    RawSlice,
    RelatedSlice,
    VaultSlice,
    CompareSlice,
    BundleSlice,
    OpenFileSlice,
    SearchSlice,
    UsageSlice,
    SummarySlice,
    SettingsSlice,
    TeamSlice,
    RootsSlice,
    SessionSlice {
  sessions: SessionSummary[];
  total: number;
  /** False until the first list arrives, so the empty state is not flashed while loading. */
  loaded: boolean;
  /** Until the list's first page arrives. */
  listLoading: boolean;
  /** A long list arrives page by page after its first: how far it has come (null when it is all here). */
  listPaging: { loaded: number; total: number } | null;
  listError: string | null;
  selectedKey: string | null;
  filter: string;
  appInfo: AppInfo | null;
  connection: ConnectionStatus;

  /** Where a row dragged out of the window downloads its session from (a redacted bundle); null when rows cannot be dragged out. */
  dragOutUrl(key: string): string | null;
  load(): Promise<void>;
  refresh(): Promise<void>;
  /** Fetches only the rows a change touched (and the parents they are listed under) and merges them into the list. */
  refreshRows(keys: string[]): Promise<void>;
  /** Opens the share dialog for every session the list shows (all search results, not only the loaded pages). */
  openShareList(): Promise<void>;
  setFilter(text: string): void;
  select(key: string | null): void;
  moveSelection(delta: number): void;
  openSelected(): Promise<void>;
  /** Stops listening to events and pending timers. */
  dispose(): void;
}

export type AppStore = StoreApi<AppState>;

/** Changed sessions updated row by row; more than this at once and the whole list is fetched again. */
const ROWS_AT_ONCE = 500;

export interface AppStoreOptions {
  /** How long event bursts are gathered before the list is refetched. */
  debounceMs?: number;
  rawChunkBytes?: number;
}

export function createAppStore(client: AppClient, options: AppStoreOptions = {}): AppStore {
  const debounceMs = options.debounceMs ?? 100;
  const rawChunk = options.rawChunkBytes ?? 256 * 1024;
  let listSeq = 0;
  /**
   * List requests run one after another, so answers apply in the order they were asked: an older full list
   * can never land on top of rows merged since, and one burst's rows never cancel another's.
   */
  let listChain: Promise<void> = Promise.resolve();
  const inOrder = (task: () => Promise<void>): Promise<void> => {
    const run = listChain.then(task);
    listChain = run.catch(() => undefined);
    return run;
  };
  let timer: ReturnType<typeof setTimeout> | null = null;
  // Last word per key within one debounce window: a file removed then recreated counts as changed.
  const pending = new Map<string, 'changed' | 'removed'>();
  let resync = false;
  let flush: () => Promise<void> = async () => {};

  const store = createStore<AppState>()((set, get) => {
    flush = async (): Promise<void> => {
      timer = null;
      const changes = new Map(pending);
      const all = resync;
      pending.clear();
      resync = false;
      // A few changed sessions (a live transcript, a scan's batch) update their rows; a resync or a flood refetches all.
      const { loaded, listError, listLoading } = get();
      const rowsOnly = !all && changes.size > 0 && changes.size <= ROWS_AT_ONCE && loaded && !listError && !listLoading;
      // A resync may follow events the stream never carried: the index progress is asked again with the list.
      const progress = all ? get().loadIndexProgress() : undefined;
      await Promise.all([rowsOnly ? get().refreshRows([...changes.keys()]) : get().refresh(), get().refreshRoots(), progress]);
      if (changes.size > 0 || all) get().resetRelated();
      const open = get().open;
      if (!open) return;
      await get().followOpenSession(changes.get(open.key), all);
      // Then its summary: the vault's may have been written by another process (the CLI, the MCP server), and the
      // session's own is read from the file just read again.
      if ((all || changes.get(open.key) === 'changed') && get().open?.key === open.key && get().summaryView?.key === open.key)
        await get().loadSummary(open.key);
    };

    const usage = createUsageSlice(client, set, get);
    return {
      ...createRawSlice(client, set, get, rawChunk),
      ...createRelatedSlice(client, set, get),
      ...createVaultSlice(client, set, get),
      ...createCompareSlice(client, set, get),
      ...createBundleSlice(client, set, get),
      ...createOpenFileSlice(client, set, get),
      ...createSearchSlice(client, set, get),
      ...usage,
      ...createSummarySlice(client, set, get),
      ...createSettingsSlice(client, set, get),
      ...createTeamSlice(client, set, get),
      ...createRootsSlice(client, set, get),
      ...createSessionSlice(client, set, get),
      // The dashboard takes the main area from the Settings page too.
      showUsage() {
        set({ settingsOpen: false });
        usage.showUsage();
      },
      sessions: [],
      total: 0,
      loaded: false,
      listLoading: false,
      listPaging: null,
      listError: null,
      selectedKey: null,
      filter: '',
      appInfo: null,
      connection: 'connecting',

      dragOutUrl: (key) => client.bundleDownloadUrl(key),

      async openShareList() {
        try {
          await get().openShare(await shareListKeys(client, get()));
        } catch (err) {
          set({ listError: describeError(err) });
        }
      },

      async load() {
        const info = client.getAppInfo().then(
          (appInfo) => set({ appInfo }),
          () => {},
        );
        await Promise.all([get().refresh(), get().refreshRoots(), info, get().loadIndexProgress()]);
      },

      refresh() {
        const seq = ++listSeq;
        set({ listLoading: true });
        return inOrder(async () => {
          // A later refresh is queued behind this one and will answer for both.
          if (seq !== listSeq) return;
          try {
            const query = listQuery(get());
            const first = await client.listSessions({ ...query, limit: LIST_FIRST_PAGE });
            let total = first.total;
            const more = first.sessions.length < total;
            set({
              sessions: first.sessions,
              total,
              loaded: true,
              listLoading: false,
              listError: null,
              listPaging: more ? { loaded: first.sessions.length, total } : null,
            });
            if (!more) return;
            // The rest in pages; only the finished list replaces the first page (each replacement re-runs the search
            // and the dashboard). A later refresh (a filter changed) stops this one.
            const rows = [...first.sessions];
            const seen = new Set(rows.map((r) => r.key));
            let offset = rows.length;
            while (offset < total) {
              const page = await client.listSessions({ ...query, limit: LIST_PAGE, offset });
              if (seq !== listSeq) return set({ listPaging: null });
              // A session that moved up between two pages comes twice: it is kept once. One that moved down past
              // the pages asked for was in a sessionsChanged event, whose rows are fetched once this list is done.
              for (const row of page.sessions) {
                if (seen.has(row.key)) continue;
                seen.add(row.key);
                rows.push(row);
              }
              offset += page.sessions.length;
              total = page.total;
              if (page.sessions.length === 0) break;
              set({ listPaging: { loaded: Math.min(rows.length, total), total } });
            }
            set({ sessions: rows, total: rows.length, listPaging: null });
          } catch (err) {
            set({ listLoading: false, listPaging: null, listError: describeError(err) });
          }
        });
      },

      refreshRows(keys) {
        // Never dropped for a newer request: the rows of one burst are not in the next burst's answer.
        return inOrder(async () => {
          try {
            const { sessions: rows } = await client.listSessions({ ...listQuery(get()), keys });
            // A key that comes back absent was removed, or no longer passes the filters.
            const replaced = new Set([...keys, ...rows.map((r) => r.key)]);
            const sessions = [...get().sessions.filter((s) => !replaced.has(s.key)), ...rows];
            set({ sessions, total: sessions.length });
          } catch (err) {
            set({ listError: describeError(err) });
          }
        });
      },

      setFilter: (filter) => set({ filter }),

      select: (selectedKey) => set({ selectedKey }),

      moveSelection(delta) {
        const { selectedKey } = get();
        const list = shownSessions(get());
        if (list.length === 0) return;
        const at = list.findIndex((s) => s.key === selectedKey);
        const next = at < 0 ? (delta > 0 ? 0 : list.length - 1) : Math.min(list.length - 1, Math.max(0, at + delta));
        set({ selectedKey: list[next]?.key ?? null });
      },

      async openSelected() {
        const key = get().selectedKey;
        if (key) await get().openListed(key);
      },

      dispose() {
        get().disposeCompare();
        get().disposeSearch();
        get().disposeUsage();
        unsubscribeSearch();
        unsubscribeEvents();
        unsubscribeConnection();
        if (timer) clearTimeout(timer);
        timer = null;
      },
    };
  });

  const unsubscribeEvents = client.subscribe((event) => {
    if (event.name === 'rootsChanged') {
      store.setState({ roots: event.payload.roots, rootsLoaded: true, rootsError: null });
      return;
    }
    if (event.name === 'indexProgress') {
      store.setState({ indexProgress: event.payload });
      return;
    }
    if (event.name === 'bundleOpened') {
      void store.getState().importOpened();
      return;
    }
    if (event.name === 'sessionFileOpened') {
      void store.getState().takeOpenedSessions();
      return;
    }
    if (event.name !== 'sessionsChanged') return; // e.g. bundleProgress, which its own panel follows
    const { changed, removed } = event.payload;
    if (changed.length === 0 && removed.length === 0) resync = true;
    for (const key of changed) pending.set(key, 'changed');
    for (const key of removed) pending.set(key, 'removed');
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void flush(), debounceMs);
  });
  const unsubscribeConnection = client.onConnectionChange((connection) => store.setState({ connection }));
  // The box, the vault chips and the sessions themselves all change what search (or the facets) answer.
  const unsubscribeSearch = store.subscribe((now, before) => {
    if (now.filter !== before.filter || now.listFilters !== before.listFilters || now.sessions !== before.sessions) {
      now.scheduleSearch();
      now.scheduleUsage();
    }
  });

  return store;
}
