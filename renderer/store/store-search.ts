// Store slice for search: the box's query asked of the index (debounced, paged, stale answers dropped), sorts, facets, indexing progress.
import type { Facets, IndexProgress, SearchResult, SearchSort } from '../../shared/search-api.ts';
import { describeError, type AppClient } from '../transport/client.ts';
import { highlightTerms, searchQueryFor, toggleFilter } from '../search-query.ts';
import type { ListSort, SearchView } from '../shown-sessions.ts';
import type { ListFilters } from './store-vault.ts';

export type { SearchView } from '../shown-sessions.ts';

/** Where to open a session found by search: its best-matching message, and the words to mark in it. */
export interface SearchFocus {
  messageIndex: number;
  terms: string[];
}

export interface SearchSlice {
  search: SearchView | null;
  /** Counts per facet for what the list shows: the search's, or everything's while the box is empty. */
  facets: Facets | null;
  listSort: ListSort;
  searchSort: SearchSort;
  indexProgress: IndexProgress | null;
  /** Asks the index again after the typing pauses (the box changed, a chip changed, sessions changed). */
  scheduleSearch(): void;
  runSearch(): Promise<void>;
  /** The next page of results, as the list is scrolled to its end. */
  loadMoreResults(): Promise<void>;
  setSort(sort: SearchSort): void;
  /** Adds a facet's filter to the box, or takes it out again. */
  toggleFacet(filter: string): void;
  /** The result for a listed key, while the box holds a query. */
  resultFor(key: string): SearchResult | undefined;
  /** Opens a listed session; a search result opens at its matching message. */
  openListed(key: string): Promise<void>;
  /** Asks for the indexing progress (at load, and again on a resync: an event missed while the stream was down). */
  loadIndexProgress(): Promise<void>;
  disposeSearch(): void;
}

type Host = SearchSlice & {
  filter: string;
  listFilters: ListFilters;
  setFilter(text: string): void;
  openSession(key: string, focus?: SearchFocus | null): Promise<void>;
};

export const SEARCH_PAGE = 100;
export const SEARCH_DEBOUNCE_MS = 150;

export function createSearchSlice(
  client: AppClient,
  set: (partial: Partial<SearchSlice>) => void,
  get: () => Host,
  debounceMs = SEARCH_DEBOUNCE_MS,
): SearchSlice {
  let seq = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let byKey: { results: SearchResult[]; map: Map<string, SearchResult> } | null = null;

  return {
    search: null,
    facets: null,
    listSort: 'updated',
    searchSort: 'relevance',
    indexProgress: null,

    scheduleSearch() {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        void get().runSearch();
      }, debounceMs);
    },

    async runSearch() {
      const mine = ++seq;
      const { filter, listFilters, search, searchSort } = get();
      const text = filter.trim();
      const query = searchQueryFor(text, listFilters);
      if (!text) {
        set({ search: null });
        try {
          const answer = await client.searchSessions({ query, facets: true, limit: 1 });
          if (mine === seq) set({ facets: answer.facets ?? null });
        } catch {
          // Facets are a help, not the list: without them the list still works.
          if (mine === seq) set({ facets: null });
        }
        return;
      }
      // A refresh of the same query keeps the pages already scrolled through.
      const limit = search?.text === text ? Math.min(1000, Math.max(SEARCH_PAGE, search.results.length)) : SEARCH_PAGE;
      if (search) set({ search: { ...search, loading: true } });
      try {
        const answer = await client.searchSessions({ query, sort: searchSort, facets: true, limit });
        if (mine !== seq) return;
        set({
          search: {
            text,
            results: answer.results,
            total: answer.total,
            totalCapped: answer.totalCapped === true,
            tookMs: answer.tookMs,
            problems: answer.problems,
            loading: false,
            loadingMore: false,
            error: null,
          },
          facets: answer.facets ?? null,
        });
      } catch (err) {
        if (mine !== seq) return;
        set({ search: { text, results: [], total: 0, tookMs: 0, problems: [], loading: false, loadingMore: false, error: describeError(err) } });
      }
    },

    async loadMoreResults() {
      const { search, filter, listFilters, searchSort } = get();
      if (!search || search.loading || search.loadingMore || search.error || search.text !== filter.trim()) return;
      if (search.results.length >= search.total && !search.totalCapped) return;
      const mine = seq;
      set({ search: { ...search, loadingMore: true } });
      try {
        const answer = await client.searchSessions({
          query: searchQueryFor(search.text, listFilters),
          sort: searchSort,
          limit: SEARCH_PAGE,
          offset: search.results.length,
        });
        const now = get().search;
        if (mine !== seq || !now) return;
        const seen = new Set(now.results.map((r) => r.summary.key));
        const added = answer.results.filter((r) => !seen.has(r.summary.key));
        // An empty page means the total shrank meanwhile (or a capped count reached the end): stop asking.
        const results = [...now.results, ...added];
        const total = added.length === 0 ? now.results.length : Math.max(answer.total, results.length);
        const totalCapped = added.length > 0 && answer.totalCapped === true;
        set({ search: { ...now, results, total, totalCapped, loadingMore: false } });
      } catch (err) {
        const now = get().search;
        if (mine === seq && now) set({ search: { ...now, loadingMore: false, error: describeError(err) } });
      }
    },

    setSort(sort) {
      if (get().filter.trim()) {
        set({ searchSort: sort });
        void get().runSearch();
      } else if (sort !== 'relevance') {
        set({ listSort: sort === 'date' ? 'updated' : sort });
      }
    },

    toggleFacet(filter) {
      get().setFilter(toggleFilter(get().filter, filter));
    },

    resultFor(key) {
      const search = get().search;
      if (!search || !get().filter.trim()) return undefined;
      if (byKey?.results !== search.results) byKey = { results: search.results, map: new Map(search.results.map((r) => [r.summary.key, r])) };
      return byKey.map.get(key);
    },

    async openListed(key) {
      const result = get().resultFor(key);
      const search = get().search;
      const focus =
        result && search && result.messageIndex !== null ? { messageIndex: result.messageIndex, terms: highlightTerms(search.text, result.snippet) } : null;
      await get().openSession(key, focus);
    },

    async loadIndexProgress() {
      try {
        const before = get().indexProgress;
        const progress = await client.getIndexProgress();
        // An event that arrived meanwhile is newer than this answer; otherwise the answer replaces what an event missed left.
        if (get().indexProgress === before) set({ indexProgress: progress });
      } catch {
        // An older service without progress: there is simply no bar.
      }
    },

    disposeSearch() {
      seq++;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
