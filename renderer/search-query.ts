// The search box's text as the service is asked it: vault chips folded in, facet filters toggled, words to highlight.
import type { SnippetPart } from '../shared/search-api.ts';
import type { ListFilters } from './store/store-vault.ts';

function quoted(value: string): string {
  return /[\s"]/.test(value) ? `"${value.replaceAll('"', '')}"` : value;
}

/** The typed text plus the vault chips above the list (starred, kept, one tag) in query syntax. */
export function searchQueryFor(text: string, filters: ListFilters): string {
  const parts = [text.trim()];
  if (filters.starred) parts.push('is:starred');
  if (filters.kept) parts.push('is:kept');
  if (filters.tag) parts.push(`tag:${quoted(filters.tag)}`);
  return parts.filter(Boolean).join(' ');
}

/** Pieces of a query: quoted runs stay whole, so `project:"my app"` is one piece. */
function pieces(query: string): string[] {
  return query.match(/-?[a-zA-Z]+:"[^"]*"?|-?"[^"]*"?|\S+/g) ?? [];
}

export function hasFilter(query: string, filter: string): boolean {
  return pieces(query).some((p) => p.toLowerCase() === filter.toLowerCase());
}

/** Filters the query holds one of (the parser keeps the last given); tags and is: add up instead. */
const SINGLE = new Set(['source', 'format', 'project', 'branch', 'status', 'outcome', 'model', 'after', 'before', 'has']);

/** What a filter piece sets, so another piece setting the same can replace it: `after`, `tokens>`; null for words and tags. */
function filterKey(piece: string): string | null {
  const comparison = /^(tokens|cost)(>|<|=)/i.exec(piece);
  if (comparison) return `${(comparison[1] as string).toLowerCase()}${comparison[2]}`;
  const name = /^([a-zA-Z]+):/.exec(piece)?.[1]?.toLowerCase();
  if (!name || !SINGLE.has(name)) return null;
  return name === 'format' ? 'source' : name;
}

/**
 * Adds a facet's filter to the query, or takes it out when it is already there. A filter the query can hold only
 * one of (a source, a date, a least number of tokens) replaces the one there.
 */
export function toggleFilter(query: string, filter: string): string {
  const all = pieces(query);
  const kept = all.filter((p) => p.toLowerCase() !== filter.toLowerCase());
  if (kept.length < all.length) return kept.join(' ');
  const key = filterKey(filter);
  return [...all.filter((p) => key === null || filterKey(p) !== key), filter].join(' ');
}

/** The query with its `after:` or `before:` date set to `day` (YYYY-MM-DD), or taken out when `day` is empty. */
export function withDate(query: string, name: 'after' | 'before', day: string): string {
  const rest = pieces(query).filter((p) => filterKey(p) !== name);
  return [...rest, ...(day ? [`${name}:${day}`] : [])].join(' ');
}

/** The day (YYYY-MM-DD) of the query's `after:` or `before:` filter, or '' when it has none or gives it otherwise (`after:7d`). */
export function dateOf(query: string, name: 'after' | 'before'): string {
  const piece = pieces(query)
    .filter((p) => filterKey(p) === name)
    .at(-1);
  const day = piece?.slice(name.length + 1) ?? '';
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : '';
}

const FILTER_PIECE = /^-|^[a-zA-Z]+(:|[<>]=?)/;

/** The words to mark in an opened session: what the snippet matched, plus the query's own words and phrases. */
export function highlightTerms(query: string, snippet: readonly SnippetPart[]): string[] {
  const out = new Set<string>();
  for (const part of snippet) if (part.hit && part.text.trim()) out.add(part.text.trim().toLowerCase());
  for (const piece of pieces(query)) {
    if (FILTER_PIECE.test(piece)) continue;
    const word = piece.replace(/^"|"$/g, '').replace(/\*$/, '').trim().toLowerCase();
    if (word.length > 1) out.add(word);
  }
  return [...out];
}
