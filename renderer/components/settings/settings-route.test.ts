// #/settings: a loaded or linked URL shows Settings, showing it adds a history entry, leaving it says what is shown instead.
import { describe, expect, it } from 'vitest';
import { bindSettingsRoute, type SettingsRoutedStore, type SettingsRoutedWindow } from './settings-route.ts';

function fakes(hash = '') {
  type S = ReturnType<SettingsRoutedStore['getState']>;
  const listeners: Array<(s: S, p: S) => void> = [];
  const history: string[] = [];
  let state: S = { settingsOpen: false, open: null, compare: null, detailTab: 'conversation', showSettings: (settingsOpen) => update({ settingsOpen }) };
  const update = (change: Partial<S>) => {
    const prev = state;
    state = { ...state, ...change };
    for (const l of listeners) l(state, prev);
  };
  const hashListeners: Array<() => void> = [];
  const win: SettingsRoutedWindow = {
    location: { hash, pathname: '/', search: '?token=t' },
    history: {
      pushState: (_d, _u, url) => {
        history.push(url);
        const at = url.indexOf('#');
        win.location.hash = at < 0 ? '' : url.slice(at);
      },
    },
    addEventListener: (_t, l) => hashListeners.push(l),
    removeEventListener: () => {},
  };
  const store: SettingsRoutedStore = { getState: () => state, subscribe: (l) => (listeners.push(l), () => {}) };
  return { store, win, history, update, state: () => state, go: (to: string) => ((win.location.hash = to), hashListeners.forEach((l) => l())) };
}

describe('bindSettingsRoute', () => {
  it('shows Settings when the loaded URL is #/settings, and leaves it when the URL moves on', () => {
    const f = fakes('#/settings');
    bindSettingsRoute(f.store, f.win);
    expect(f.state().settingsOpen).toBe(true);
    f.go('#/session/codex%3A1/conversation');
    expect(f.state().settingsOpen).toBe(false);
    f.go('#/settings');
    expect(f.state().settingsOpen).toBe(true);
    expect(f.history).toEqual([]);
  });

  it('puts #/settings in the URL as a new entry, and the open session back when it closes', () => {
    const f = fakes('#/session/codex%3A1/raw');
    f.update({ open: { key: 'codex:1' }, detailTab: 'raw' });
    bindSettingsRoute(f.store, f.win);
    f.state().showSettings(true);
    expect(f.history).toEqual(['/?token=t#/settings']);
    f.state().showSettings(false);
    expect(f.history.at(-1)).toBe('/?token=t#/session/codex%3A1/raw');
  });

  it('leaves the URL to whatever took the main area, and closes for a comparison', () => {
    const f = fakes();
    bindSettingsRoute(f.store, f.win);
    f.state().showSettings(true);
    // A session opened from the list writes its own address first.
    f.win.location.hash = '#/session/a/conversation';
    f.update({ settingsOpen: false, open: { key: 'a' } });
    expect(f.history).toEqual(['/?token=t#/settings']);

    f.state().showSettings(true);
    f.update({ compare: { a: 'a', b: 'b' } });
    expect(f.state().settingsOpen).toBe(false);
  });

  it('closing with nothing open goes back to the dashboard address', () => {
    const f = fakes();
    bindSettingsRoute(f.store, f.win);
    f.state().showSettings(true);
    f.state().showSettings(false);
    expect(f.history).toEqual(['/?token=t#/settings', '/?token=t']);
  });
});
