// The search slice against a fake client: debounced queries, stale answers, paging, facets, sorting, opening at a message, progress.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MethodInput, MethodOutput } from '../../shared/api.ts';
import { emptyFacets, type Facets, type IndexProgress, type SearchResult } from '../../shared/search-api.ts';
import type { Message } from '../../shared/session.ts';
import { shownSessions } from '../shown-sessions.ts';
import { createAppStore } from './store.ts';
import { fakeClient, session, summary } from '../test-fixtures.ts';

type SearchIn = MethodInput<'searchSessions'>;
type SearchOut = MethodOutput<'searchSessions'>;

const a = summary({ key: 'vizier:a', title: 'Alpha', updatedAt: '2025-01-01T00:00:00Z', size: 10 });
const b = summary({ key: 'codex:b', format: 'codex', title: 'Beta', updatedAt: '2025-02-01T00:00:00Z', size: 500 });

function result(s: typeof a, messageIndex: number | null = 1): SearchResult {
  return {
    summary: s,
    snippet: [
      { text: 'the ', hit: false },
      { text: 'Quokka', hit: true },
    ],
    messageIndex,
    score: -1,
  };
}

function messages(n: number, from = 0): Message[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `m${from + i}`,
    role: 'user',
    timestamp: null,
    parts: [{ type: 'text', text: `message ${from + i}` }],
    model: null,
    usage: null,
    cost: null,
    agentId: null,
    origin: null,
    annotations: null,
  })) as Message[];
}

const progress: IndexProgress = { phase: 'scanning', filesDone: 3, filesTotal: 10, bytesDone: 100, bytesTotal: 1000, etaMs: 4000 };

function setup(answer: (input: SearchIn) => Promise<SearchOut>) {
  const fake = fakeClient({
    listSessions: async () => ({ sessions: [a, b], total: 2 }),
    listRoots: async () => [],
    getAppInfo: async () => ({ version: '0.1.0', dataDir: '/d', shell: 'web', demoRootPath: null }),
    getIndexProgress: async () => progress,
    searchSessions: answer as (input: never) => Promise<unknown>,
    getSession: async ({ key }: { key: string }) => ({ ...session({ key, messages: messages(1000) }), messagesTotal: 3000 }),
    getMessages: async ({ offset, limit }: { offset: number; limit: number }) => ({
      offset,
      messages: messages(Math.min(limit, 3000 - offset), offset),
      total: 3000,
    }),
  });
  const store = createAppStore(fake.client, { debounceMs: 100 });
  const searches = () => fake.calls.filter((c) => c.method === 'searchSessions').map((c) => c.input as SearchIn);
  return { store, fake, searches };
}

const facets = (some: Partial<Facets>): Facets => ({ ...emptyFacets(), ...some });
const out = (results: SearchResult[], over: Partial<SearchOut> = {}): SearchOut => ({ results, total: results.length, problems: [], tookMs: 3.2, ...over });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('search slice', () => {
  it('asks the index once the typing pauses, with the sort, facets and a page size', async () => {
    const { store, searches } = setup(async () => out([result(b)], { facets: facets({ source: [{ value: 'codex', count: 1, filter: 'source:codex' }] }) }));
    await store.getState().load();
    store.getState().setFilter('q');
    store.getState().setFilter('qu');
    store.getState().setFilter('quokka');
    await vi.advanceTimersByTimeAsync(100);
    expect(searches().filter((s) => s.query !== '')).toEqual([]);
    await vi.advanceTimersByTimeAsync(60);
    expect(searches().filter((s) => s.query !== '')).toEqual([{ query: 'quokka', sort: 'relevance', facets: true, limit: 100 }]);
    const s = store.getState();
    expect(shownSessions(s).map((x) => x.key)).toEqual(['codex:b']);
    expect(s.search?.tookMs).toBe(3.2);
    expect(s.facets?.source?.[0]?.filter).toBe('source:codex');
  });

  it('ignores an older query that answers after a newer one', async () => {
    const pending: Array<{ input: SearchIn; resolve: (o: SearchOut) => void }> = [];
    const { store } = setup((input) => new Promise((resolve) => pending.push({ input, resolve })));
    store.getState().setFilter('alpha');
    await vi.advanceTimersByTimeAsync(200);
    store.getState().setFilter('beta');
    await vi.advanceTimersByTimeAsync(200);
    const [first, second] = pending.filter((p) => p.input.query !== '');
    second?.resolve(out([result(b)]));
    await vi.advanceTimersByTimeAsync(0);
    first?.resolve(out([result(a)]));
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().search?.text).toBe('beta');
    expect(store.getState().search?.results.map((r) => r.summary.key)).toEqual(['codex:b']);
  });

  it('folds the vault chips into the query and pages on from where the results end', async () => {
    const all = Array.from({ length: 150 }, (_, i) => result(summary({ key: `vizier:${i}` })));
    const { store, searches } = setup(async (input) => out(all.slice(input.offset ?? 0, (input.offset ?? 0) + (input.limit ?? 50)), { total: 150 }));
    store.setState({ listFilters: { starred: true, kept: false, tag: 'release notes' } });
    store.getState().setFilter('quokka');
    await vi.advanceTimersByTimeAsync(200);
    expect(searches().at(-1)?.query).toBe('quokka is:starred tag:"release notes"');
    expect(store.getState().search?.results).toHaveLength(100);
    await store.getState().loadMoreResults();
    expect(searches().at(-1)).toMatchObject({ offset: 100, limit: 100 });
    expect(shownSessions(store.getState())).toHaveLength(150);
    await store.getState().loadMoreResults();
    expect(searches().filter((s) => s.offset)).toHaveLength(1);
  });

  it('pages past a capped count (a team store counting up to 200) until a page comes back short, saying "200+" meanwhile', async () => {
    const all = Array.from({ length: 260 }, (_, i) => result(summary({ key: `team:${i}` })));
    // As the team store answers: it counts up to the cap past what it has read, and says when it stopped counting.
    const { store, searches } = setup(async (input) => {
      const from = input.offset ?? 0;
      const page = all.slice(from, from + (input.limit ?? 50));
      const counted = Math.min(all.length, from + page.length + 201);
      return { ...out(page, { total: Math.min(counted, Math.max(200, from + page.length)) }), totalCapped: counted > 200 && from + page.length < all.length };
    });
    store.getState().setFilter('quokka');
    await vi.advanceTimersByTimeAsync(200);
    expect(store.getState().search).toMatchObject({ total: 200, totalCapped: true });
    for (let i = 0; i < 4; i++) await store.getState().loadMoreResults();
    expect(store.getState().search?.results).toHaveLength(260);
    expect(store.getState().search).toMatchObject({ total: 260, totalCapped: false });
    const asked = searches().filter((s) => s.offset).length;
    await store.getState().loadMoreResults();
    expect(searches().filter((s) => s.offset)).toHaveLength(asked);
  });

  it('with an empty box asks for facets only, and clears the results', async () => {
    const { store, searches } = setup(async (input) =>
      out(input.query ? [result(b)] : [], { facets: facets({ source: [{ value: input.query ? 'codex' : 'vizier', count: 2, filter: 'x' }] }) }),
    );
    await store.getState().load();
    await vi.advanceTimersByTimeAsync(200);
    expect(searches()).toEqual([{ query: '', facets: true, limit: 1 }]);
    expect(store.getState().facets?.source?.[0]?.value).toBe('vizier');
    store.getState().setFilter('quokka');
    await vi.advanceTimersByTimeAsync(200);
    store.getState().setFilter('');
    await vi.advanceTimersByTimeAsync(200);
    expect(store.getState().search).toBeNull();
    expect(store.getState().facets?.source?.[0]?.value).toBe('vizier');
    expect(shownSessions(store.getState()).map((s) => s.key)).toEqual(['codex:b', 'vizier:a']);
  });

  it('a facet click adds its filter to the box and a second click takes it out', async () => {
    const { store } = setup(async () => out([]));
    store.getState().setFilter('quokka');
    store.getState().toggleFacet('project:"my app"');
    expect(store.getState().filter).toBe('quokka project:"my app"');
    store.getState().toggleFacet('project:"my app"');
    expect(store.getState().filter).toBe('quokka');
  });

  it('sorts the list by the chosen field, and searches again with the search sort', async () => {
    const { store, searches } = setup(async () => out([result(a), result(b)]));
    await store.getState().load();
    expect(shownSessions(store.getState()).map((s) => s.key)).toEqual(['codex:b', 'vizier:a']);
    store.getState().setSort('size');
    expect(shownSessions(store.getState()).map((s) => s.key)).toEqual(['codex:b', 'vizier:a']);
    store.setState({ sessions: [b, { ...a, size: 9999 }] });
    expect(shownSessions(store.getState()).map((s) => s.key)).toEqual(['vizier:a', 'codex:b']);
    store.getState().setFilter('quokka');
    await vi.advanceTimersByTimeAsync(200);
    store.getState().setSort('cost');
    await vi.advanceTimersByTimeAsync(0);
    expect(searches().at(-1)).toMatchObject({ query: 'quokka', sort: 'cost' });
    expect(store.getState().listSort).toBe('size');
  });

  it('keeps showing the typed-word filter when search fails, and says why', async () => {
    const { store } = setup(async () => {
      throw new Error('The index is being rebuilt.');
    });
    await store.getState().load();
    store.getState().setFilter('alpha');
    await vi.advanceTimersByTimeAsync(200);
    expect(store.getState().search?.error).toBe('The index is being rebuilt.');
    expect(shownSessions(store.getState()).map((s) => s.key)).toEqual(['vizier:a']);
  });

  it('opens a result at its message, fetching the window that holds it, with the matched words to mark', async () => {
    const { store, fake } = setup(async () => out([result(b, 2500)]));
    await store.getState().load();
    store.getState().setFilter('quokka mig*');
    await vi.advanceTimersByTimeAsync(200);
    store.getState().select('codex:b');
    await store.getState().openSelected();
    const open = store.getState().open;
    expect(open?.focus).toEqual({ messageIndex: 2500, terms: ['quokka', 'mig'] });
    expect(open?.session?.messages.length).toBeGreaterThan(2500);
    expect(open?.session?.messages[2500]?.id).toBe('m2500');
    expect(fake.calls.filter((c) => c.method === 'getMessages')).toHaveLength(1);
    // A plain open (the box empty) has no target.
    store.getState().setFilter('');
    await store.getState().openListed('vizier:a');
    expect(store.getState().open?.focus).toBeNull();
  });

  it('moves the keyboard selection through the results, not the whole list', async () => {
    const { store } = setup(async () => out([result(a), result(b)]));
    await store.getState().load();
    store.getState().setFilter('quokka');
    await vi.advanceTimersByTimeAsync(200);
    store.getState().moveSelection(1);
    expect(store.getState().selectedKey).toBe('vizier:a');
    store.getState().moveSelection(1);
    expect(store.getState().selectedKey).toBe('codex:b');
  });

  it('follows indexing progress from the start and through events', async () => {
    const { store, fake } = setup(async () => out([]));
    await store.getState().load();
    expect(store.getState().indexProgress).toEqual(progress);
    fake.emit({ name: 'indexProgress', payload: { ...progress, phase: 'idle', filesDone: 10 } });
    expect(store.getState().indexProgress?.phase).toBe('idle');
  });
});
