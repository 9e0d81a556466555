// The keys "Share list…" exports: every readable session the list shows, including search results not yet scrolled into view.
import type { AppClient } from '../../transport/client.ts';
import { searchQueryFor } from '../../search-query.ts';
import { shownSessions, type ShownState } from '../../shown-sessions.ts';
import type { SearchSort } from '../../../shared/search-api.ts';
import type { ListFilters } from '../../store/store-vault.ts';

/** The biggest page the contract allows; a search of 1,000 results takes one more call. */
const PAGE = 1000;

export interface ShareListState extends ShownState {
  listFilters: ListFilters;
  searchSort: SearchSort;
}

/** How many sessions the list shows (search results count whole, not only the loaded pages). */
export function shownCount(state: ShareListState): number {
  const shown = shownSessions(state).filter((s) => !s.unreadable).length;
  const search = state.filter.trim() && state.search && state.search.error === null ? state.search : null;
  return search ? Math.max(shown, search.total) : shown;
}

export async function shareListKeys(client: AppClient, state: ShareListState): Promise<string[]> {
  const keys = new Set(
    shownSessions(state)
      .filter((s) => !s.unreadable)
      .map((s) => s.key),
  );
  const search = state.filter.trim() && state.search && state.search.error === null ? state.search : null;
  if (!search) return [...keys];
  const query = searchQueryFor(search.text, state.listFilters);
  for (let offset = search.results.length; offset < search.total; offset += PAGE) {
    const page = await client.searchSessions({ query, sort: state.searchSort, limit: PAGE, offset });
    for (const r of page.results) if (!r.summary.unreadable) keys.add(r.summary.key);
    if (page.results.length === 0) break; // the total shrank meanwhile
  }
  return [...keys];
}
