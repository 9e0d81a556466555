// Queries the index: the matching files of a parsed query, paged and counted, with a snippet for each file on the page.
import type { SearchSort } from '../../shared/search-api.ts';
import type { SessionIndex } from './index-store.ts';
import { parseQuery, type ParsedQuery, type Term } from './query-parser.ts';
import { buildMatch, countSql, rowsSql, type Match, type MatchLimits } from './search.ts';
import { rankedPageSql } from './ranked-page-sql.ts';
import type { MatchLocation, SnippetPart } from './snippet.ts';
import { locateStored } from './stored-snippet.ts';

export interface SearchOptions {
  limit?: number;
  offset?: number;
  /** Default: the query's `sort:`, else relevance when the query has words, date otherwise. */
  sort?: SearchSort | undefined;
  /** What only the caller knows, applied inside the query (so counting and paging stay in SQL). */
  limits?: MatchLimits;
  /** Post-filter for what only the caller knows; false drops the file. Every match is then read to count them. */
  accept?: (hit: { path: string; key: string }) => boolean;
  /** Above this many matches (for phrases, files holding all their words), only title and metadata matches are ranked (see FULL_RANK_LIMIT). */
  fullRankLimit?: number;
}

export interface SearchHit {
  id: number;
  path: string;
  key: string;
  /** bm25 score (lower is better), null when the match was only a substring inside an identifier or a filter. */
  score: number | null;
  messageIndex: number | null;
  snippet: SnippetPart[];
}

export interface SearchPage {
  hits: SearchHit[];
  total: number;
  problems: string[];
}

interface Row {
  id: number;
  path: string;
  key: string;
  score: number | null;
}

/** Keys of every file a query matches (for the list's text box), with no snippets. */
export function matchingKeys(index: SessionIndex, query: string): Set<string> {
  const keys = new Set<string>();
  const m = buildMatch(parseQuery(query));
  if (!m) return keys;
  const built = rowsSql(m, 'date');
  for (const row of index.statement(built.sql).iterate(...built.params) as Iterable<{ key: string }>) keys.add(row.key);
  return keys;
}

/** Whether the session listed under `key` holds every one of `terms` (all positive), as a search finds them. */
export function indexHolds(index: SessionIndex, key: string, terms: Term[]): boolean {
  const m = buildMatch({ terms, filters: { tags: [] }, sort: null, problems: [] }, { onlyKeys: [key] });
  return m !== null && countMatches(index, m) > 0;
}

export const hasWords = (parsed: ParsedQuery) => parsed.terms.some((t) => !t.negated);

/** The order a query asks for: relevance needs words to rank by, and falls back to newest first. */
export function effectiveSort(parsed: ParsedQuery, asked: SearchSort | undefined): SearchSort {
  const sort = asked ?? parsed.sort ?? (hasWords(parsed) ? 'relevance' : 'date');
  return sort === 'relevance' && !hasWords(parsed) ? 'date' : sort;
}

export function countMatches(index: SessionIndex, m: Match): number {
  const built = countSql(m);
  return (index.statement(built.sql).get(...built.params) as { n: number }).n;
}

/** Ranked matches first (best first), then the rest newest first, with the count from the same pass. */
function rankedPage(index: SessionIndex, m: Match, limit: number, offset: number, fullRankLimit?: number): { page: Row[]; total: number } {
  const built = rankedPageSql(m, { limit, offset }, fullRankLimit);
  const rows = index.statement(built.sql).all(...built.params) as unknown as Array<{
    total: number;
    ranked: number;
    id: number | null;
    path: string;
    key: string;
    score: number | null;
  }>;
  // Past the last match there is no row to carry the count.
  const total = rows[0]?.total ?? countMatches(index, m);
  const page: Row[] = [];
  for (const { id, path, key, score } of rows) if (id !== null) page.push({ id, path, key, score });
  return { page, total };
}

export function searchIndex(index: SessionIndex, query: string | ParsedQuery, options: SearchOptions = {}): SearchPage {
  const parsed = typeof query === 'string' ? parseQuery(query) : query;
  const sort = effectiveSort(parsed, options.sort);
  const m = buildMatch(parsed, options.limits);
  if (!m) return { hits: [], total: 0, problems: parsed.problems };
  const offset = options.offset ?? 0;
  const limit = options.limit ?? 50;
  let page: Row[] = [];
  let total = 0;
  if (options.accept) {
    const built = rowsSql(m, sort);
    for (const row of index.statement(built.sql).iterate(...built.params) as Iterable<Row>) {
      if (!options.accept(row)) continue;
      if (total >= offset && page.length < limit) page.push({ ...row });
      total++;
    }
  } else if (sort === 'relevance' && m.rank !== null) {
    ({ page, total } = rankedPage(index, m, limit, offset, options.fullRankLimit));
  } else {
    const built = rowsSql(m, sort, { limit, offset });
    page = index.statement(built.sql).all(...built.params) as unknown as Row[];
    // A short first page is the whole answer: no second pass to count.
    total = offset === 0 && page.length < limit ? page.length : countMatches(index, m);
  }
  const words = hasWords(parsed);
  const hits = page.map((row): SearchHit => {
    // A listing (no words) has nothing to show in a snippet: the stored text is not read at all.
    const where: MatchLocation = words ? locateStored(index, row.id, parsed.terms) : { messageIndex: null, snippet: [] };
    return { id: row.id, path: row.path, key: row.key, score: row.score, ...where };
  });
  return { hits, total, problems: parsed.problems };
}
