// usageDashboard: every aggregate the usage dashboard draws, for the sessions a search query matches, added up in the index.
import type { MethodInput, MethodOutput } from '../../shared/api.ts';
import type { UsageBlock } from '../../shared/usage-api.ts';
import type { IndexedCatalogue } from './indexed-catalogue.ts';
import type { Annotated } from './search-service.ts';
import { blockHours, claudeScope, latestLimits } from './usage-block-report.ts';
import { BLOCK_MS, buildBlocks } from './usage-blocks.ts';
import { sessionLengths, sessionTurns, toolCalls } from './usage-distributions.ts';
import { catalogueSource, usageScope, type UsageScope } from './usage-match.ts';
import {
  cachePerDay,
  clockFor,
  dayRows,
  heatmap,
  HEATMAP_DAYS,
  hitRate,
  sessionsWithUsage,
  stackedDays,
  topModels,
  topProjects,
  type Clock,
} from './usage-timeline.ts';
import { Rollup, rollupAnswers } from './usage-rollup.ts';
import { counted, LENGTH_BUCKETS, TURN_BUCKETS } from './usage-buckets.ts';
import { fromFileDays, type Parts } from './usage-dashboard-sets.ts';
import { fileDaysIn } from './usage-file-days.ts';
import { ofSource, recentFiles, storeScope } from './usage-scope-table.ts';
import { storeOthersFirst } from './usage-others-first.ts';
import { fromNameTotals, namesAnswer } from './usage-name-rollup.ts';
import { whileMapped } from './usage-mapped-read.ts';
import { localHourStart } from './usage-rows.ts';
import { heldFinite } from '../../shared/held-sum.ts';

type Input = MethodInput<'usageDashboard'>;
type Output = MethodOutput<'usageDashboard'>;

const HOUR_MS = 3_600_000;
/**
 * How far back from a source's last call the current block is looked for. Blocks start afresh after a pause of 5
 * hours, so from the first call after one they are ccusage's; after a whole day without such a pause the block may
 * start at another hour than ccusage's (`usage blocks` reads the whole history and is exact).
 */
const BLOCK_LOOKBACK_MS = 24 * HOUR_MS;

/**
 * The active block, else the latest: from the last week of calls before the latest one (ccusage's blocks start afresh
 * after any 5-hour pause). `scopeFrom`: the files counted, given the first hour the block's calls are read from.
 */
function currentBlock(catalogue: IndexedCatalogue, scopeFrom: (sinceMs: number) => UsageScope, source: string, now: number): UsageBlock | null {
  // The source's last hour with usage, from the writer's totals (a query narrower than a source only looks back further).
  const latest = catalogue.index.prepared('SELECT max(hour_ms) AS h FROM usage_hours WHERE format = ? AND calls > 0').get(source) as
    { h: number | null } | undefined;
  if (!latest?.h) return null;
  const scope = scopeFrom(latest.h - BLOCK_LOOKBACK_MS);
  if (!scope.any) return null;
  const blocks = buildBlocks(blockHours(catalogue, scope, latest.h - BLOCK_LOOKBACK_MS, undefined, undefined, true), now, BLOCK_MS);
  return blocks.find((b) => b.isActive) ?? blocks.filter((b) => !b.isGap).at(-1) ?? null;
}

/** From every file's own rows per hour, for the sessions the query matches (the reference the faster ways are tested against). */
function perFile(catalogue: IndexedCatalogue, scope: UsageScope, hours: Clock, breakdown: Output['breakdown']): Parts {
  const rows = scope.any ? dayRows(catalogue, scope, hours, breakdown) : [];
  return {
    rows,
    heatmap: (days) => heatmap(catalogue, scope, hours, days),
    projects: () => topProjects(catalogue, scope, hours),
    models: () => topModels(catalogue, scope, hours),
    tools: () => toolCalls(catalogue, scope),
    sessions: () => ({
      lengths: sessionLengths(catalogue, scope),
      turns: sessionTurns(catalogue, scope),
      withUsage: rows.length ? sessionsWithUsage(catalogue, scope, hours) : 0,
    }),
  };
}

/** From the totals the writer keeps (usage-rollup.ts), for a query with no filter but a source. */
function fromTotals(catalogue: IndexedCatalogue, scope: UsageScope, hours: Clock, breakdown: Output['breakdown']): Parts {
  const rollup = new Rollup(catalogue, scope.parsed, scope.shadowed);
  return {
    rows: rollup.dayRows(hours, breakdown),
    heatmap: (days) => rollup.heatmap(hours, days),
    projects: () => rollup.projects(),
    models: () => rollup.models(),
    tools: () => rollup.tools(),
    sessions: () => rollup.sessions(),
  };
}

/**
 * A query with no filter but a source is answered from the writer's totals; one with `model:` and at most a source from
 * the totals per set of model names (usage-name-rollup.ts); one that narrows the files otherwise from their rows
 * per day (its matches written once into temporary tables, usage-scope-table.ts), when those were counted in the
 * dashboard's time zone; else from every file's rows per hour. `perFileOnly`: always the last (tests compare them).
 */
export function usageDashboard(catalogue: IndexedCatalogue, input: Input, annotated: Annotated, now = Date.now(), perFileOnly = false): Output {
  const t0 = performance.now();
  // The index read through a memory map while it adds up (usage-mapped-read.ts says why, and why not for longer).
  const figures = whileMapped(catalogue.index, () => addedUp(catalogue, input, annotated, now, perFileOnly));
  // Held finite: sums over damaged sessions (1e308 tokens each) reach Infinity, which JSON sends as null.
  return heldFinite({ ...figures, tookMs: Math.round((performance.now() - t0) * 10) / 10 });
}

/** The dashboard's figures (usageDashboard), its time aside. */
function addedUp(catalogue: IndexedCatalogue, input: Input, annotated: Annotated, now: number, perFileOnly: boolean): Omit<Output, 'tookMs'> {
  const timeZone = input.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const breakdown = input.breakdown ?? 'model';
  const query = input.query ?? '';
  const source = catalogueSource(catalogue, annotated);
  const scope = usageScope(source, query, undefined, now);
  // The query's after:/before: also bound the hours counted, so `after:30d` is the past month's usage.
  const { afterMs, beforeMs } = scope.parsed.filters;
  // Whole hours: from the start of the hour after: falls in to the end of before:'s (the machine's local hours, where
  // usage-rows.ts cuts rows too). A local hour of a zone a half hour off UTC is two rows, and the day rows keep hours
  // whole: counting one of its rows alone (`before:2026-06-10`, a UTC day, ends at 21:30 in Newfoundland) made the
  // heatmap's cell the totals' half less a whole hour, negative.
  const hours = clockFor(
    catalogue,
    afterMs === undefined ? 0 : localHourStart(afterMs),
    beforeMs === undefined ? Number.MAX_SAFE_INTEGER : localHourStart(beforeMs) + HOUR_MS - 1,
    timeZone,
  );
  let parts: Parts;
  // The files the current block counts, given the first hour its calls are read from.
  let blockScope: (sinceMs: number) => UsageScope = () => claudeScope(source, query, now);
  let limitsScope = scope;
  const daysInZone = !perFileOnly && fileDaysIn(source, timeZone);
  if (!perFileOnly && rollupAnswers(scope.parsed, breakdown, daysInZone)) parts = fromTotals(catalogue, scope, hours, breakdown);
  else if (daysInZone && scope.any && namesAnswer(scope.parsed, breakdown)) {
    const named = fromNameTotals(catalogue, scope, hours, breakdown);
    parts = named.parts;
    blockScope = (sinceMs) => named.blockScope(scope.parsed.filters.source ?? 'claude-code', sinceMs);
    limitsScope = named.limitsScope;
  } else if (daysInZone && scope.any) {
    // A word in most files: only the files it does not count written (usage-others-first.ts), else every match.
    const stored = storeOthersFirst(source, scope) ?? storeScope(source, scope);
    parts = fromFileDays(catalogue, stored, hours, breakdown);
    // The block's files tested once each (recentFiles), not each of their rows' file looked up for its source.
    blockScope = (sinceMs) => recentFiles(source, ofSource(stored.scope, scope.parsed.filters.source ?? 'claude-code'), sinceMs);
    limitsScope = stored.scope;
  } else parts = perFile(catalogue, scope, hours, breakdown);
  const rows = parts.rows;
  const activeDays = [...new Set(rows.map((r) => r.day))].sort();
  const totals = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, totalTokens: 0, costUsd: 0, unpricedCalls: 0, sessions: 0 };
  for (const r of rows) {
    totals.input += r.input;
    totals.output += r.output;
    totals.cacheRead += r.cacheRead;
    totals.cacheWrite += r.cacheWrite;
    totals.reasoning += r.reasoning;
    totals.costUsd += r.cost;
    totals.unpricedCalls += r.unpriced;
  }
  totals.totalTokens = totals.input + totals.output + totals.cacheRead + totals.cacheWrite + totals.reasoning;
  const any = scope.any && rows.length > 0;
  const sessions = scope.any ? parts.sessions() : { lengths: counted([], LENGTH_BUCKETS), turns: counted([], TURN_BUCKETS), withUsage: 0 };
  totals.sessions = any ? sessions.withUsage : 0;
  return {
    timezone: timeZone,
    from: activeDays[0] ?? null,
    to: activeDays.at(-1) ?? null,
    totals: { ...totals, cacheHitRate: hitRate(totals) },
    breakdown,
    ...stackedDays(rows),
    heatmapDays: activeDays.slice(-HEATMAP_DAYS),
    heatmap: any ? parts.heatmap(activeDays.slice(-HEATMAP_DAYS)) : [],
    projects: any ? parts.projects() : [],
    models: any ? parts.models() : [],
    tools: scope.any ? parts.tools() : [],
    lengths: sessions.lengths,
    turns: sessions.turns,
    cache: cachePerDay(rows),
    block: scope.any ? currentBlock(catalogue, blockScope, scope.parsed.filters.source ?? 'claude-code', now) : null,
    limits: latestLimits(catalogue, limitsScope),
    problems: scope.parsed.problems,
  };
}
