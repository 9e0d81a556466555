// The search part of the contract: full-text search with filters over the persistent index.
import { z } from 'zod';
import { SessionSummary } from './session.ts';

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

export const searchApi = {
  /**
   * Words, "exact phrases", prefix*, -excluded, substrings of identifiers and paths, and filters:
   * source: project: branch: status: outcome: model: tag: is:starred is:kept has:summary after: before: tokens>N cost>N sort:date.
   */
  searchSessions: {
    input: z
      .object({
        query: z.string().max(2000),
        limit: z.number().int().positive().max(1000).default(50),
        offset: z.number().int().nonnegative().default(0),
        sort: z.enum(['relevance', 'date']).optional(),
      })
      .strict(),
    output: z.object({
      results: z.array(SearchResult),
      total: z.number().int().nonnegative(),
      /** Filters that could not be used, said plainly. */
      problems: z.array(z.string()),
      tookMs: z.number().nonnegative(),
    }),
  },
} as const;
