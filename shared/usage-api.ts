// The usage part of the contract: reports per day, week, month, session or 5-hour block, and the dashboard's aggregates, from the index.
import { z } from 'zod';
import { USAGE_BREAKDOWNS, USAGE_PERIODS } from './contract-values.ts';
import { isTimeZone } from './time-zone.ts';

export const UsagePeriod = z.enum(USAGE_PERIODS);
export type UsagePeriod = z.infer<typeof UsagePeriod>;
export const UsageBreakdown = z.enum(USAGE_BREAKDOWNS);
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
  /** For `session`: the last day with usage (absent when none of its calls has a known time). */
  lastDay: z.string().optional(),
  /** The models used in this row (with a breakdown by model, the one model). */
  models: z.array(z.string()),
  /** With a breakdown: this row's value of it (null when the sessions have none, e.g. no branch). */
  group: z.string().nullable().optional(),
  /** For `session`: the session's own usage, without its sub-agents' (the row's figures are the total with them). */
  own: z.object({ totalTokens: z.number(), costUsd: z.number(), unpricedCalls: z.number().int().nonnegative() }).optional(),
});
export type UsageRowOut = z.infer<typeof UsageRowOut>;

/** One of Claude's 5-hour windows (ccusage's "session blocks"): from the hour of its first call, until 5 hours later. */
export const UsageBlock = UsageFigures.omit({ sessions: true }).extend({
  /** The block's start (ISO), or `gap-<start>` for the idle time between two blocks. */
  id: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  /** The last call's time (null for a gap). */
  actualEndTime: z.string().nullable(),
  /** Its last call was less than 5 hours ago and its 5 hours are not over. */
  isActive: z.boolean(),
  isGap: z.boolean(),
  /** Calls counted (ccusage's entries). */
  calls: z.number().int().nonnegative(),
  sessions: z.number().int().nonnegative(),
  models: z.array(z.string()),
  /** Tokens and dollars per minute and hour between the block's first and last call (null when they are the same moment). */
  burnRate: z.object({ tokensPerMinute: z.number(), tokensPerMinuteForIndicator: z.number(), costPerHour: z.number() }).nullable(),
  /** For the active block: where the current burn rate ends it. */
  projection: z.object({ totalTokens: z.number(), totalCost: z.number(), remainingMinutes: z.number() }).nullable(),
  /** With a breakdown: the block's tokens and cost per value of it (null when the sessions have none). */
  groups: z
    .array(z.object({ group: z.string().nullable(), totalTokens: z.number(), costUsd: z.number(), unpricedCalls: z.number().int().nonnegative() }))
    .optional(),
});
export type UsageBlock = z.infer<typeof UsageBlock>;

/** The latest rate-limit state a tool recorded for one of the provider's windows (Codex: primary = 5 hours, secondary = weekly). */
export const RateLimitOut = z.object({
  source: z.string(),
  window: z.string(),
  windowMinutes: z.number().nullable(),
  usedPercent: z.number(),
  resetsAt: z.string().nullable(),
  /** When the tool reported it. */
  at: z.string(),
  plan: z.string().nullable(),
  limitId: z.string().nullable(),
  /** The session it was last seen in. */
  sessionKey: z.string().nullable(),
});
export type RateLimitOut = z.infer<typeof RateLimitOut>;

export const DashboardBreakdown = z.enum(['model', 'source', 'project']);
export type DashboardBreakdown = z.infer<typeof DashboardBreakdown>;

const Count = z.number().int().nonnegative();

export const UsageDashboard = z.object({
  timezone: z.string(),
  /** The first and last day with usage shown (null when there is none). */
  from: z.string().nullable(),
  to: z.string().nullable(),
  totals: UsageFigures.extend({
    /** Share of the input side read from the cache: cacheRead / (input + cacheRead + cacheWrite); null without input. */
    cacheHitRate: z.number().nullable(),
  }),
  breakdown: DashboardBreakdown,
  /** The groups of `days`, largest first (at most 8, the rest as "other"). */
  groups: z.array(z.string()),
  days: z.array(z.object({ day: z.string(), group: z.string(), totalTokens: z.number(), costUsd: z.number(), unpricedCalls: Count })),
  /** Calls per day and hour (0-23) for the most recent days with usage (`heatmapDays`, oldest first). */
  heatmapDays: z.array(z.string()),
  heatmap: z.array(z.object({ day: z.string(), hour: z.number().int().min(0).max(23), calls: Count, totalTokens: z.number() })),
  projects: z.array(z.object({ name: z.string(), totalTokens: z.number(), costUsd: z.number(), sessions: Count })),
  models: z.array(z.object({ name: z.string(), totalTokens: z.number(), costUsd: z.number(), calls: Count, unpricedCalls: Count })),
  tools: z.array(z.object({ name: z.string(), calls: Count, failures: Count })),
  /** Sessions per length (last minus first activity) and per number of turns (prompts), in fixed buckets. */
  lengths: z.array(z.object({ bucket: z.string(), sessions: Count })),
  turns: z.array(z.object({ bucket: z.string(), sessions: Count })),
  cache: z.array(z.object({ day: z.string(), cacheRead: z.number(), input: z.number(), cacheWrite: z.number(), hitRate: z.number().nullable() })),
  /** The active 5-hour block (Claude Code), else the most recent one. */
  block: UsageBlock.nullable(),
  limits: z.array(RateLimitOut),
  problems: z.array(z.string()),
  tookMs: z.number().nonnegative(),
});
export type UsageDashboard = z.infer<typeof UsageDashboard>;

/** An IANA time zone the days are counted in; one this runtime does not know is refused naming the field. */
const TimeZone = z.string().max(100).refine(isTimeZone, 'not a time zone (an IANA name such as UTC or Europe/Paris)');

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
        timezone: TimeZone.optional(),
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
  /** Claude's 5-hour blocks (ccusage's `blocks`), with burn rate and projection, and the latest rate limits a tool recorded. */
  usageBlocks: {
    input: z
      .object({
        since: Day.optional(),
        until: Day.optional(),
        /** Search syntax; without a `source:` filter the blocks count Claude Code sessions (the windows are Claude's). */
        query: z.string().max(2000).optional(),
        breakdown: UsageBreakdown.optional(),
        timezone: TimeZone.optional(),
      })
      .strict(),
    output: z.object({ blocks: z.array(UsageBlock), limits: z.array(RateLimitOut), problems: z.array(z.string()), tookMs: z.number().nonnegative() }),
  },
  /** Every aggregate the usage dashboard draws, for the sessions a search query matches, from the index alone. */
  usageDashboard: {
    input: z
      .object({
        query: z.string().max(2000).optional(),
        timezone: TimeZone.optional(),
        breakdown: DashboardBreakdown.optional(),
      })
      .strict(),
    output: UsageDashboard,
  },
} as const;
