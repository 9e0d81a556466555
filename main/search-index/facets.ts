// Counts per facet (source, project, branch, …) over everything a query matches, each value with the filter selecting exactly it.
import type { FacetName, FacetValue, Facets } from '../../shared/search-api.ts';
import type { SessionIndex } from './index-store.ts';
import { totalAtLeast } from './search-filters.ts';
import { facetCountsSql, matchedKeysSql, type Match, type RangeCount } from './search.ts';

export const MAX_FACET_VALUES = 20;

/**
 * The query syntax selecting one value. Quoted values match whole (case-insensitive), so a facet's filter selects
 * exactly the sessions it counted; `always` quotes filters whose bare form is a substring or prefix.
 * Null for a value the syntax cannot carry (a double quote inside).
 */
export function facetFilter(name: string, value: string, always = false): string | null {
  if (value.includes('"')) return null;
  return always || !value || /\s/.test(value) ? `${name}:"${value}"` : `${name}:${value}`;
}

/** SQLite's NOCASE and LIKE fold ASCII letters only; grouping here must fold the same way. */
const foldAscii = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

const looksLikePath = (text: string) => /[/\\]/.test(text);

interface Tally {
  value: string;
  filter: string;
  count: number;
}

function add(into: Map<string, Tally>, id: string, value: string, filter: string | null, count: number): void {
  if (filter === null) return;
  const seen = into.get(id);
  if (seen) seen.count += count;
  else into.set(id, { value, filter, count });
}

const top = (tallies: Iterable<Tally>): FacetValue[] =>
  [...tallies]
    .filter((t) => t.count > 0)
    .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value))
    .slice(0, MAX_FACET_VALUES)
    .map(({ value, count, filter }) => ({ value, count, filter }));

/**
 * Projects are stored as "name\npath" (or one of them). Each project is offered by its path (by its name when it
 * has no path), shown by name, and counted with the filter's own rule (the whole name or the whole path) over the
 * grouped values, so no count needs another query.
 */
function projectFacet(rows: Array<{ value: string; n: number }>): FacetValue[] {
  const single = new Map<string, number>();
  const byName = new Map<string, number>();
  const byPath = new Map<string, number>();
  const both = new Map<string, number>();
  const bump = (map: Map<string, number>, key: string, n: number) => map.set(key, (map.get(key) ?? 0) + n);
  /** Candidate filter value (folded) → the value to filter by and the names shown for it. */
  const offered = new Map<string, { filterValue: string; names: Map<string, number> }>();
  for (const { value, n } of rows) {
    const [first = '', second] = value.split('\n');
    const path = second ?? (looksLikePath(first) ? first : null);
    const name = second !== undefined ? first : path === null ? first : null;
    if (second === undefined) bump(single, foldAscii(first), n);
    else {
      bump(byName, foldAscii(first), n);
      bump(byPath, foldAscii(second), n);
      if (foldAscii(first) === foldAscii(second)) bump(both, foldAscii(first), n);
    }
    const filterValue = path ?? name ?? '';
    const entry = offered.get(foldAscii(filterValue)) ?? { filterValue, names: new Map<string, number>() };
    bump(entry.names, name || filterValue, n);
    offered.set(foldAscii(filterValue), entry);
  }
  const tallies: Tally[] = [];
  for (const [folded, { filterValue, names }] of offered) {
    const filter = facetFilter('project', filterValue, true);
    if (filter === null) continue;
    const count = (single.get(folded) ?? 0) + (byName.get(folded) ?? 0) + (byPath.get(folded) ?? 0) - (both.get(folded) ?? 0);
    const shown = [...names].sort((x, y) => y[1] - x[1])[0]?.[0] ?? filterValue;
    tallies.push({ value: shown, filter, count });
  }
  // Two folders with the same name are told apart by their paths.
  const seen = new Map<string, number>();
  for (const t of tallies) seen.set(t.value, (seen.get(t.value) ?? 0) + 1);
  for (const t of tallies) if ((seen.get(t.value) ?? 0) > 1 && looksLikePath(t.filter)) t.value = t.filter.slice('project:"'.length, -1);
  return top(tallies);
}

const HOUR_MS = 3_600_000;

/**
 * The ranges offered beside the facets, in the order shown, each with its filter (the query syntax the parser reads
 * the same way) and the condition counting it over the matches' facet columns.
 */
function ranges(
  now: number,
  summarized: readonly string[],
): Array<{ facet: 'date' | 'tokens' | 'cost' | 'summary'; value: string; filter: string } & RangeCount> {
  const since = (value: string, filter: string, hours: number) => ({
    facet: 'date' as const,
    value,
    filter,
    condition: 'time_ms >= ?',
    params: [now - hours * HOUR_MS],
  });
  // Totals with sub-agents, as the filter the range puts in the box compares (search-filters.ts).
  const atLeast = (facet: 'tokens' | 'cost', value: string, filter: string, column: 'tokens' | 'cost', n: number) => ({
    facet,
    value,
    filter,
    condition: totalAtLeast(column, ''),
    params: [n, n],
  });
  return [
    since('Past 24 hours', 'after:24h', 24),
    since('Past 7 days', 'after:7d', 7 * 24),
    since('Past 30 days', 'after:30d', 30 * 24),
    since('Past year', 'after:365d', 365 * 24),
    atLeast('tokens', '10k+', 'tokens>=10k', 'tokens', 10_000),
    atLeast('tokens', '100k+', 'tokens>=100k', 'tokens', 100_000),
    atLeast('tokens', '1M+', 'tokens>=1m', 'tokens', 1_000_000),
    atLeast('cost', '$1+', 'cost>=1', 'cost', 1),
    atLeast('cost', '$10+', 'cost>=10', 'cost', 10),
    // A summary in the session's own file, or one the vault holds (as has:summary matches them, search-filters.ts).
    {
      facet: 'summary',
      value: 'Has a summary',
      filter: 'has:summary',
      condition: '(has_summary = 1 OR key IN (SELECT value FROM json_each(?)))',
      params: [JSON.stringify(summarized)],
    },
  ];
}

/**
 * Facets over a query's matches; `tagsByKey` holds the vault's tags of every session that has any. `now` is what
 * the date ranges (`after:7d`) count back from.
 */
export function countFacets(
  index: SessionIndex,
  m: Match,
  tagsByKey: ReadonlyMap<string, readonly string[]>,
  now = Date.now(),
  summarized: readonly string[] = [],
): Facets {
  const offered = ranges(now, summarized);
  const built = facetCountsSql(m, offered);
  const rows = index.statement(built.sql).all(...built.params) as Array<{ facet: FacetName | 'ranges'; value: string; n: number }>;
  const rangeCounts = JSON.parse(rows.find((r) => r.facet === 'ranges')?.value ?? '[]') as number[];
  // Nested ranges (the past day is in the past week) keep their order; a range nothing is in is left out.
  const range = (facet: 'date' | 'tokens' | 'cost' | 'summary'): FacetValue[] =>
    offered.flatMap((r, i) => (r.facet === facet && (rangeCounts[i] ?? 0) > 0 ? [{ value: r.value, filter: r.filter, count: rangeCounts[i] as number }] : []));
  const of = (facet: FacetName) => rows.filter((r) => r.facet === facet);
  const simple = (facet: FacetName, always: boolean, name: string = facet): FacetValue[] => {
    const tallies = new Map<string, Tally>();
    for (const { value, n } of of(facet)) add(tallies, foldAscii(value), value, facetFilter(name, value, always), n);
    return top(tallies.values());
  };
  const tags = new Map<string, Tally>();
  if (tagsByKey.size) {
    const keys = matchedKeysSql(m, [...tagsByKey.keys()]);
    for (const { key } of index.statement(keys.sql).all(...keys.params) as Array<{ key: string }>) {
      // The tag filter compares case-insensitively, as JavaScript folds case.
      const distinct = new Map((tagsByKey.get(key) ?? []).map((tag) => [tag.toLowerCase(), tag]));
      for (const [folded, tag] of distinct) add(tags, folded, tag, facetFilter('tag', tag), 1);
    }
  }
  return {
    source: simple('source', false),
    project: projectFacet(of('project')),
    branch: simple('branch', true),
    status: simple('status', false),
    outcome: simple('outcome', false),
    model: simple('model', true),
    tag: top(tags.values()),
    date: range('date'),
    tokens: range('tokens'),
    cost: range('cost'),
    summary: range('summary'),
  };
}
