// The MCP tools' inputs and outputs, built from the contract's schemas (shared/): what an assistant sends and gets back.
import { z } from 'zod';
import { api } from '../../shared/api.ts';
import { Comparison } from '../../shared/compare/comparison.ts';
import { SearchSort } from '../../shared/search-api.ts';
import { SessionSummary } from '../../shared/session.ts';
import { SummaryFields, SummaryRecord, SummaryState } from '../../shared/summary-api.ts';

/** A session is named by its key (`format:id`, as sessions_list gives it); a path never comes from the client. */
const SessionKey = z.string().min(1).max(4096).describe('A session key (format:id) as sessions_list or sessions_search give it.');
const SYNTAX =
  'The app\'s search syntax: words, "exact phrases", prefix*, -excluded, and filters such as project:NAME source:codex after:7d tokens>10k is:starred tag:NAME.';
const Query = z.string().max(2000).describe(SYNTAX);

/** One session in a list: what it is, where and when, how big, and whether it has a summary. */
export const ListedSession = SessionSummary.pick({
  key: true,
  title: true,
  format: true,
  projectName: true,
  projectPath: true,
  branch: true,
  createdAt: true,
  updatedAt: true,
  status: true,
  messageCount: true,
  toolCallCount: true,
  totalTokens: true,
  costUsd: true,
  childCount: true,
  starred: true,
  tags: true,
}).extend({ summary: SummaryState.omit({ key: true }).nullable().describe('Its summary (whose, and when), or null when it has none.') });
export type ListedSession = z.infer<typeof ListedSession>;

const Page = {
  total: z.number().int().nonnegative(),
  /** The offset of the next page, or null after the last. */
  nextOffset: z.number().int().nonnegative().nullable(),
  /** Filters in the query that could not be used, said plainly. */
  problems: z.array(z.string()),
};

export const sessionsListInput = z
  .object({
    query: Query.default(''),
    hasSummary: z.boolean().optional().describe('true: only sessions with a summary; false: only those without one (to summarize).'),
    sort: SearchSort.optional().describe('Newest activity first by default; relevance needs words in the query.'),
    limit: z.number().int().min(1).max(100).default(20),
    offset: z.number().int().nonnegative().default(0),
  })
  .strict();
export const sessionsListOutput = z.object({ ...Page, sessions: z.array(ListedSession) });

export const SearchHit = ListedSession.pick({ key: true, title: true, format: true, projectName: true, updatedAt: true }).extend({
  /** Where it matched, the matched words in **bold**. */
  snippet: z.string(),
  /** The message holding the best match (read it with session_transcript from there); null when the title, metadata or summary matched. */
  messageIndex: z.number().int().nonnegative().nullable(),
  /** bm25 relevance (lower is better); null for a match without a rank. */
  score: z.number().nullable(),
});

export const sessionsSearchInput = z
  .object({
    query: z.string().trim().min(1).max(2000).describe(SYNTAX),
    sort: SearchSort.optional().describe('Relevance by default.'),
    limit: z.number().int().min(1).max(50).default(10),
    offset: z.number().int().nonnegative().default(0),
  })
  .strict();
export const sessionsSearchOutput = z.object({ ...Page, hits: z.array(SearchHit) });

export const sessionTranscriptInput = z
  .object({
    key: SessionKey,
    fromMessage: z
      .number()
      .int()
      .nonnegative()
      .default(0)
      .describe("The message to start at (0 for the start; a next.fromMessage, or a search hit's messageIndex)."),
    fromChar: z.number().int().nonnegative().default(0).describe('Where in that message to go on (a next.fromChar); 0 otherwise.'),
    maxChars: z.number().int().min(1000).max(200_000).default(24_000).describe("The page's budget in characters; a page never exceeds it."),
  })
  .strict();
export const sessionTranscriptOutput = z.object({
  key: z.string(),
  title: z.string(),
  format: SessionSummary.shape.format,
  messagesTotal: z.number().int().nonnegative(),
  fromMessage: z.number().int().nonnegative(),
  throughMessage: z.number().int().nonnegative().nullable(),
  /** The page: each message under a `### #N role` line, tool calls and results summarized to a line each. */
  text: z.string(),
  /** Where the next page starts (pass both back), or null after the last message. */
  next: z.object({ fromMessage: z.number().int().nonnegative(), fromChar: z.number().int().nonnegative() }).nullable(),
});

export const sessionUpdateSummaryInput = SummaryFields.extend({ key: SessionKey }).strict();
export const sessionUpdateSummaryOutput = SummaryRecord.extend({ key: z.string() });

export const sessionsCompareInput = api.compareSessions.input;
export const sessionsCompareOutput = Comparison;

export const usageReportInput = api.usageReport.input;
export const usageReportOutput = api.usageReport.output;
