// The search box's text as the service is asked it: vault chips folded in, facet filters toggled, words to highlight.
import type { SnippetPart } from '../shared/search-api.ts';
import type { ListFilters } from './store-vault.ts';

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

/** Adds a facet's filter to the query, or takes it out when it is already there. */
export function toggleFilter(query: string, filter: string): string {
  const all = pieces(query);
  const kept = all.filter((p) => p.toLowerCase() !== filter.toLowerCase());
  if (kept.length < all.length) return kept.join(' ');
  return [...all, filter].join(' ');
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
