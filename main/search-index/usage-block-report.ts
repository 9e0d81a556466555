// usageBlocks: Claude's 5-hour blocks (usage-blocks.ts) over the sessions a query matches, and the latest rate limits a tool recorded.
import type { SQLInputValue } from 'node:sqlite';
import type { MethodInput, MethodOutput } from '../../shared/api.ts';
import type { RateLimitOut, UsageBlock } from '../../shared/usage-api.ts';
import type { IndexedCatalogue } from './indexed-catalogue.ts';
import { withClause } from './search.ts';
import type { Annotated } from './search-service.ts';
import { buildBlocks, type BlockHour } from './usage-blocks.ts';
import { catalogueSource, usageScope, type UsageScope, type UsageSource } from './usage-match.ts';
import { GROUP_SQL } from './usage-report.ts';
import type { UsageBreakdown } from '../../shared/usage-api.ts';
import { dayIn } from './usage-periods.ts';
import type { TokenCounts } from './usage-rows.ts';
import { heldFinite } from '../../shared/held-sum.ts';

type Input = MethodInput<'usageBlocks'>;
type Output = MethodOutput<'usageBlocks'>;

interface HourRow extends TokenCounts {
  h: number;
  file: number;
  first: number;
  last: number;
  cost: number;
  unpriced: number;
  calls: number;
  models: string | null;
  grp?: string | null;
}

/** The blocks count Claude Code sessions unless the query names a source: the 5-hour windows are Claude's. */
export function claudeScope(source: UsageSource, query: string, now: number): UsageScope {
  return usageScope(source, query, (parsed) => void (parsed.filters.source ??= 'claude-code'), now);
}

/**
 * Each file's usage per hour (and value of the breakdown), with the hour's first and last call, in [sinceMs, untilMs).
 * `recent`: a short span, read through the hour index (the planner would look up every counted file's rows instead).
 */
export function blockHours(
  catalogue: Pick<UsageSource, 'index'>,
  scope: UsageScope,
  sinceMs = 0,
  breakdown?: UsageBreakdown,
  untilMs = Number.MAX_SAFE_INTEGER,
  recent = false,
): BlockHour[] {
  if (!scope.any) return [];
  const group = breakdown ? `, ${GROUP_SQL[breakdown]} AS grp` : '';
  const sql = `${withClause(scope.ctes)}SELECT u.hour_ms AS h, u.file_id AS file${group}, min(coalesce(u.first_ms, u.hour_ms)) AS first, max(coalesce(u.last_ms, u.hour_ms)) AS last,
    sum(u.input) AS input, sum(u.output) AS output, sum(u.cache_read) AS cacheRead, sum(u.cache_write) AS cacheWrite, sum(u.reasoning) AS reasoning,
    sum(u.cost) AS cost, sum(u.unpriced) AS unpriced, sum(u.calls) AS calls, group_concat(DISTINCT u.model) AS models
    FROM usage u${recent ? ' INDEXED BY usage_hour' : ''}${breakdown && breakdown !== 'model' ? ' JOIN files f ON f.id = u.file_id' : ''} WHERE u.hour_ms >= ? AND u.hour_ms < ? AND ${scope.cond('u.file_id')} GROUP BY u.hour_ms, u.file_id${group ? ', grp' : ''}`;
  const params: SQLInputValue[] = [...scope.params, sinceMs, untilMs];
  return (catalogue.index.prepared(sql).all(...params) as unknown as HourRow[]).map((r) => ({
    hourMs: r.h,
    fileId: r.file,
    firstMs: r.first,
    lastMs: r.last,
    input: r.input,
    output: r.output,
    cacheRead: r.cacheRead,
    cacheWrite: r.cacheWrite,
    reasoning: r.reasoning,
    costUsd: r.cost,
    unpriced: r.unpriced,
    calls: r.calls,
    models: r.models ? r.models.split(',') : [],
    ...(breakdown ? { group: r.grp ?? null } : {}),
  }));
}

interface LimitRow {
  format: string | null;
  key: string | null;
  w: string;
  limitId: string | null;
  plan: string | null;
  minutes: number | null;
  used: number;
  resets: number | null;
  at: number;
}

/**
 * The latest state of each rate-limit window among the files in scope, one per source and window length (Codex has
 * called its weekly window `primary` in one version and `secondary` in another).
 */
export function latestLimits(catalogue: Pick<UsageSource, 'index'>, scope: UsageScope): RateLimitOut[] {
  if (!scope.any) return [];
  const sql = `${withClause(scope.ctes)}SELECT format, key, w, limitId, plan, minutes, used, resets, at FROM (
    SELECT f.format AS format, f.key AS key, l.window_name AS w, l.limit_id AS limitId, l.plan AS plan, l.window_minutes AS minutes,
      l.used_percent AS used, l.resets_at_ms AS resets, l.at_ms AS at,
      row_number() OVER (PARTITION BY f.format, coalesce(l.window_minutes, l.window_name) ORDER BY l.at_ms DESC) AS n
    FROM usage_limits l JOIN files f ON f.id = l.file_id WHERE ${scope.cond('l.file_id')}) WHERE n = 1 ORDER BY format, minutes, w`;
  return (catalogue.index.prepared(sql).all(...scope.params) as unknown as LimitRow[]).map((r) => ({
    source: r.format ?? 'unknown',
    window: r.w,
    windowMinutes: r.minutes,
    usedPercent: r.used,
    resetsAt: r.resets === null ? null : new Date(r.resets).toISOString(),
    at: new Date(r.at).toISOString(),
    plan: r.plan,
    limitId: r.limitId,
    sessionKey: r.key,
  }));
}

/** Blocks whose start falls on the days asked for (ccusage filters its blocks the same way). */
function withinDays(blocks: UsageBlock[], input: Input, timeZone: string): UsageBlock[] {
  if (!input.since && !input.until) return blocks;
  const day = dayIn(timeZone);
  return blocks.filter((b) => {
    const d = day(Date.parse(b.startTime));
    return !(input.since && d < input.since) && !(input.until && d > input.until);
  });
}

export function usageBlocks(catalogue: IndexedCatalogue, input: Input, annotated: Annotated, now = Date.now()): Output {
  return blocksFrom(catalogueSource(catalogue, annotated), input, now);
}

/** The blocks from any usage source (the app's catalogue, or the CLI's index read as it is). */
export function blocksFrom(catalogue: UsageSource, input: Input, now = Date.now()): Output {
  const t0 = performance.now();
  const timeZone = input.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const scope = claudeScope(catalogue, input.query ?? '', now);
  const blocks = withinDays(buildBlocks(blockHours(catalogue, scope, 0, input.breakdown), now), input, timeZone);
  const limits = latestLimits(catalogue, usageScope(catalogue, input.query ?? '', undefined, now));
  // Held finite: sums over damaged sessions (1e308 tokens each) reach Infinity, which JSON sends as null.
  return heldFinite({ blocks, limits, problems: scope.parsed.problems, tookMs: Math.round((performance.now() - t0) * 10) / 10 });
}
