// Counts per facet under the search box (behind "Refine"); a chip adds its filter to the query, a second click takes it out;
// the date fields set a custom range.
import { useState, type ReactNode } from 'react';
import type { FacetValue, Facets } from '../../../shared/search-api.ts';
import { dateOf, hasFilter, withDate } from '../../search-query.ts';
import { useAppStore } from '../../store/store-context.ts';
import { formatLabel } from '../../format.ts';
import type { SourceFormat } from '../../../shared/session.ts';

/** A facet's name: the local ones, and a team store's machine and user. */
type FacetName = keyof Facets;

const GROUPS: ReadonlyArray<{ name: FacetName; label: string }> = [
  { name: 'machine', label: 'Machine' },
  { name: 'user', label: 'Pushed by' },
  { name: 'source', label: 'Source' },
  { name: 'project', label: 'Project' },
  { name: 'branch', label: 'Branch' },
  { name: 'status', label: 'Status' },
  { name: 'outcome', label: 'Outcome' },
  { name: 'model', label: 'Model' },
  { name: 'tag', label: 'Tag' },
  { name: 'date', label: 'When' },
  { name: 'tokens', label: 'Tokens' },
  { name: 'cost', label: 'Cost' },
  { name: 'summary', label: 'Summary' },
];

/** Chips shown per facet before "more". */
const FIRST = 5;

function chipLabel(name: FacetName, value: string): string {
  if (name === 'source') return formatLabel(value as SourceFormat);
  return name === 'tag' ? `#${value}` : value;
}

/** A custom date range: the query's `after:` and `before:` days, set or cleared from date fields. */
function DateRange(props: { query: string; onChange(query: string): void }) {
  const field = (name: 'after' | 'before', label: string) => (
    <input
      type="date"
      className="facet-date"
      data-testid={`date-${name}`}
      aria-label={label}
      title={label}
      value={dateOf(props.query, name)}
      onChange={(e) => props.onChange(withDate(props.query, name, e.target.value))}
    />
  );
  return (
    <span className="facet-range">
      {field('after', 'Active on or after this day')}
      <span className="muted">to</span>
      {field('before', 'Active on or before this day')}
    </span>
  );
}

function FacetGroup(props: { name: FacetName; label: string; values: FacetValue[]; query: string; onToggle(filter: string): void; children?: ReactNode }) {
  const [all, setAll] = useState(false);
  const { name, values, query } = props;
  // Active filters stay visible even when they fall beyond the first few.
  const shown = all ? values : values.filter((v, i) => i < FIRST || hasFilter(query, v.filter));
  return (
    <div className="facet-group" data-testid="facet-group" data-facet={name}>
      <span className="facet-name muted">{props.label}</span>
      <span className="facet-values">
        {shown.map((v) => {
          const active = hasFilter(query, v.filter);
          return (
            <button
              key={v.filter}
              type="button"
              className="filter-chip facet-chip"
              data-testid="facet"
              data-filter={v.filter}
              aria-pressed={active}
              title={active ? `Remove ${v.filter} from the search` : `Search ${v.filter}`}
              onClick={() => props.onToggle(v.filter)}
            >
              {chipLabel(name, v.value)} <span className="facet-count">{v.count.toLocaleString()}</span>
            </button>
          );
        })}
        {values.length > shown.length && (
          <button type="button" className="link-button facet-more" onClick={() => setAll(true)}>
            +{values.length - shown.length} more
          </button>
        )}
        {props.children}
      </span>
    </div>
  );
}

/** Where the panel's open/closed state is remembered between runs. */
const OPEN_KEY = 'session-vault.facets-open';

function rememberedOpen(): boolean {
  try {
    return globalThis.localStorage?.getItem(OPEN_KEY) === '1';
  } catch {
    return false;
  }
}

function rememberOpen(open: boolean): void {
  try {
    globalThis.localStorage?.setItem(OPEN_KEY, open ? '1' : '0');
  } catch {
    // Storage refused (private window, quota): the choice lasts for this run only.
  }
}

export function FacetPanel() {
  const facets = useAppStore((s) => s.facets);
  const query = useAppStore((s) => s.filter);
  const toggleFacet = useAppStore((s) => s.toggleFacet);
  const setFilter = useAppStore((s) => s.setFilter);
  // Closed until asked for: counts arriving after the list must not push its rows from under the pointer.
  const [open, setOpen] = useState(rememberedOpen);
  // The date group stays for its range fields when no preset range holds a match.
  const groups = facets ? GROUPS.filter((g) => g.name === 'date' || (facets[g.name]?.length ?? 0) > 0) : [];
  const toggle = () => {
    rememberOpen(!open);
    setOpen(!open);
  };
  return (
    <div className="facets" data-testid="facets">
      <button type="button" className="link-button facets-toggle" data-testid="facets-toggle" aria-expanded={open} onClick={toggle}>
        {open ? '▾' : '▸'} Refine
      </button>
      {open && facets === null && <span className="muted facets-note"> counting…</span>}
      {open && groups.length > 0 && (
        // Scrolls within a bounded height (search.css), so the list below keeps its rows.
        <div className="facet-groups" data-testid="facet-groups">
          {groups.map((g) => (
            <FacetGroup key={g.name} name={g.name} label={g.label} values={facets?.[g.name] ?? []} query={query} onToggle={toggleFacet}>
              {g.name === 'date' && <DateRange query={query} onChange={setFilter} />}
            </FacetGroup>
          ))}
        </div>
      )}
    </div>
  );
}
