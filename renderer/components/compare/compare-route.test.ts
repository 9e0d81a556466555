// The comparison in the URL: keys survive encoding, the URL opens the pair, the pair updates the URL, opening a session leaves it.
import { describe, expect, it, vi } from 'vitest';
import { bindCompareRoute, compareHash, parseCompareHash, type RoutedStore, type RoutedWindow } from './compare-route.ts';

describe('compare hash', () => {
  it('round-trips keys with colons, slashes and spaces', () => {
    const a = 'claude-code:9f1c/agent-b7c8';
    const b = 'codex:019 f#2';
    expect(parseCompareHash(compareHash(a, b))).toEqual({ a, b });
  });

  it('ignores other hashes and malformed routes', () => {
    expect(parseCompareHash('')).toBeNull();
    expect(parseCompareHash('#/compare/only-one')).toBeNull();
    expect(parseCompareHash('#/compare/%E0%A4%A/x')).toBeNull();
  });
});

type State = ReturnType<RoutedStore['getState']>;

function fakes(hash: string) {
  const listeners: Array<(s: State, p: State) => void> = [];
  let state: State;
  const openCompare = vi.fn(async (a: string, b: string) => set({ compare: { a, b } }));
  const closeCompare = vi.fn(() => set({ compare: null }));
  const set = (change: Partial<State>) => {
    const prev = state;
    state = { ...state, ...change };
    for (const l of listeners) l(state, prev);
  };
  state = { compare: null, open: null, openCompare, closeCompare };
  const store: RoutedStore = { getState: () => state, subscribe: (l) => (listeners.push(l), () => listeners.splice(listeners.indexOf(l), 1)) };
  const hashListeners: Array<() => void> = [];
  const win: RoutedWindow = {
    location: { hash, pathname: '/', search: '?token=t' },
    history: { pushState: vi.fn((_d, _u, url: string) => (win.location.hash = url.includes('#') ? url.slice(url.indexOf('#')) : '')) },
    addEventListener: (_t, l) => hashListeners.push(l),
    removeEventListener: (_t, l) => hashListeners.splice(hashListeners.indexOf(l), 1),
  };
  const navigate = (h: string) => {
    win.location.hash = h;
    for (const l of hashListeners) l();
  };
  return { store, win, set, navigate, openCompare, closeCompare };
}

describe('bindCompareRoute', () => {
  it('opens the pair named in the URL at start and when the URL changes (back and forward)', () => {
    const f = fakes(compareHash('vizier:1', 'codex:2'));
    bindCompareRoute(f.store, f.win);
    expect(f.openCompare).toHaveBeenCalledWith('vizier:1', 'codex:2');
    f.navigate('');
    expect(f.closeCompare).toHaveBeenCalled();
  });

  it('puts a comparison opened in the app into the URL, keeping the token, and clears it on close', () => {
    const f = fakes('');
    bindCompareRoute(f.store, f.win);
    f.set({ compare: { a: 'x:1', b: 'y:2' } });
    expect(f.win.history.pushState).toHaveBeenLastCalledWith(null, '', `/?token=t${compareHash('x:1', 'y:2')}`);
    f.set({ compare: null });
    expect(f.win.history.pushState).toHaveBeenLastCalledWith(null, '', '/?token=t');
  });

  it('leaves the comparison when a session is opened from the list, not when the open one reloads', () => {
    const f = fakes('');
    bindCompareRoute(f.store, f.win);
    f.set({ open: { key: 'x:1', session: {}, loading: false } });
    f.set({ compare: { a: 'x:1', b: 'y:2' } });
    f.set({ open: { key: 'x:1', session: {}, loading: true } });
    expect(f.closeCompare).not.toHaveBeenCalled();
    f.set({ open: { key: 'y:2', session: null, loading: true } });
    expect(f.closeCompare).toHaveBeenCalledTimes(1);
  });
});
