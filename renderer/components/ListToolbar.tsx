// Above the list: the sort control; while searching how many sessions matched, how fast, and what could not be used; how far a long list has loaded.
import type { SearchSort } from '../../shared/search-api.ts';
import { LIST_SORTS, SORT_LABELS } from '../shown-sessions.ts';
import { plural } from '../format.ts';
import { useAppStore } from '../store/store-context.ts';

export function ListToolbar() {
  const searching = useAppStore((s) => s.filter.trim() !== '');
  const search = useAppStore((s) => s.search);
  const listSort = useAppStore((s) => s.listSort);
  const searchSort = useAppStore((s) => s.searchSort);
  const setSort = useAppStore((s) => s.setSort);
  const options: readonly SearchSort[] = searching ? ['relevance', ...LIST_SORTS] : LIST_SORTS;
  const value = searching ? (searchSort === 'date' ? 'updated' : searchSort) : listSort;
  const answered = searching && search !== null && search.error === null;
  const paging = useAppStore((s) => s.listPaging);

  return (
    <div className="list-toolbar">
      <div className="list-toolbar-line">
        <label className="sort-control">
          <span className="muted">Sort</span>
          <select data-testid="sort" aria-label="Sort sessions by" value={value} onChange={(e) => setSort(e.target.value as SearchSort)}>
            {options.map((o) => (
              <option key={o} value={o}>
                {SORT_LABELS[o]}
              </option>
            ))}
          </select>
        </label>
        <span className="spacer" />
        {answered && (
          <span className="muted search-stats" data-testid="search-stats" aria-live="polite">
            {search.totalCapped ? `${search.total.toLocaleString()}+ results` : plural(search.total, 'result')} ·{' '}
            {search.tookMs < 10 ? search.tookMs.toFixed(1) : Math.round(search.tookMs)} ms
            {search.loading ? ' · searching…' : ''}
          </span>
        )}
        {searching && search === null && <span className="muted search-stats">Searching…</span>}
        {!searching && paging && (
          <span className="muted search-stats" data-testid="list-paging" aria-live="polite">
            Loading the list… {paging.loaded.toLocaleString()} of {plural(paging.total, 'session')}
          </span>
        )}
      </div>
      {searching && search?.error && (
        <p className="search-problem error-text" role="alert" data-testid="search-error">
          Search did not answer: {search.error} The list below is filtered by title and id instead.
        </p>
      )}
      {answered &&
        search.problems.map((p) => (
          <p key={p} className="search-problem warn-text" data-testid="search-problem">
            {p}
          </p>
        ))}
    </div>
  );
}
