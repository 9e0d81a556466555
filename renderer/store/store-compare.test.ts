// The comparison slice: marking two rows, "compare with…", fetching and swapping, and refreshing when a compared file changes.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compareSessions } from '../../shared/compare/compare.ts';
import { BASE_TURNS, testSession } from '../../shared/compare/test-sessions.ts';
import { createAppStore } from './store.ts';
import { fakeClient } from '../test-fixtures.ts';

const comparison = compareSessions(testSession('vault:a', BASE_TURNS), testSession('vault:b', BASE_TURNS.slice(1)));

function setup() {
  const fake = fakeClient({ compareSessions: async () => comparison });
  const store = createAppStore(fake.client, { debounceMs: 1 });
  return { fake, store };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('compare slice', () => {
  it('Ctrl/⌘-click marks up to two rows (the oldest mark gives way), and a plain click is the list’s', () => {
    const { store } = setup();
    const s = () => store.getState();
    expect(s().compareRowClick('vault:a', true)).toBe(true);
    s().compareRowClick('vault:b', true);
    s().compareRowClick('vault:c', true);
    expect(s().compareMarks).toEqual(['vault:b', 'vault:c']);
    s().compareRowClick('vault:b', true);
    expect(s().compareMarks).toEqual(['vault:c']);
    expect(s().compareRowClick('vault:d', false)).toBe(false);
  });

  it('"Compare with…" makes the next clicked row B and fetches the comparison', async () => {
    const { store, fake } = setup();
    store.getState().startComparePick('vault:a');
    expect(store.getState().compareRowClick('vault:b', false)).toBe(true);
    await vi.waitFor(() => expect(store.getState().compare?.loading).toBe(false));
    expect(fake.calls).toContainEqual({ method: 'compareSessions', input: { a: 'vault:a', b: 'vault:b' } });
    expect(store.getState().compare).toMatchObject({ a: 'vault:a', b: 'vault:b', loading: false, error: null });
    expect(store.getState().comparePick).toBeNull();
  });

  it('swaps sides at once, without asking again', async () => {
    const { store, fake } = setup();
    await store.getState().openCompare('vault:a', 'vault:b');
    const before = fake.calls.length;
    store.getState().swapCompare();
    const view = store.getState().compare!;
    expect([view.a, view.b, view.comparison?.a.key, view.comparison?.stats.inserted]).toEqual(['vault:b', 'vault:a', 'vault:b', 1]);
    expect(fake.calls.length).toBe(before);
  });

  it('shows why a comparison failed', async () => {
    const fake = fakeClient({ compareSessions: async () => Promise.reject(new Error('No session with key "vault:x" is known.')) });
    const store = createAppStore(fake.client);
    await store.getState().openCompare('vault:x', 'vault:b');
    expect(store.getState().compare).toMatchObject({ loading: false, error: 'No session with key "vault:x" is known.' });
  });

  it('fetches the comparison again when one of its sessions changes on disk, and leaves it on a plain row click', async () => {
    const { store, fake } = setup();
    await store.getState().openCompare('vault:a', 'vault:b');
    vi.useFakeTimers();
    fake.emit({ name: 'sessionsChanged', payload: { changed: ['vault:other'], removed: [] } });
    fake.emit({ name: 'sessionsChanged', payload: { changed: ['vault:b'], removed: [] } });
    const compares = () => fake.calls.filter((c) => c.method === 'compareSessions');
    // A refresh waits a little, so a file being written is compared once it settles.
    expect(compares()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(600);
    expect(compares()).toHaveLength(2);
    store.getState().compareRowClick('vault:z', false);
    expect(store.getState().compare).toBeNull();
    // Only the store's own listener is left once no comparison is shown.
    expect(fake.subscribers()).toBe(1);
    store.getState().dispose();
  });
});
