// The comparison's place in the URL (#/compare/<a>/<b>, keys encoded) so a pair can be reopened and linked.
export interface CompareRoute {
  a: string;
  b: string;
}

const PREFIX = '#/compare/';

export function compareHash(a: string, b: string): string {
  return `${PREFIX}${encodeURIComponent(a)}/${encodeURIComponent(b)}`;
}

/** null for any hash that is not a well-formed comparison route. */
export function parseCompareHash(hash: string): CompareRoute | null {
  if (!hash.startsWith(PREFIX)) return null;
  const parts = hash.slice(PREFIX.length).split('/');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return null;
  try {
    return { a: decodeURIComponent(parts[0]), b: decodeURIComponent(parts[1]) };
  } catch {
    return null;
  }
}

/** What the route binding needs of the store, so it is testable with a plain object. */
export interface RoutedStore {
  getState(): {
    compare: { a: string; b: string } | null;
    open: { key: string; session: unknown; loading: boolean } | null;
    openCompare(a: string, b: string): Promise<void>;
    closeCompare(): void;
  };
  subscribe(listener: (state: ReturnType<RoutedStore['getState']>, prev: ReturnType<RoutedStore['getState']>) => void): () => void;
}

export interface RoutedWindow {
  location: { hash: string; pathname: string; search: string };
  history: { pushState(data: unknown, unused: string, url: string): void };
  addEventListener(type: 'hashchange', listener: () => void): void;
  removeEventListener(type: 'hashchange', listener: () => void): void;
}

/**
 * Keeps the URL and the store in step both ways: opening the URL (or going back) shows the pair,
 * showing a pair puts it in the URL, and opening a session from the list leaves the comparison.
 */
type State = ReturnType<RoutedStore['getState']>;

/** A session was opened from the list (not merely reloaded because its file changed). */
function opened(state: State, prev: State): boolean {
  const now = state.open;
  if (!now || now === prev.open) return false;
  return now.key !== prev.open?.key || (now.loading && now.session === null);
}

export function bindCompareRoute(store: RoutedStore, win: RoutedWindow): () => void {
  const fromUrl = () => {
    const route = parseCompareHash(win.location.hash);
    const state = store.getState();
    if (route && (state.compare?.a !== route.a || state.compare?.b !== route.b)) void state.openCompare(route.a, route.b);
    else if (!route && state.compare) state.closeCompare();
  };
  const unsubscribe = store.subscribe((state, prev) => {
    if (state.compare && opened(state, prev)) {
      state.closeCompare();
      return;
    }
    if (state.compare === prev.compare) return;
    const wanted = state.compare ? compareHash(state.compare.a, state.compare.b) : '';
    if (win.location.hash === wanted || (!wanted && !parseCompareHash(win.location.hash))) return;
    if (wanted) win.history.pushState(null, '', `${win.location.pathname}${win.location.search}${wanted}`);
    else win.history.pushState(null, '', `${win.location.pathname}${win.location.search}`);
  });
  win.addEventListener('hashchange', fromUrl);
  fromUrl();
  return () => {
    unsubscribe();
    win.removeEventListener('hashchange', fromUrl);
  };
}
