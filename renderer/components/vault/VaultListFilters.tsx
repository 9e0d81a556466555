// Vault filters above the list: starred, kept and one tag, answered by the service (the text filter still narrows them).
import { useMemo } from 'react';
import { useAppStore } from '../../store/store-context.ts';

export function VaultListFilters() {
  const filters = useAppStore((s) => s.listFilters);
  const setListFilters = useAppStore((s) => s.setListFilters);
  const sessions = useAppStore((s) => s.sessions);
  const loaded = useAppStore((s) => s.loaded);
  const tags = useMemo(() => {
    const all = new Set<string>();
    for (const s of sessions) for (const t of s.tags) all.add(t);
    if (filters.tag) all.add(filters.tag);
    return [...all].sort((a, b) => a.localeCompare(b));
  }, [sessions, filters.tag]);
  const any = filters.starred || filters.kept || filters.tag !== null;

  return (
    <div className="list-filters" data-testid="list-filters">
      <button
        type="button"
        className="filter-chip"
        data-testid="filter-starred"
        aria-pressed={filters.starred}
        onClick={() => setListFilters({ starred: !filters.starred })}
      >
        ★ Starred
      </button>
      <button
        type="button"
        className="filter-chip"
        data-testid="filter-kept"
        aria-pressed={filters.kept}
        onClick={() => setListFilters({ kept: !filters.kept })}
      >
        Kept
      </button>
      {(tags.length > 0 || filters.tag) && (
        <select
          data-testid="filter-tag"
          aria-label="Show only sessions with this tag"
          className={filters.tag ? 'filter-select active' : 'filter-select'}
          value={filters.tag ?? ''}
          onChange={(e) => setListFilters({ tag: e.target.value || null })}
        >
          <option value="">Any tag</option>
          {tags.map((t) => (
            <option key={t} value={t}>
              #{t}
            </option>
          ))}
        </select>
      )}
      {any && (
        <button type="button" className="link-button" data-testid="filter-clear" onClick={() => setListFilters({ starred: false, kept: false, tag: null })}>
          Clear
        </button>
      )}
      {any && loaded && sessions.length === 0 && <p className="muted list-note">No session matches these filters.</p>}
    </div>
  );
}
