// The Settings page's place in the URL (#/settings): reload and links open it, Back leaves it, and leaving it puts back what the main area shows.
import { sessionHash } from '../../session-route.ts';

export const SETTINGS_HASH = '#/settings';

/** What the binding needs of the store, so it is testable with a plain object. */
export interface SettingsRoutedStore {
  getState(): {
    settingsOpen: boolean;
    open: { key: string } | null;
    compare: unknown;
    detailTab: string;
    showSettings(open: boolean): void;
  };
  subscribe(listener: (state: ReturnType<SettingsRoutedStore['getState']>, prev: ReturnType<SettingsRoutedStore['getState']>) => void): () => void;
}

export interface SettingsRoutedWindow {
  location: { hash: string; pathname: string; search: string };
  history: { pushState(data: unknown, unused: string, url: string): void };
  addEventListener(type: 'hashchange', listener: () => void): void;
  removeEventListener(type: 'hashchange', listener: () => void): void;
}

export function bindSettingsRoute(store: SettingsRoutedStore, win: SettingsRoutedWindow): () => void {
  const base = () => `${win.location.pathname}${win.location.search}`;
  const fromUrl = () => {
    const wanted = win.location.hash === SETTINGS_HASH;
    if (wanted !== store.getState().settingsOpen) store.getState().showSettings(wanted);
  };
  const unsubscribe = store.subscribe((state, prev) => {
    // A comparison takes the main area (and the URL) over.
    if (state.settingsOpen && state.compare && state.compare !== prev.compare) {
      state.showSettings(false);
      return;
    }
    if (state.settingsOpen === prev.settingsOpen) return;
    if (state.settingsOpen) {
      if (win.location.hash !== SETTINGS_HASH) win.history.pushState(null, '', `${base()}${SETTINGS_HASH}`);
      return;
    }
    // Closed by showing something else: unless that has put its own place in the URL, say what is shown now.
    if (win.location.hash !== SETTINGS_HASH) return;
    const back = state.open ? sessionHash({ key: state.open.key, tab: state.detailTab, message: null }) : '';
    win.history.pushState(null, '', `${base()}${back}`);
  });
  win.addEventListener('hashchange', fromUrl);
  fromUrl();
  return () => {
    unsubscribe();
    win.removeEventListener('hashchange', fromUrl);
  };
}
