// Implements searchSessions and the list's text box over the index, with what only the vault knows (stars, tags, kept).
import type { SessionSummary } from '../../shared/session.ts';
import type { SearchResult } from '../../shared/search-api.ts';
import type { Decorate, ListQuery } from '../catalogue/catalogue.ts';
import type { IndexedCatalogue } from './indexed-catalogue.ts';
import { parseQuery } from './query-parser.ts';

export interface SearchInput {
  query: string;
  limit?: number;
  offset?: number;
  sort?: 'relevance' | 'date' | undefined;
}

export interface SearchOutput {
  results: SearchResult[];
  total: number;
  problems: string[];
  tookMs: number;
}

/** The summary as the list shows it: vault copies and annotations applied. */
function listed(catalogue: IndexedCatalogue, key: string, path: string, decorate: Decorate): SessionSummary | null {
  const entry = catalogue.byKey(key);
  // A kept copy whose live file exists is listed once, as the live file; stale keys drop out.
  if (!entry || entry.path !== path) return null;
  const kind = catalogue.kindOf(path);
  return decorate({ ...entry.summary, kept: kind !== null || catalogue.keptCopy(key) !== undefined, sourceGone: kind === 'copy' });
}

export function searchSessions(catalogue: IndexedCatalogue, input: SearchInput, decorate: Decorate): SearchOutput {
  const t0 = performance.now();
  const parsed = parseQuery(input.query);
  const f = parsed.filters;
  const needsSummary = f.starred !== undefined || f.kept !== undefined || f.tags.length > 0;
  const summaries = new Map<string, SessionSummary>();
  const page = catalogue.index.search(parsed, {
    limit: input.limit ?? 50,
    offset: input.offset ?? 0,
    sort: input.sort,
    accept: ({ key, path }) => {
      const s = listed(catalogue, key, path, decorate);
      if (!s) return false;
      if (needsSummary) {
        if (f.starred !== undefined && s.starred !== f.starred) return false;
        if (f.kept !== undefined && s.kept !== f.kept) return false;
        if (f.tags.some((tag) => !s.tags.some((t) => t.toLowerCase() === tag.toLowerCase()))) return false;
      }
      summaries.set(key, s);
      return true;
    },
  });
  const results: SearchResult[] = [];
  for (const hit of page.hits) {
    const summary = summaries.get(hit.key);
    if (summary) results.push({ summary, snippet: hit.snippet, messageIndex: hit.messageIndex, score: hit.score });
  }
  return { results, total: page.total, problems: page.problems, tookMs: Math.round((performance.now() - t0) * 10) / 10 };
}

/** The list's text box: the old substring match over titles and ids, plus everything the index finds. */
export function listWithIndex(catalogue: IndexedCatalogue, query: ListQuery, decorate: Decorate): { sessions: SessionSummary[]; total: number } {
  const text = query.text?.trim();
  if (!text) return catalogue.list(query, decorate);
  const byIndex = catalogue.index.matchingKeys(text);
  const bySubstring = new Set(catalogue.list({ ...query, limit: undefined }, decorate).sessions.map((s) => s.key));
  const all = catalogue.list({ ...query, text: undefined, limit: undefined }, decorate).sessions;
  const matches = all.filter((s) => bySubstring.has(s.key) || byIndex.has(s.key));
  return { sessions: matches.slice(0, query.limit ?? matches.length), total: matches.length };
}
