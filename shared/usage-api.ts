// The usage-report part of the contract: tokens and cost per day, week, month or session, added up in the index.
import { z } from 'zod';

export const UsagePeriod = z.enum(['daily', 'weekly', 'monthly', 'session']);
export type UsagePeriod = z.infer<typeof UsagePeriod>;
export const UsageBreakdown = z.enum(['model', 'project', 'source', 'branch']);
export type UsageBreakdown = z.infer<typeof UsageBreakdown>;

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a day as YYYY-MM-DD');

export const UsageFigures = z.object({
  input: z.number(),
  output: z.number(),
  cacheRead: z.number(),
  cacheWrite: z.number(),
  reasoning: z.number(),
  totalTokens: z.number(),
  /** Dollars of the priced calls: the whole cost when `unpricedCalls` is 0, otherwise a lower bound. */
  costUsd: z.number(),
  /** Calls with tokens and no known price (their cost is left out of costUsd). */
  unpricedCalls: z.number().int().nonnegative(),
  /** Sessions (files) with usage in this row. */
  sessions: z.number().int().nonnegative(),
});
export type UsageFigures = z.infer<typeof UsageFigures>;

export const UsageRowOut = UsageFigures.extend({
  /** The day (YYYY-MM-DD), the week's first day (a Monday), the month (YYYY-MM), or the session's key. */
  period: z.string(),
  /** For `session`: the last day with usage. */
  lastDay: z.string().optional(),
  /** The models used in this row (with a breakdown by model, the one model). */
  models: z.array(z.string()),
  /** With a breakdown: this row's value of it (null when the sessions have none, e.g. no branch). */
  group: z.string().nullable().optional(),
});
export type UsageRowOut = z.infer<typeof UsageRowOut>;

export const usageApi = {
  /** Input, output, cache and reasoning tokens and cost per period, from the index alone; `query` is the search syntax. */
  usageReport: {
    input: z
      .object({
        period: UsagePeriod,
        since: Day.optional(),
        until: Day.optional(),
        breakdown: UsageBreakdown.optional(),
        query: z.string().max(2000).optional(),
        /** An IANA time zone the days are counted in (default: this machine's). */
        timezone: z.string().max(100).optional(),
      })
      .strict(),
    output: z.object({
      period: UsagePeriod,
      timezone: z.string(),
      rows: z.array(UsageRowOut),
      totals: UsageFigures,
      /** Filters of the query that could not be used, said plainly. */
      problems: z.array(z.string()),
      tookMs: z.number().nonnegative(),
    }),
  },
} as const;
