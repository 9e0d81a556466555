// The usage slice against a fake client: asked only while a dashboard shows, following the search box, stale answers dropped.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MethodInput, MethodOutput } from '../../shared/api.ts';
import { createAppStore } from './store.ts';
import { fakeClient } from '../test-fixtures.ts';

type In = MethodInput<'usageDashboard'>;
type Out = MethodOutput<'usageDashboard'>;

const figures = (totalTokens: number): Out => ({
  timezone: 'UTC',
  from: null,
  to: null,
  breakdown: 'model',
  groups: [],
  days: [],
  heatmapDays: [],
  heatmap: [],
  projects: [],
  models: [],
  tools: [],
  lengths: [],
  turns: [],
  cache: [],
  block: null,
  limits: [],
  problems: [],
  tookMs: 1,
  totals: {
    input: totalTokens,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    reasoning: 0,
    totalTokens,
    costUsd: 0,
    unpricedCalls: 0,
    sessions: 1,
    cacheHitRate: null,
  },
});

function setup(answer: (input: In) => Promise<Out>) {
  const fake = fakeClient({
    listSessions: async () => ({ sessions: [], total: 0 }),
    listRoots: async () => [],
    searchSessions: async () => ({ results: [], total: 0, problems: [], tookMs: 1 }),
    usageDashboard: answer as (input: never) => Promise<unknown>,
  });
  const store = createAppStore(fake.client, { debounceMs: 10 });
  const asked = () => fake.calls.filter((c) => c.method === 'usageDashboard').map((c) => c.input as In);
  return { store, asked };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('usage slice', () => {
  it('asks for the figures when a dashboard shows, and again as the search box changes, once the typing pauses', async () => {
    const { store, asked } = setup(async (input) => figures(input.query?.length ?? 0));
    store.getState().setFilter('ignored while hidden');
    await vi.advanceTimersByTimeAsync(500);
    expect(asked()).toEqual([]);
    const unwatch = store.getState().watchUsage();
    await vi.advanceTimersByTimeAsync(0);
    expect(asked().map((a) => a.query)).toEqual(['ignored while hidden']);
    store.getState().setFilter('p');
    store.getState().setFilter('project:app');
    await vi.advanceTimersByTimeAsync(250);
    expect(asked().map((a) => a.query)).toEqual(['ignored while hidden', 'project:app']);
    expect(store.getState().usage?.data?.totals.totalTokens).toBe('project:app'.length);
    unwatch();
    store.getState().setFilter('gone');
    await vi.advanceTimersByTimeAsync(500);
    expect(asked()).toHaveLength(2);
  });

  it('drops an older answer that comes after a newer one, and asks again for another breakdown', async () => {
    const pending: Array<{ input: In; resolve: (o: Out) => void }> = [];
    const { store, asked } = setup((input) => new Promise((resolve) => pending.push({ input, resolve })));
    store.getState().watchUsage();
    store.getState().setUsageBreakdown('project');
    expect(asked().map((a) => a.breakdown)).toEqual(['model', 'project']);
    pending[1]?.resolve(figures(2));
    await vi.advanceTimersByTimeAsync(0);
    pending[0]?.resolve(figures(1));
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().usage?.data?.totals.totalTokens).toBe(2);
  });

  it('shows the first answer while the same question is asked again (the page start asks twice), and keeps the drawn figures when the second answer is the same', async () => {
    const pending: Array<{ input: In; resolve: (o: Out) => void }> = [];
    const { store, asked } = setup((input) => new Promise((resolve) => pending.push({ input, resolve })));
    store.getState().watchUsage();
    void store.getState().loadUsage();
    expect(asked()).toHaveLength(2);
    pending[0]?.resolve(figures(5));
    await vi.advanceTimersByTimeAsync(0);
    const first = store.getState().usage;
    expect(first?.data?.totals.totalTokens).toBe(5);
    expect(first?.loading).toBe(true);
    pending[1]?.resolve({ ...figures(5), tookMs: 40 });
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().usage?.loading).toBe(false);
    expect(store.getState().usage?.data).toBe(first?.data);
  });

  it('replaces the first answer when the same question asked again answers differently, and never shows an older answer after a newer one', async () => {
    const pending: Array<{ input: In; resolve: (o: Out) => void }> = [];
    const { store } = setup((input) => new Promise((resolve) => pending.push({ input, resolve })));
    store.getState().watchUsage();
    void store.getState().loadUsage();
    void store.getState().loadUsage();
    pending[0]?.resolve(figures(1));
    await vi.advanceTimersByTimeAsync(0);
    pending[2]?.resolve(figures(3));
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().usage).toMatchObject({ loading: false, data: { totals: { totalTokens: 3 } } });
    pending[1]?.resolve(figures(2));
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().usage?.data?.totals.totalTokens).toBe(3);
  });

  it('drops an answer that arrives after the dashboard went away', async () => {
    const pending: Array<{ input: In; resolve: (o: Out) => void }> = [];
    const { store } = setup((input) => new Promise((resolve) => pending.push({ input, resolve })));
    store.getState().watchUsage();
    store.getState().disposeUsage();
    pending[0]?.resolve(figures(7));
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().usage?.data ?? null).toBeNull();
  });

  it('shows the dashboard by closing the open session and any comparison', () => {
    const { store } = setup(async () => figures(0));
    store.setState({ open: { key: 'k', session: null, loading: false, error: null, errorCode: null, unreadable: null, removed: false } });
    store.getState().showUsage();
    expect(store.getState().open).toBeNull();
  });
});
