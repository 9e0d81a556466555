// What the list shows: every session in the chosen order, or the search's results while the box holds a query.
import type { SearchResult, SearchSort } from '../shared/search-api.ts';
import type { SessionSummary } from '../shared/session.ts';
import { filterSessions, visibleSessions } from './components/search/session-filter.ts';

/** The list's own orders (newest or largest first); search results may also be ordered by relevance. */
export type ListSort = Exclude<SearchSort, 'relevance' | 'date'>;
export const LIST_SORTS: readonly ListSort[] = ['updated', 'created', 'size', 'tokens', 'cost'];
export const SORT_LABELS: Record<SearchSort, string> = {
  relevance: 'Relevance',
  date: 'Updated',
  updated: 'Updated',
  created: 'Created',
  size: 'Size',
  tokens: 'Tokens',
  cost: 'Cost',
};

function time(iso: string | null, fallback: number): number {
  const t = iso ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(t) ? fallback : t;
}

function sortValue(s: SessionSummary, sort: ListSort): number {
  switch (sort) {
    case 'updated':
      return time(s.updatedAt, s.mtimeMs);
    case 'created':
      return time(s.createdAt, time(s.updatedAt, s.mtimeMs));
    case 'size':
      return s.size;
    case 'tokens':
      return s.totalTokens ?? -1;
    case 'cost':
      return s.costUsd ?? -1;
  }
}

/** Newest or largest first, unreadable files after every readable session; ties by key so the order is stable between refreshes. */
export function sortSessions(sessions: readonly SessionSummary[], sort: ListSort): SessionSummary[] {
  const keyed = sessions.map((s) => ({ s, v: sortValue(s, sort), broken: Number(s.unreadable !== null) }));
  // Unreadable files last, whatever the order: their file time is no session's time.
  keyed.sort((a, b) => a.broken - b.broken || b.v - a.v || a.s.key.localeCompare(b.s.key));
  return keyed.map((k) => k.s);
}

/** The search's answer for the text now in the box (or an older one while the next is on its way). */
export interface SearchView {
  /** The box's text these results answer. */
  text: string;
  results: SearchResult[];
  total: number;
  /** The store stopped counting (a team store counts up to a cap): `total` is a lower bound and more may load. */
  totalCapped?: boolean;
  tookMs: number;
  problems: string[];
  loading: boolean;
  loadingMore: boolean;
  error: string | null;
}

export interface ShownState {
  sessions: SessionSummary[];
  filter: string;
  listSort: ListSort;
  search: SearchView | null;
}

let lastSorted: { sessions: readonly SessionSummary[]; sort: ListSort; out: SessionSummary[] } | null = null;
let lastSearch: { search: SearchView; sessions: readonly SessionSummary[]; filter: string; out: SessionSummary[] } | null = null;

/**
 * Search results first; once every page is in, sessions whose title or id holds the typed words but
 * that the index did not return (unreadable files, say) follow, as the old filter box found them.
 */
function searchRows(search: SearchView, sessions: readonly SessionSummary[], filter: string): SessionSummary[] {
  const found = search.results.map((r) => r.summary);
  if (search.results.length < search.total) return found;
  const seen = new Set(found.map((s) => s.key));
  return [...found, ...filterSessions(sessions, filter).filter((s) => !seen.has(s.key))];
}

/** Memoised on its inputs, so selectors return the same array between unrelated updates. */
export function shownSessions(state: ShownState): SessionSummary[] {
  if (!state.filter.trim()) {
    if (lastSorted?.sessions !== state.sessions || lastSorted.sort !== state.listSort) {
      lastSorted = { sessions: state.sessions, sort: state.listSort, out: sortSessions(state.sessions, state.listSort) };
    }
    return lastSorted.out;
  }
  const search = state.search;
  // Until the first answer arrives, or when searching failed, the typed words filter the list here.
  if (!search || search.error !== null) return visibleSessions(state.sessions, state.filter);
  if (lastSearch?.search !== search || lastSearch.sessions !== state.sessions || lastSearch.filter !== state.filter) {
    lastSearch = { search, sessions: state.sessions, filter: state.filter, out: searchRows(search, state.sessions, state.filter) };
  }
  return lastSearch.out;
}
