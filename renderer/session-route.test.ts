// The open session lives in the URL: parsed strictly, written on open (a history entry) and on tab change (in place), read back on Back.
import { describe, expect, it } from 'vitest';
import { bindSessionRoute, parseSessionHash, sessionHash, type SessionRoutedStore, type SessionRoutedWindow } from './session-route.ts';

describe('session hashes', () => {
  it('round-trip keys with slashes and colons, the tab and the message', () => {
    const route = { key: 'claude-code:abc/agent-1', tab: 'conversation', message: 12 };
    expect(sessionHash(route)).toBe('#/session/claude-code%3Aabc%2Fagent-1/conversation/12');
    expect(parseSessionHash(sessionHash(route))).toEqual(route);
    expect(parseSessionHash('#/session/codex%3A1')).toEqual({ key: 'codex:1', tab: null, message: null });
  });

  it('refuse anything malformed', () => {
    for (const bad of ['#/session/', '#/session/a/Tab!', '#/session/a/raw/x', '#/session/%E0%A4%A', '#/compare/a/b', '#/session/a/raw/1/2']) {
      expect(parseSessionHash(bad)).toBeNull();
    }
  });
});

function fakes(hash = '') {
  type S = ReturnType<SessionRoutedStore['getState']>;
  const listeners: Array<(s: S, p: S) => void> = [];
  const history: string[] = [];
  let state: S = {
    open: null,
    compare: null,
    detailTab: 'conversation',
    openSession: async (key, focus) => update({ open: { key, focus: focus ?? null } }),
    setDetailTab: (detailTab) => update({ detailTab }),
  };
  const update = (change: Partial<S>) => {
    const prev = state;
    state = { ...state, ...change };
    for (const l of listeners) l(state, prev);
  };
  const hashListeners: Array<() => void> = [];
  const win: SessionRoutedWindow = {
    location: { hash, pathname: '/', search: '?token=t' },
    history: {
      pushState: (_d, _u, url) => {
        history.push(`push ${url}`);
        win.location.hash = url.slice(url.indexOf('#'));
      },
      replaceState: (_d, _u, url) => {
        history.push(`replace ${url}`);
        win.location.hash = url.slice(url.indexOf('#'));
      },
    },
    addEventListener: (_t, l) => hashListeners.push(l),
    removeEventListener: () => {},
  };
  const store: SessionRoutedStore = { getState: () => state, subscribe: (l) => (listeners.push(l), () => {}) };
  return { store, win, history, state: () => state, back: (to: string) => ((win.location.hash = to), hashListeners.forEach((l) => l())) };
}

describe('bindSessionRoute', () => {
  it('opens the session a loaded URL names, at its tab and message', () => {
    const f = fakes('#/session/codex%3A1/conversation/7');
    bindSessionRoute(f.store, f.win);
    expect(f.state().open).toEqual({ key: 'codex:1', focus: { messageIndex: 7, terms: [] } });
  });

  it('adds a history entry per session opened, replaces it on a tab change, and Back reopens the one before', async () => {
    const f = fakes();
    bindSessionRoute(f.store, f.win);
    await f.state().openSession('codex:1');
    await f.state().openSession('vizier:2');
    f.state().setDetailTab('raw');
    expect(f.history).toEqual([
      'push /?token=t#/session/codex%3A1/conversation',
      'push /?token=t#/session/vizier%3A2/conversation',
      'replace /?token=t#/session/vizier%3A2/raw',
    ]);
    f.back('#/session/codex%3A1/conversation');
    expect([f.state().open?.key, f.state().detailTab]).toEqual(['codex:1', 'conversation']);
  });
});
