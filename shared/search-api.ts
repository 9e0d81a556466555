// The search part of the contract: full-text search with filters over the persistent index.
import { z } from 'zod';
import { FACET_NAMES, SEARCH_SORTS } from './contract-values.ts';
import { SessionSummary } from './session.ts';

export { emptyFacets } from './contract-values.ts';

/** A piece of a snippet; `hit` pieces are what matched. Rendered as text, never as HTML. */
export const SnippetPart = z.object({ text: z.string(), hit: z.boolean() });
export type SnippetPart = z.infer<typeof SnippetPart>;

export const SearchResult = z.object({
  summary: SessionSummary,
  snippet: z.array(SnippetPart),
  /** The message holding the best match, to open the session there; null when the title or metadata matched. */
  messageIndex: z.number().int().nonnegative().nullable(),
  /** bm25 relevance (lower is better); null for a substring-only or filter-only match. */
  score: z.number().nullable(),
});
export type SearchResult = z.infer<typeof SearchResult>;

/** Orders for search results and the list: relevance (bm25), or newest/largest first by one field. `date` is `updated`. */
export const SearchSort = z.enum(SEARCH_SORTS);
export type SearchSort = z.infer<typeof SearchSort>;

/** A filter a facet value stands for, with how many matching sessions have it. `filter` is query syntax (`source:codex`). */
export const FacetValue = z.object({ value: z.string(), count: z.number().int().nonnegative(), filter: z.string() });
export type FacetValue = z.infer<typeof FacetValue>;

/** Values of a field (source … tag), and ranges offered as filters: how recent, how many tokens, how much it cost, whether summarized. */
export const FacetName = z.enum(FACET_NAMES);
export type FacetName = z.infer<typeof FacetName>;

const FacetValues = z.array(FacetValue);

/**
 * Counts per facet over everything the query matches (most common values first, at most 20 per facet; ranges in their
 * own order). A team store's search adds `machine` (where a session was pushed from) and `user` (who pushed it).
 */
export const Facets = z.object({
  ...(Object.fromEntries(FACET_NAMES.map((name) => [name, FacetValues])) as Record<FacetName, typeof FacetValues>),
  machine: FacetValues.optional(),
  user: FacetValues.optional(),
});
export type Facets = z.infer<typeof Facets>;

/** Indexing progress: files and bytes read so far of those found, sent a few times a second while a scan runs. */
export const IndexProgress = z.object({
  /** `scanning` while files are being read and indexed; `idle` once (the last event of a scan). */
  phase: z.enum(['scanning', 'idle']),
  filesDone: z.number().int().nonnegative(),
  filesTotal: z.number().int().nonnegative(),
  bytesDone: z.number().nonnegative(),
  bytesTotal: z.number().nonnegative(),
  /** Milliseconds left at the current rate; null until there is a rate to go by. */
  etaMs: z.number().nonnegative().nullable(),
  /** Sessions listed whose text search cannot find yet (the index catching up after a scan); absent when none. */
  searchPending: z.number().int().nonnegative().optional(),
  /** Then sessions whose identifiers and paths substring search cannot match yet; absent when none. */
  substringPending: z.number().int().nonnegative().optional(),
});
export type IndexProgress = z.infer<typeof IndexProgress>;

export const searchEvents = {
  indexProgress: IndexProgress,
} as const;

export const searchApi = {
  /**
   * Words, "exact phrases", prefix*, -excluded, substrings of identifiers and paths, and filters:
   * source: project: branch: status: outcome: model: tag: is:starred is:kept has:summary after: before: (a date, or a span back
   * from now: after:7d) tokens>N cost>N sort:<relevance|date|updated|created|size|tokens|cost>.
   * An empty query lists everything (with the filters), so the list can page and sort through the index.
   */
  searchSessions: {
    input: z
      .object({
        query: z.string().max(2000),
        limit: z.number().int().positive().max(1000).default(50),
        offset: z.number().int().nonnegative().default(0),
        sort: SearchSort.optional(),
        /** Also count the matches per facet (source, project, branch, …). */
        facets: z.boolean().optional(),
      })
      .strict(),
    output: z.object({
      results: z.array(SearchResult),
      total: z.number().int().nonnegative(),
      /** More match than were counted (a team store counts up to a cap): `total` is a lower bound, shown "200+". */
      totalCapped: z.boolean().optional(),
      /** Filters that could not be used, said plainly. */
      problems: z.array(z.string()),
      tookMs: z.number().nonnegative(),
      /** Present when asked for with `facets: true`. */
      facets: Facets.optional(),
    }),
  },
  /** The latest indexing progress (for a window that opens while a scan runs). */
  getIndexProgress: { input: z.object({}).strict(), output: IndexProgress },
} as const;
