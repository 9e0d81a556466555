// The summaries' part of the contract: one structured summary per session (overview, decisions, outcomes, open items, tags), kept in the vault.
import { z } from 'zod';
import { SessionSummaryText } from './session.ts';

const SessionKey = z.string().min(1).max(4096);
const Item = z.string().trim().min(1).max(4000);

/** What a person or an assistant writes: ProjectHub's SessionSummary shape (seed 001), every list optional. */
export const SummaryFields = z
  .object({
    /** Two or three sentences: what the session was about and where it ended. */
    overview: z.string().trim().min(1).max(20_000),
    /** Architectural or design decisions taken. */
    decisions: z.array(Item).max(200).default([]),
    /** What was achieved. */
    outcomes: z.array(Item).max(200).default([]),
    /** TODOs and unresolved issues. */
    openItems: z.array(Item).max(200).default([]),
    /** Topic tags, for search. */
    tags: z.array(z.string().trim().min(1).max(80)).max(100).default([]),
  })
  .strict();
export type SummaryFields = z.infer<typeof SummaryFields>;

/** Where a shown summary comes from: the vault (written in Session Vault), or the session's own file (ProjectHub's summary_json). */
export const SummarySource = z.enum(['vault', 'session']);
export type SummarySource = z.infer<typeof SummarySource>;

/** A session's summary as shown: the vault's when it has one, else the one the session's own file carries. */
export const SummaryRecord = SessionSummaryText.extend({
  source: SummarySource,
  /** Who wrote it: "you" (by hand in the app), "cli", "mcp: <client name>"; for a session's own summary, its tool. */
  author: z.string(),
  /** When it was written (ISO 8601); for a session's own summary, the session's last update when known. */
  updatedAt: z.string().nullable(),
});
export type SummaryRecord = z.infer<typeof SummaryRecord>;

/** Whether a session has a summary, and whose, without the summary itself (a page of a list at once). */
export const SummaryState = z.object({
  key: z.string(),
  source: SummarySource.nullable(),
  author: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type SummaryState = z.infer<typeof SummaryState>;

export const summaryApi = {
  /** The summary shown for a session: the vault's, else the session's own (null when it has neither). */
  getSummary: { input: z.object({ key: SessionKey }).strict(), output: z.object({ summary: SummaryRecord.nullable() }) },
  /** Writes (or with `summary: null` removes) the vault's summary of a session; the answer is what is shown now. */
  setSummary: {
    input: z
      .object({
        key: SessionKey,
        summary: SummaryFields.nullable(),
        author: z.string().trim().min(1).max(200),
      })
      .strict(),
    output: z.object({ summary: SummaryRecord.nullable() }),
  },
  /** For each key: whether it has a summary and whose (in the order given; unknown keys have none). */
  summaryStates: {
    input: z.object({ keys: z.array(SessionKey).min(1).max(1000) }).strict(),
    output: z.object({ states: z.array(SummaryState) }),
  },
} as const;
