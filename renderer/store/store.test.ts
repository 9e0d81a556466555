// The store's behaviour against a fake client: loading, selection, opening, events, errors.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Root } from '../../shared/api.ts';
import type { IndexProgress } from '../../shared/search-api.ts';
import { ClientError } from '../transport/client.ts';
import { visibleSessions } from '../components/search/session-filter.ts';
import { createAppStore } from './store.ts';
import { LIST_FIRST_PAGE, LIST_PAGE } from '../../shared/list-pages.ts';
import { fakeClient, session, summary } from '../test-fixtures.ts';

const older = summary({ key: 'vizier:a', title: 'Older', updatedAt: '2025-01-01T00:00:00Z' });
const newer = summary({ key: 'jido-code:b', format: 'jido-code', title: 'Newer', updatedAt: '2025-02-01T00:00:00Z' });
const broken = summary({
  key: 'vizier:c',
  title: 'broken.json',
  updatedAt: null,
  mtimeMs: Date.parse('2025-03-01T00:00:00Z'),
  unreadable: { code: 'invalid_json', message: 'Unexpected end of JSON at line 3' },
});
const root: Root = {
  id: 'r1',
  path: '/data',
  kind: 'user',
  format: null,
  exists: true,
  sessionCount: 3,
  unreadableCount: 1,
  unreadableReasons: [{ code: 'invalid_json', count: 1, example: 'Line 1 is not JSON.', file: 'bad.jsonl', key: 'claude-code:bad' }],
  error: null,
};

function setup(sessions = [older, newer, broken]) {
  let list = sessions;
  let listFailure: Error | null = null;
  const sessionsByKey = new Map([[older.key, session({ key: older.key, title: 'Older' })]]);
  const fake = fakeClient({
    listSessions: async ({ keys }: { keys?: string[] }) => {
      if (listFailure) throw listFailure;
      // Like the service: with keys, only those rows.
      const rows = keys ? list.filter((s) => keys.includes(s.key)) : list;
      return { sessions: rows, total: rows.length };
    },
    listRoots: async () => [root],
    getAppInfo: async () => ({ version: '0.1.0', dataDir: '/d', shell: 'web', demoRootPath: null }),
    getSession: async ({ key }: { key: string }) => {
      const s = sessionsByKey.get(key);
      if (!s) throw new ClientError('NOT_FOUND', `No session ${key}`);
      return s;
    },
  });
  const store = createAppStore(fake.client, { debounceMs: 100 });
  return {
    store,
    fake,
    sessionsByKey,
    setList: (next: typeof sessions) => (list = next),
    failList: (err: Error | null) => (listFailure = err),
  };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('createAppStore', () => {
  it('loads sessions, roots and app info, newest first with unreadable entries kept', async () => {
    const { store } = setup();
    expect(store.getState().loaded).toBe(false);
    await store.getState().load();
    const s = store.getState();
    expect(s.loaded).toBe(true);
    expect(s.roots).toEqual([root]);
    expect(s.rootsLoaded).toBe(true);
    expect(s.appInfo?.shell).toBe('web');
    expect(visibleSessions(s.sessions, s.filter).map((x) => x.key)).toEqual(['vizier:c', 'jido-code:b', 'vizier:a']);
  });

  it('moves the selection with the keyboard order and clamps at the ends', async () => {
    const { store } = setup();
    await store.getState().load();
    const { moveSelection } = store.getState();
    // Newest first, the unreadable file (although its mtime is the newest) last.
    moveSelection(1);
    expect(store.getState().selectedKey).toBe('jido-code:b');
    moveSelection(1);
    moveSelection(1);
    moveSelection(1);
    expect(store.getState().selectedKey).toBe('vizier:c');
    moveSelection(-1);
    expect(store.getState().selectedKey).toBe('vizier:a');
  });

  it('moves within the filtered list only', async () => {
    const { store } = setup();
    await store.getState().load();
    store.getState().setFilter('jidocode');
    store.getState().moveSelection(1);
    expect(store.getState().selectedKey).toBe('jido-code:b');
    store.getState().moveSelection(1);
    expect(store.getState().selectedKey).toBe('jido-code:b');
  });

  it('opens the selected session and shows a readable error for a missing one', async () => {
    const { store } = setup();
    await store.getState().load();
    store.getState().select('vizier:a');
    await store.getState().openSelected();
    expect(store.getState().open?.session?.title).toBe('Older');
    await store.getState().openSession('jido-code:b');
    const open = store.getState().open;
    expect(open?.session).toBeNull();
    expect(open?.error).toBe('No session jido-code:b');
    expect(open?.errorCode).toBe('NOT_FOUND');
  });

  it('opens an unreadable entry without asking for a session, keeping its reason', async () => {
    const { store, fake } = setup();
    await store.getState().load();
    await store.getState().openSession('vizier:c');
    expect(store.getState().open?.unreadable?.message).toBe('Unexpected end of JSON at line 3');
    expect(fake.calls.some((c) => c.method === 'getSession')).toBe(false);
  });

  it('ignores a slow getSession answer once another session was opened', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const fake = fakeClient({
      listSessions: async () => ({ sessions: [older, newer], total: 2 }),
      getSession: async ({ key }: { key: string }) => {
        if (key === older.key) await gate;
        return session({ key, title: key === older.key ? 'Older' : 'Newer' });
      },
    });
    const store = createAppStore(fake.client);
    await store.getState().refresh();
    const first = store.getState().openSession(older.key);
    await store.getState().openSession(newer.key);
    release();
    await first;
    expect(store.getState().open?.key).toBe(newer.key);
    expect(store.getState().open?.session?.title).toBe('Newer');
  });

  it('once per burst of sessionsChanged events, fetches only the rows it touched and merges them', async () => {
    const { store, fake, setList } = setup();
    await store.getState().load();
    const lists = () => fake.calls.filter((c) => c.method === 'listSessions').map((c) => c.input);
    const before = lists().length;
    const renamed = { ...older, title: 'Older, renamed' };
    setList([renamed, broken]);
    fake.emit({ name: 'sessionsChanged', payload: { changed: [older.key], removed: [] } });
    fake.emit({ name: 'sessionsChanged', payload: { changed: [], removed: [newer.key] } });
    await vi.advanceTimersByTimeAsync(50);
    expect(lists()).toHaveLength(before);
    await vi.advanceTimersByTimeAsync(100);
    expect(lists().slice(before)).toEqual([{ keys: [older.key, newer.key] }]);
    expect(
      store
        .getState()
        .sessions.map((s) => s.title)
        .sort(),
    ).toEqual([broken.title, 'Older, renamed'].sort());
    expect(store.getState().total).toBe(2);
  });

  it('keeps the rows of every burst when a slow answer for one burst comes after the next burst was asked for', async () => {
    const c = summary({ key: 'vizier:c', title: 'Third', updatedAt: '2025-03-01T00:00:00Z' });
    const d = summary({ key: 'vizier:d', title: 'Fourth', updatedAt: '2025-04-01T00:00:00Z' });
    let list = [older, newer];
    const fake = fakeClient({
      listSessions: async ({ keys }: { keys?: string[] }) => {
        const rows = keys ? list.filter((s) => keys.includes(s.key)) : list;
        // The first burst's answer is slow (a busy server); the second's is quick.
        if (keys?.includes(c.key)) await new Promise((resolve) => setTimeout(resolve, 300));
        return { sessions: rows, total: rows.length };
      },
      listRoots: async () => [root],
      getAppInfo: async () => ({ version: '0.1.0', dataDir: '/d', shell: 'web', demoRootPath: null }),
    });
    const store = createAppStore(fake.client, { debounceMs: 100 });
    await store.getState().load();
    list = [older, newer, c];
    fake.emit({ name: 'sessionsChanged', payload: { changed: [c.key], removed: [] } });
    await vi.advanceTimersByTimeAsync(150);
    list = [older, newer, c, d];
    fake.emit({ name: 'sessionsChanged', payload: { changed: [d.key], removed: [] } });
    await vi.advanceTimersByTimeAsync(600);
    expect(
      store
        .getState()
        .sessions.map((s) => s.key)
        .sort(),
    ).toEqual([older.key, newer.key, c.key, d.key].sort());
  });

  it('fetches the whole list again on a resync, or when a burst touches more rows than it is worth merging', async () => {
    const { store, fake } = setup();
    await store.getState().load();
    const lists = () => fake.calls.filter((c) => c.method === 'listSessions').map((c) => c.input);
    const before = lists().length;
    fake.emit({ name: 'sessionsChanged', payload: { changed: [], removed: [] } });
    await vi.advanceTimersByTimeAsync(150);
    fake.emit({ name: 'sessionsChanged', payload: { changed: Array.from({ length: 501 }, (_, i) => `vizier:n${i}`), removed: [] } });
    await vi.advanceTimersByTimeAsync(150);
    expect(lists().slice(before)).toEqual([{ limit: LIST_FIRST_PAGE }, { limit: LIST_FIRST_PAGE }]);
  });

  it('shows the first page of a long list at once, then the rest page by page, each session once, with how far it has come', async () => {
    const many = Array.from({ length: LIST_FIRST_PAGE + LIST_PAGE + 10 }, (_, i) => summary({ key: `vizier:s${i}`, title: `S${i}` }));
    // While the pages load, a session of the second page is updated and moves to the top (the server says so).
    const moved = many[LIST_FIRST_PAGE + 5] as (typeof many)[0];
    let order = many;
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const fake = fakeClient({
      listSessions: async ({ limit, offset, keys }: { limit?: number; offset?: number; keys?: string[] }) => {
        if (keys) return { sessions: order.filter((s) => keys.includes(s.key)), total: keys.length };
        const from = offset ?? 0;
        if (from > 0) await held;
        return { sessions: order.slice(from, from + (limit ?? order.length)), total: order.length };
      },
      listRoots: async () => [root],
    });
    const store = createAppStore(fake.client, { debounceMs: 10 });
    const refreshing = store.getState().refresh();
    await vi.waitFor(() => expect(store.getState().sessions).toHaveLength(LIST_FIRST_PAGE));
    expect(store.getState().listPaging).toEqual({ loaded: LIST_FIRST_PAGE, total: many.length });
    expect(store.getState().loaded).toBe(true);
    order = [moved, ...many.filter((s) => s !== moved)];
    fake.emit({ name: 'sessionsChanged', payload: { changed: [moved.key], removed: [] } });
    await vi.advanceTimersByTimeAsync(20);
    release();
    await refreshing;
    await vi.advanceTimersByTimeAsync(20);
    const keys = store.getState().sessions.map((s) => s.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual(many.map((s) => s.key).sort());
    expect(store.getState().total).toBe(many.length);
    expect(store.getState().listPaging).toBeNull();
    expect(fake.calls.filter((c) => c.method === 'listSessions').map((c) => c.input)).toEqual([
      { limit: LIST_FIRST_PAGE },
      { limit: LIST_PAGE, offset: LIST_FIRST_PAGE },
      { limit: LIST_PAGE, offset: LIST_FIRST_PAGE + LIST_PAGE },
      // The moved session's row, fetched once the list was done.
      { keys: [moved.key] },
    ]);
  });

  it('stops loading pages of a list a newer one replaced (a filter changed)', async () => {
    const many = Array.from({ length: LIST_FIRST_PAGE + 5 }, (_, i) => summary({ key: `vizier:s${i}`, title: `S${i}` }));
    const starred = [summary({ key: 'vizier:star', title: 'Starred' })];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const fake = fakeClient({
      listSessions: async ({ limit, offset, starred: onlyStarred }: { limit?: number; offset?: number; starred?: boolean }) => {
        if (onlyStarred) return { sessions: starred, total: 1 };
        if ((offset ?? 0) > 0) await held;
        return { sessions: many.slice(offset ?? 0, (offset ?? 0) + (limit ?? many.length)), total: many.length };
      },
      listRoots: async () => [root],
    });
    const store = createAppStore(fake.client);
    const first = store.getState().refresh();
    await vi.waitFor(() => expect(store.getState().listPaging).not.toBeNull());
    store.getState().setListFilters({ starred: true });
    release();
    await first;
    await vi.waitFor(() => expect(store.getState().sessions.map((s) => s.key)).toEqual(['vizier:star']));
    expect(store.getState().listPaging).toBeNull();
  });

  it('reloads the open session when it changed and marks it when removed', async () => {
    const { store, fake, sessionsByKey } = setup();
    await store.getState().load();
    await store.getState().openSession('vizier:a');
    sessionsByKey.set('vizier:a', session({ key: 'vizier:a', title: 'Older, edited' }));
    fake.emit({ name: 'sessionsChanged', payload: { changed: ['vizier:a'], removed: [] } });
    await vi.advanceTimersByTimeAsync(150);
    expect(store.getState().open?.session?.title).toBe('Older, edited');

    fake.emit({ name: 'sessionsChanged', payload: { changed: [], removed: ['vizier:a'] } });
    await vi.advanceTimersByTimeAsync(150);
    expect(store.getState().open?.removed).toBe(true);
    expect(store.getState().open?.session?.title).toBe('Older, edited');
  });

  it('refetches the open session on a reconnect signal (empty change)', async () => {
    const { store, fake, sessionsByKey } = setup();
    await store.getState().load();
    await store.getState().openSession('vizier:a');
    sessionsByKey.set('vizier:a', session({ key: 'vizier:a', title: 'Missed while offline' }));
    fake.emit({ name: 'sessionsChanged', payload: { changed: [], removed: [] } });
    await vi.advanceTimersByTimeAsync(150);
    expect(store.getState().open?.session?.title).toBe('Missed while offline');
  });

  it('shows the index idle after a resync when the idle event was missed while the stream was down', async () => {
    const scanning = { phase: 'scanning' as const, filesDone: 3, filesTotal: 10, bytesDone: 300, bytesTotal: 1000, etaMs: 500 };
    let progress: IndexProgress = scanning;
    const fake = fakeClient({
      listSessions: async () => ({ sessions: [older], total: 1 }),
      listRoots: async () => [root],
      getAppInfo: async () => ({ version: '0.1.0', dataDir: '/d', shell: 'web', demoRootPath: null }),
      getIndexProgress: async () => progress,
    });
    const store = createAppStore(fake.client, { debounceMs: 100 });
    await store.getState().load();
    expect(store.getState().indexProgress?.phase).toBe('scanning');
    // The scan ends while the stream is down: its idle event never comes; the reconnect's resync does.
    progress = { phase: 'idle', filesDone: 10, filesTotal: 10, bytesDone: 1000, bytesTotal: 1000, etaMs: null };
    fake.emit({ name: 'sessionsChanged', payload: { changed: [], removed: [] } });
    await vi.advanceTimersByTimeAsync(150);
    expect(store.getState().indexProgress).toEqual(progress);
  });

  it('keeps an index progress event that arrives while the resync asks, over the older answer', async () => {
    const idle = { phase: 'idle' as const, filesDone: 10, filesTotal: 10, bytesDone: 1000, bytesTotal: 1000, etaMs: null };
    let answer: (value: typeof idle) => void = () => {};
    let asked = 0;
    const fake = fakeClient({
      listSessions: async () => ({ sessions: [older], total: 1 }),
      listRoots: async () => [root],
      getAppInfo: async () => ({ version: '0.1.0', dataDir: '/d', shell: 'web', demoRootPath: null }),
      getIndexProgress: () => (++asked === 1 ? Promise.resolve(idle) : new Promise<typeof idle>((resolve) => (answer = resolve))),
    });
    const store = createAppStore(fake.client, { debounceMs: 100 });
    await store.getState().load();
    fake.emit({ name: 'sessionsChanged', payload: { changed: [], removed: [] } });
    await vi.advanceTimersByTimeAsync(150);
    const rescan = { phase: 'scanning' as const, filesDone: 1, filesTotal: 12, bytesDone: 10, bytesTotal: 1200, etaMs: null };
    fake.emit({ name: 'indexProgress', payload: rescan });
    answer(idle);
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().indexProgress).toEqual(rescan);
  });

  it('knows the folders once their list failed too, so the empty state is not held back for ever', async () => {
    const fake = fakeClient({
      listSessions: async () => ({ sessions: [], total: 0 }),
      listRoots: async () => Promise.reject(new ClientError('IO_ERROR', 'roots file unreadable')),
    });
    const store = createAppStore(fake.client);
    await store.getState().refreshRoots();
    expect(store.getState()).toMatchObject({ rootsLoaded: true, rootsError: 'roots file unreadable', roots: [] });
  });

  it('takes roots from rootsChanged and the connection status from the client', async () => {
    const { store, fake } = setup();
    expect(store.getState().rootsLoaded).toBe(false);
    fake.emit({ name: 'rootsChanged', payload: { roots: [{ ...root, sessionCount: 9 }] } });
    expect(store.getState().roots[0]?.sessionCount).toBe(9);
    expect(store.getState().rootsLoaded).toBe(true);
    fake.setConnection('offline');
    expect(store.getState().connection).toBe('offline');
  });

  it('keeps the last list and reports the error when a refresh fails', async () => {
    const { store, failList } = setup();
    await store.getState().load();
    failList(new ClientError('IO_ERROR', 'disk gone'));
    await store.getState().refresh();
    expect(store.getState().listError).toBe('disk gone');
    expect(store.getState().sessions).toHaveLength(3);
    failList(null);
    await store.getState().refresh();
    expect(store.getState().listError).toBeNull();
  });

  it('addRoot reports the service error and refreshes on success', async () => {
    let ok = false;
    const fake = fakeClient({
      addRoot: async ({ path }: { path: string }) => {
        if (!ok) throw new ClientError('INVALID_INPUT', `${path} is not a directory`, 'path');
        return root;
      },
      listSessions: async () => ({ sessions: [older], total: 1 }),
      listRoots: async () => [root],
    });
    const store = createAppStore(fake.client);
    expect(await store.getState().addRoot('/etc/passwd')).toBe(false);
    expect(store.getState().addRootError).toBe('/etc/passwd is not a directory');
    expect(await store.getState().addRoot('  ')).toBe(false);
    expect(fake.calls.filter((c) => c.method === 'addRoot')).toHaveLength(1);
    ok = true;
    expect(await store.getState().addRoot('/data')).toBe(true);
    expect(store.getState().addRootError).toBeNull();
    expect(store.getState().sessions).toEqual([older]);
    expect(store.getState().roots).toEqual([root]);
  });

  it('dispose stops listening to events', async () => {
    const { store, fake } = setup();
    expect(fake.subscribers()).toBe(1);
    store.getState().dispose();
    expect(fake.subscribers()).toBe(0);
  });
});
