// Implements searchSessions and the list's text box over the index, with what only the vault knows (stars, tags, kept).
import type { SessionSummary } from '../../shared/session.ts';
import type { Facets, SearchResult, SearchSort } from '../../shared/search-api.ts';
import type { Decorate, ListQuery } from '../catalogue/catalogue.ts';
import type { IndexedCatalogue } from './indexed-catalogue.ts';
import { countFacets } from './facets.ts';
import { hasWords, matchingKeys, searchIndex } from './index-search.ts';
import { parseQuery, type Filters } from './query-parser.ts';
import { buildMatch, type MatchLimits } from './search.ts';

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
  childCounts: Map<string, number>;
}

const views = new WeakMap<IndexedCatalogue, ListingView>();

function listingView(catalogue: IndexedCatalogue): ListingView {
  // Writes land through this connection (an in-memory index) or the writer thread's (data_version moves then).
  const v = catalogue.index.statement('SELECT total_changes() AS c, (SELECT data_version FROM pragma_data_version) AS d').get() as { c: number; d: number };
  const generation = `${v.c}:${v.d}:${catalogue.size}`;
  const cached = views.get(catalogue);
  if (cached?.generation === generation) return cached;
  const shadowedPaths: string[] = [];
  const childPaths: string[] = [];
  const childCounts = new Map<string, number>();
  for (const { path, summary } of catalogue.entries()) {
    if (summary.parentKey) childCounts.set(summary.parentKey, (childCounts.get(summary.parentKey) ?? 0) + 1);
    if (catalogue.byKey(summary.key)?.path !== path) shadowedPaths.push(path);
    else if (summary.parentKey && catalogue.byKey(summary.parentKey)) childPaths.push(path);
  }
  const idOf = catalogue.index.statement('SELECT id FROM files WHERE path = ?');
  const ids = (paths: string[]) => paths.map((p) => (idOf.get(p) as { id: number } | undefined)?.id).filter((id): id is number => id !== undefined);
  const shadowed = ids(shadowedPaths);
  const view = { generation, shadowed, shadowedAndChildren: [...shadowed, ...ids(childPaths)], childCounts };
  views.set(catalogue, view);
  return view;
}

/** The summary as the list shows it: vault copies and annotations applied. */
function listed(catalogue: IndexedCatalogue, key: string, path: string, decorate: Decorate, childCounts: Map<string, number>): SessionSummary | null {
  const entry = catalogue.byKey(key);
  // A kept copy whose live file exists is listed once, as the live file; stale keys drop out.
  if (!entry || entry.path !== path) return null;
  const kind = catalogue.kindOf(path);
  const s = entry.summary;
  return decorate({
    ...s,
    childCount: Math.max(s.childCount, childCounts.get(key) ?? 0),
    kept: kind !== null || catalogue.keptCopy(key) !== undefined,
    sourceGone: kind === 'copy',
  });
}

const hasVaultFilter = (f: Filters) => f.starred !== undefined || f.kept !== undefined || f.tags.length > 0;

/** What only the vault knows, read from every listed session: the keys the vault filters allow, and every session's tags. */
function vaultFacts(catalogue: IndexedCatalogue, f: Filters, decorate: Decorate, wantTags: boolean): { onlyKeys: string[] | undefined; tagsByKey: Map<string, string[]> } {
  const filtering = hasVaultFilter(f);
  const onlyKeys: string[] = [];
  const tagsByKey = new Map<string, string[]>();
  const wanted = f.tags.map((t) => t.toLowerCase());
  for (const { path, summary } of catalogue.entries()) {
    if (catalogue.byKey(summary.key)?.path !== path) continue;
    const s = decorate(summary);
    if (wantTags && s.tags.length) tagsByKey.set(s.key, s.tags);
    if (!filtering) continue;
    if (f.starred !== undefined && s.starred !== f.starred) continue;
    if (f.kept !== undefined && (catalogue.kindOf(path) !== null || catalogue.keptCopy(s.key) !== undefined) !== f.kept) continue;
    if (wanted.some((tag) => !s.tags.some((t) => t.toLowerCase() === tag))) continue;
    onlyKeys.push(s.key);
  }
  return { onlyKeys: filtering ? onlyKeys : undefined, tagsByKey };
}

/**
 * Searches, or with no words lists every session the filters allow (as the list does: sub-agents under their
 * parent), sorted and paged in SQL; with `facets`, counts per facet over every match.
 */
export function searchSessions(catalogue: IndexedCatalogue, input: SearchInput, decorate: Decorate): SearchOutput {
  const t0 = performance.now();
  const parsed = parseQuery(input.query);
  const view = listingView(catalogue);
  const facts = hasVaultFilter(parsed.filters) || input.facets ? vaultFacts(catalogue, parsed.filters, decorate, input.facets === true) : null;
  const limits: MatchLimits = { excludeIds: hasWords(parsed) ? view.shadowed : view.shadowedAndChildren, onlyKeys: facts?.onlyKeys };
  const page = searchIndex(catalogue.index, parsed, { limit: input.limit ?? 50, offset: input.offset ?? 0, sort: input.sort, limits });
  const results: SearchResult[] = [];
  for (const hit of page.hits) {
    const summary = listed(catalogue, hit.key, hit.path, decorate, view.childCounts);
    if (summary) results.push({ summary, snippet: hit.snippet, messageIndex: hit.messageIndex, score: hit.score });
  }
  let facets: Facets | undefined;
  if (input.facets) {
    const m = buildMatch(parsed, limits);
    facets = m ? countFacets(catalogue.index, m, facts?.tagsByKey ?? new Map()) : { source: [], project: [], branch: [], status: [], outcome: [], model: [], tag: [] };
  }
  return { results, total: page.total, problems: page.problems, tookMs: Math.round((performance.now() - t0) * 10) / 10, ...(facets ? { facets } : {}) };
}

/** The list's text box: the old substring match over titles and ids, plus everything the index finds. */
export function listWithIndex(catalogue: IndexedCatalogue, query: ListQuery, decorate: Decorate): { sessions: SessionSummary[]; total: number } {
  const text = query.text?.trim();
  if (!text) return catalogue.list(query, decorate);
  const byIndex = matchingKeys(catalogue.index, text);
  const bySubstring = new Set(catalogue.list({ ...query, limit: undefined }, decorate).sessions.map((s) => s.key));
  const all = catalogue.list({ ...query, text: undefined, limit: undefined }, decorate).sessions;
  const matches = all.filter((s) => bySubstring.has(s.key) || byIndex.has(s.key));
  return { sessions: matches.slice(0, query.limit ?? matches.length), total: matches.length };
}
