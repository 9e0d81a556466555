// Implements searchSessions and the list's text box over the index, with what only the vault knows (stars, tags, kept).
import type { SessionSummary } from '../../shared/session.ts';
import type { Facets, SearchResult, SearchSort } from '../../shared/search-api.ts';
import { emptyFacets } from '../../shared/contract-values.ts';
import type { CatalogueEntry, Decorate, ListQuery } from '../catalogue/catalogue.ts';
import type { HiddenPaths } from '../catalogue/hidden-paths.ts';
import { indexGeneration } from './index-generation.ts';
import type { IndexedCatalogue } from './indexed-catalogue.ts';
import { countFacets } from './facets.ts';
import { hasWords, indexHolds, matchingKeys, searchIndex } from './index-search.ts';
import { parseQuery, type Filters, type ParsedQuery } from './query-parser.ts';
import { buildMatch, type MatchLimits } from './search.ts';
import { summaryMatches, summarySnippet, withSummaryKeys, type VaultSummaryTexts } from './summary-match.ts';

export interface SearchInput {
  query: string;
  limit?: number;
  offset?: number;
  sort?: SearchSort | undefined;
  facets?: boolean | undefined;
}

export interface SearchOutput {
  results: SearchResult[];
  total: number;
  problems: string[];
  tookMs: number;
  facets?: Facets;
}

/** Which indexed files the list does not show, worked out once per change to the index. */
interface ListingView {
  generation: string;
  /** Kept copies whose live file exists (the session is listed once, as the live file). */
  shadowed: number[];
  /** Those, plus sub-agents whose parent is listed (the list shows them under it). */
  shadowedAndChildren: number[];
  childCounts: ReadonlyMap<string, number>;
  /** The catalogue's paths the ids are of. */
  hidden: HiddenPaths;
}

const views = new WeakMap<IndexedCatalogue, ListingView>();

/**
 * The ids of what the catalogue hides (Catalogue.hiddenPaths), looked up again only when the index or those paths
 * changed: not for the dashboard's temporary tables, nor for a session that grew (at 100,000 sessions, walking every
 * entry and looking up each sub-agent's id one by one took ~200 ms after every write while an agent was working).
 */
export function listingView(catalogue: IndexedCatalogue): ListingView {
  // Writes land through this connection (an in-memory index) or the writer thread's (data_version moves then).
  const generation = indexGeneration(catalogue.index, (sql) => catalogue.index.statement(sql));
  const hidden = catalogue.hiddenPaths();
  const cached = views.get(catalogue);
  if (cached?.generation === generation && cached.hidden === hidden) return cached;
  const idsOf = catalogue.index.statement('SELECT f.id AS id FROM json_each(?) j JOIN files f ON f.path = j.value');
  const ids = (paths: readonly string[]) => (paths.length ? (idsOf.all(JSON.stringify(paths)) as Array<{ id: number }>).map((r) => r.id) : []);
  const shadowed = ids(hidden.shadowed);
  const view = { generation, hidden, shadowed, shadowedAndChildren: [...shadowed, ...ids(hidden.children)], childCounts: hidden.childCounts };
  views.set(catalogue, view);
  return view;
}

/** The rows as the list shows them, in the hits' order: vault copies and annotations applied, summaries read in one go. */
function listedRows<H extends { key: string; path: string }>(
  catalogue: IndexedCatalogue,
  hits: readonly H[],
  decorate: Decorate,
  childCounts: ReadonlyMap<string, number>,
): Array<{ hit: H; summary: SessionSummary }> {
  const shown: Array<{ hit: H; entry: CatalogueEntry }> = [];
  for (const hit of hits) {
    const entry = catalogue.byKey(hit.key);
    // A kept copy whose live file exists is listed once, as the live file; stale keys drop out.
    if (entry && entry.path === hit.path) shown.push({ hit, entry });
  }
  const summaries = catalogue.summariesOf(shown.map((s) => s.entry));
  return shown.map(({ hit, entry }, i) => {
    const s = summaries[i] as SessionSummary;
    const kind = catalogue.kindOf(entry.path);
    const summary = decorate({
      ...s,
      childCount: Math.max(s.childCount, childCounts.get(hit.key) ?? 0),
      kept: kind !== null || catalogue.keptCopy(hit.key) !== undefined,
      sourceGone: kind === 'copy',
    });
    return { hit, summary };
  });
}

export const hasVaultFilter = (f: Filters) => f.starred !== undefined || f.kept !== undefined || f.tags.length > 0;

/**
 * The user's own marks on a session (null when it has none): what the vault filters and the tag facet read; with
 * `summaries`, the vault's session summaries, which `has:summary` counts and whose words a search finds.
 */
export type Annotated = ((key: string) => { starred: boolean; tags: readonly string[] } | null) & { readonly summaries?: VaultSummaryTexts };

/** What only the vault knows, read from every listed session: the keys the vault filters allow, and every session's tags. */
export function vaultFacts(
  catalogue: IndexedCatalogue,
  f: Filters,
  annotated: Annotated,
  wantTags: boolean,
): { onlyKeys: string[] | undefined; tagsByKey: Map<string, string[]> } {
  const filtering = hasVaultFilter(f);
  const onlyKeys: string[] = [];
  const tagsByKey = new Map<string, string[]>();
  const wanted = f.tags.map((t) => t.toLowerCase());
  for (const { path, key } of catalogue.entries()) {
    if (catalogue.byKey(key)?.path !== path) continue;
    const marks = annotated(key);
    const tags = marks?.tags ?? [];
    if (wantTags && tags.length) tagsByKey.set(key, [...tags]);
    if (!filtering) continue;
    if (f.starred !== undefined && (marks?.starred ?? false) !== f.starred) continue;
    if (f.kept !== undefined && (catalogue.kindOf(path) !== null || catalogue.keptCopy(key) !== undefined) !== f.kept) continue;
    if (wanted.some((tag) => !tags.some((t) => t.toLowerCase() === tag))) continue;
    onlyKeys.push(key);
  }
  return { onlyKeys: filtering ? onlyKeys : undefined, tagsByKey };
}

/**
 * Searches, or with no words lists every session the filters allow (as the list does: sub-agents under their
 * parent), sorted and paged in SQL; with `facets`, counts per facet over every match.
 */
export function searchSessions(catalogue: IndexedCatalogue, input: SearchInput, decorate: Decorate, annotated: Annotated): SearchOutput {
  const t0 = performance.now();
  const parsed = withSummaryKeys(parseQuery(input.query), annotated.summaries);
  const view = listingView(catalogue);
  const facts = hasVaultFilter(parsed.filters) || input.facets ? vaultFacts(catalogue, parsed.filters, annotated, input.facets === true) : null;
  const bySummary = summaryMatches(annotated.summaries, parsed, (key, terms) => indexHolds(catalogue.index, key, terms));
  const limits: MatchLimits = { excludeIds: hasWords(parsed) ? view.shadowed : view.shadowedAndChildren, onlyKeys: facts?.onlyKeys, alsoKeys: bySummary };
  const page = searchIndex(catalogue.index, parsed, { limit: input.limit ?? 50, offset: input.offset ?? 0, sort: input.sort, limits });
  const results: SearchResult[] = listedRows(catalogue, page.hits, decorate, view.childCounts).map(({ hit, summary }) => ({
    summary,
    // Found through its vault summary alone: the snippet comes from the summary.
    snippet:
      (!hit.snippet.some((p) => p.hit) && bySummary.includes(hit.key) ? summarySnippet(annotated.summaries, hit.key, parsed.terms) : null) ?? hit.snippet,
    messageIndex: hit.messageIndex,
    score: hit.score,
  }));
  let facets: Facets | undefined;
  if (input.facets) {
    const m = buildMatch(parsed, limits);
    facets = m ? countFacets(catalogue.index, m, facts?.tagsByKey ?? new Map(), Date.now(), annotated.summaries?.keys() ?? []) : emptyFacets();
  }
  return { results, total: page.total, problems: page.problems, tookMs: Math.round((performance.now() - t0) * 10) / 10, ...(facets ? { facets } : {}) };
}

/** The list without text: its filters as SQL over the index, newest first, and only the rows asked for read. */
function listFromIndex(catalogue: IndexedCatalogue, query: ListQuery, decorate: Decorate, annotated: Annotated): { sessions: SessionSummary[]; total: number } {
  const { page, childCounts } = listedHits(catalogue, query, annotated);
  return { sessions: listedRows(catalogue, page.hits, decorate, childCounts).map((r) => r.summary), total: page.total };
}

/**
 * The whole list (listWithIndex's rows for a query without text, limit or offset), `size` rows at a time: what prints
 * a long list, holding one batch's summaries at once rather than every session's.
 */
export function* listInBatches(
  catalogue: IndexedCatalogue,
  query: Omit<ListQuery, 'text' | 'limit' | 'offset'>,
  decorate: Decorate,
  annotated: Annotated,
  size: number,
): Generator<SessionSummary[]> {
  const { page, childCounts } = listedHits(catalogue, query, annotated);
  for (let i = 0; i < page.hits.length; i += size) yield listedRows(catalogue, page.hits.slice(i, i + size), decorate, childCounts).map((r) => r.summary);
}

/** The list's page of hits (keys and paths, in the list's order) with the sub-agent counts its rows take. */
function listedHits(catalogue: IndexedCatalogue, query: ListQuery, annotated: Annotated) {
  const filters: Filters = {
    tags: query.tag ? [query.tag] : [],
    ...(query.format ? { source: query.format } : {}),
    ...(query.starred !== undefined ? { starred: query.starred } : {}),
    ...(query.kept !== undefined ? { kept: query.kept } : {}),
  };
  const view = listingView(catalogue);
  const facts = hasVaultFilter(filters) ? vaultFacts(catalogue, filters, annotated, false) : null;
  const touched = query.keys ? touchedKeys(catalogue, query.keys) : null;
  const onlyKeys = touched && facts?.onlyKeys ? facts.onlyKeys.filter((k) => touched.has(k)) : (facts?.onlyKeys ?? (touched ? [...touched] : undefined));
  const limits: MatchLimits = { excludeIds: query.includeChildren ? view.shadowed : view.shadowedAndChildren, onlyKeys };
  const parsed: ParsedQuery = { terms: [], filters, sort: null, problems: [] };
  const page = searchIndex(catalogue.index, parsed, { limit: query.limit ?? Number.MAX_SAFE_INTEGER, offset: query.offset ?? 0, sort: 'updated', limits });
  return { page, childCounts: view.childCounts };
}

/** Changed keys and the parents they are listed under (a new sub-agent changes its parent's count). */
function touchedKeys(catalogue: IndexedCatalogue, keys: readonly string[]): Set<string> {
  const out = new Set(keys);
  for (const key of keys) {
    const parent = catalogue.byKey(key)?.parentKey;
    if (parent) out.add(parent);
  }
  return out;
}

/** The list's text box: the old substring match over titles and ids, plus everything the index finds. */
export function listWithIndex(
  catalogue: IndexedCatalogue,
  query: ListQuery,
  decorate: Decorate,
  annotated: Annotated,
): { sessions: SessionSummary[]; total: number } {
  const text = query.text?.trim();
  if (!text) return listFromIndex(catalogue, query, decorate, annotated);
  const byIndex = matchingKeys(catalogue.index, text);
  const bySubstring = new Set(catalogue.list({ ...query, limit: undefined, offset: undefined }, decorate).sessions.map((s) => s.key));
  const all = catalogue.list({ ...query, text: undefined, limit: undefined, offset: undefined }, decorate).sessions;
  const touched = query.keys ? touchedKeys(catalogue, query.keys) : null;
  const matches = all.filter((s) => (bySubstring.has(s.key) || byIndex.has(s.key)) && (!touched || touched.has(s.key)));
  const offset = query.offset ?? 0;
  return { sessions: matches.slice(offset, offset + (query.limit ?? matches.length)), total: matches.length };
}
