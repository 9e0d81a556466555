// The open session's place in the URL (#/session/<key>/<tab>[/<message>]): reload keeps it, a session can be linked, Back and Forward move between sessions.
import type { SearchFocus } from './store/store-search.ts';

export interface SessionRoute {
  key: string;
  tab: string | null;
  /** 0-based index of the message to open at, when the link names one. */
  message: number | null;
}

const PREFIX = '#/session/';
const TAB = /^[a-z]{1,20}$/;

export function sessionHash(route: SessionRoute): string {
  const parts = [encodeURIComponent(route.key), ...(route.tab ? [route.tab] : []), ...(route.tab && route.message !== null ? [String(route.message)] : [])];
  return `${PREFIX}${parts.join('/')}`;
}

/** null for any hash that is not a well-formed session route. */
export function parseSessionHash(hash: string): SessionRoute | null {
  if (!hash.startsWith(PREFIX)) return null;
  const [key, tab, message, ...rest] = hash.slice(PREFIX.length).split('/');
  if (!key || rest.length || (tab !== undefined && !TAB.test(tab)) || (message !== undefined && !/^\d{1,9}$/.test(message))) return null;
  try {
    return { key: decodeURIComponent(key), tab: tab ?? null, message: message === undefined ? null : Number(message) };
  } catch {
    return null;
  }
}

/** What the binding needs of the store, so it is testable with a plain object. */
export interface SessionRoutedStore {
  getState(): {
    open: { key: string; focus?: SearchFocus | null } | null;
    compare: unknown;
    detailTab: string;
    openSession(key: string, focus?: SearchFocus | null): Promise<void>;
    setDetailTab(tab: string): void;
  };
  subscribe(listener: (state: ReturnType<SessionRoutedStore['getState']>, prev: ReturnType<SessionRoutedStore['getState']>) => void): () => void;
}

export interface SessionRoutedWindow {
  location: { hash: string; pathname: string; search: string };
  history: { pushState(data: unknown, unused: string, url: string): void; replaceState(data: unknown, unused: string, url: string): void };
  addEventListener(type: 'hashchange', listener: () => void): void;
  removeEventListener(type: 'hashchange', listener: () => void): void;
}

/**
 * Keeps the URL and the open session in step both ways: opening another session adds a history entry (so Back
 * returns to the one before), switching tabs replaces it, and a hash typed, linked or reached by Back opens its session.
 */
export function bindSessionRoute(store: SessionRoutedStore, win: SessionRoutedWindow): () => void {
  const base = () => `${win.location.pathname}${win.location.search}`;
  /** True while the URL is being applied to the store: the URL already says what the store is becoming. */
  let applying = false;
  const fromUrl = () => {
    const route = parseSessionHash(win.location.hash);
    if (!route) return;
    const state = store.getState();
    applying = true;
    try {
      // openSession sets the open key before it awaits anything, so both changes land while `applying`.
      if (state.open?.key !== route.key) void state.openSession(route.key, route.message !== null ? { messageIndex: route.message, terms: [] } : null);
      if (route.tab && route.tab !== store.getState().detailTab) store.getState().setDetailTab(route.tab);
    } finally {
      applying = false;
    }
  };
  const unsubscribe = store.subscribe((state, prev) => {
    if (applying) return;
    // A comparison owns the URL while it is shown (compare-route.ts).
    if (state.compare || !state.open) return;
    const keyChanged = state.open.key !== prev.open?.key;
    const leftComparison = prev.compare !== null && prev.compare !== undefined && !state.compare;
    if (!keyChanged && state.detailTab === prev.detailTab && !leftComparison) return;
    const current = parseSessionHash(win.location.hash);
    const message = current?.key === state.open.key ? current.message : (state.open.focus?.messageIndex ?? null);
    const wanted = sessionHash({ key: state.open.key, tab: state.detailTab, message: state.detailTab === 'conversation' ? message : null });
    if (win.location.hash === wanted) return;
    if (keyChanged && current?.key !== state.open.key) win.history.pushState(null, '', `${base()}${wanted}`);
    else win.history.replaceState(null, '', `${base()}${wanted}`);
  });
  win.addEventListener('hashchange', fromUrl);
  fromUrl();
  return () => {
    unsubscribe();
    win.removeEventListener('hashchange', fromUrl);
  };
}
