// The dashboard's figures over time from every matched file's usage rows: tokens and cost per day and group, the day x hour heatmap, top projects and models.
import type { SQLInputValue } from 'node:sqlite';
import type { DashboardBreakdown, UsageDashboard } from '../../shared/usage-api.ts';
import { withClause } from './search.ts';
import type { UsageScope, UsageSource } from './usage-match.ts';
import { dayOfNumber, zoneSpans } from './usage-periods.ts';
import { GROUP_SQL } from './usage-report.ts';
import type { TokenCounts } from './usage-rows.ts';

const TOKENS = 'u.input + u.output + u.cache_read + u.cache_write + u.reasoning';
/** Groups drawn one by one in the stacked days; the rest are added up as "other". */
export const TOP_GROUPS = 8;
/** Days the heatmap shows (the most recent with usage). */
export const HEATMAP_DAYS = 60;
export const OTHER = 'other';
export const NONE = '(none)';
/** The hour usage-rows.ts files a call under when neither it nor its session has a time: not a day to draw. */
const UNKNOWN_TIME = 0;
const DAY_MS = 86_400_000;

/**
 * The hours a dashboard counts ([fromMs, toMs]) and how SQL turns one into a local day and hour: a join on the time
 * zone's offset spans (a few rows a year), `tz`, then arithmetic.
 */
export interface Clock {
  fromMs: number;
  toMs: number;
  spans: string;
  timezone: string;
}

/** The hours with usage in [fromMs, toMs] (bounded by the first and last hour of the writer's totals: a short read). */
export function clockFor(catalogue: Pick<UsageSource, 'index'>, fromMs: number, toMs: number, timezone: string): Clock {
  // Two scalar subqueries, each one step along the hour index; min and max in one SELECT scanned every row (3 ms at 100k).
  const range = catalogue.index
    .prepared('SELECT (SELECT min(hour_ms) FROM usage_hours WHERE hour_ms > ?1) AS a, (SELECT max(hour_ms) FROM usage_hours WHERE hour_ms > ?1) AS b')
    .get(UNKNOWN_TIME) as {
    a: number | null;
    b: number | null;
  };
  const from = Math.max(fromMs, UNKNOWN_TIME + 1, range.a ?? 0);
  const to = Math.min(toMs, range.b ?? 0);
  return { fromMs: from, toMs: to, spans: JSON.stringify(from <= to ? zoneSpans(timezone, from, to + 1) : []), timezone };
}

export const TZ_CTE = 'tz(a, b, off) AS MATERIALIZED (SELECT value->>0, value->>1, value->>2 FROM json_each(?))';
/** The local day number and hour of the day of `t.hour_ms`, once `tz` is joined. */
export const dayNumber = (t: string) => `((${t}.hour_ms + tz.off) / ${DAY_MS})`;
export const hourOfDay = (t: string) => `(((${t}.hour_ms + tz.off) % ${DAY_MS}) / 3600000)`;
export const tzJoin = (t: string) => `JOIN tz ON ${t}.hour_ms >= tz.a AND ${t}.hour_ms < tz.b`;

/** A statement over the usage rows of the files in scope within the clock's hours (`u` the row, `f` its file, `tz` its offset). */
function overHours(
  catalogue: Pick<UsageSource, 'index'>,
  scope: UsageScope,
  clock: Clock,
  columns: string,
  tail: string,
  withFiles: boolean,
  fromMs = clock.fromMs,
): unknown[] {
  // A file's source and project from usage_sessions (`f`): a row of a few columns per file, where `files` has many.
  const sql = `${withClause([...scope.ctes, TZ_CTE])}SELECT ${columns} FROM ${scope.from('u')} ${tzJoin('u')}${withFiles ? ' JOIN usage_sessions f ON f.file_id = u.file_id' : ''}
    WHERE u.hour_ms BETWEEN ? AND ? AND ${scope.where('u')} ${tail}`;
  const params: SQLInputValue[] = [...scope.params, clock.spans, fromMs, clock.toMs];
  return catalogue.index.prepared(sql).all(...params);
}

export interface DayRow extends TokenCounts {
  day: string;
  g: string | null;
  cost: number;
  unpriced: number;
  calls: number;
}

/**
 * Adds (sign 1) or takes off (sign -1) one day's figures for a group into `cells`, one cell per day and group:
 * `v` holds input, output, cache read, cache write, reasoning, cost, unpriced and calls, in that order.
 */
export function addDayCell(cells: Map<string, DayRow>, day: string, g: string | null, v: readonly number[], sign: number): void {
  const id = `${day}\n${g ?? ''}\n${g === null ? 0 : 1}`;
  let cell = cells.get(id);
  if (!cell) cells.set(id, (cell = { day, g, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, cost: 0, unpriced: 0, calls: 0 }));
  cell.input += sign * (v[0] as number);
  cell.output += sign * (v[1] as number);
  cell.cacheRead += sign * (v[2] as number);
  cell.cacheWrite += sign * (v[3] as number);
  cell.reasoning += sign * (v[4] as number);
  cell.cost += sign * (v[5] as number);
  cell.unpriced += sign * (v[6] as number);
  cell.calls += sign * (v[7] as number);
}

/** Day rows as SQL returns them (the local day as a number). */
export type DayNumberRow = Omit<DayRow, 'day'> & { dn: number };
export const withDays = (rows: DayNumberRow[]): DayRow[] => rows.map(({ dn, ...r }) => ({ day: dayOfNumber(dn), ...r }));

export const DAY_SUMS = (t: string) =>
  `sum(${t}.input) AS input, sum(${t}.output) AS output, sum(${t}.cache_read) AS cacheRead, sum(${t}.cache_write) AS cacheWrite, sum(${t}.reasoning) AS reasoning, sum(${t}.cost) AS cost, sum(${t}.unpriced) AS unpriced, sum(${t}.calls) AS calls`;

/** Every day's usage per group of the breakdown. */
export function dayRows(catalogue: Pick<UsageSource, 'index'>, scope: UsageScope, clock: Clock, breakdown: DashboardBreakdown): DayRow[] {
  const rows = overHours(
    catalogue,
    scope,
    clock,
    `${dayNumber('u')} AS dn, ${GROUP_SQL[breakdown]} AS g, ${DAY_SUMS('u')}`,
    'GROUP BY 1, 2',
    breakdown !== 'model',
  );
  return withDays(rows as DayNumberRow[]);
}

const tokensOf = (r: DayRow) => r.input + r.output + r.cacheRead + r.cacheWrite + r.reasoning;

/** The days stacked by the largest groups, the rest as "other". */
export function stackedDays(rows: readonly DayRow[]): Pick<UsageDashboard, 'groups' | 'days'> {
  const perGroup = new Map<string, number>();
  for (const r of rows) perGroup.set(r.g || NONE, (perGroup.get(r.g || NONE) ?? 0) + tokensOf(r));
  const ranked = [...perGroup].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([g]) => g);
  const top = new Set(ranked.slice(0, TOP_GROUPS));
  // Cells by day, then group (no key string made per row: 100,000 sessions by project, 14,634 rows).
  const byDay = new Map<string, Map<string, UsageDashboard['days'][number]>>();
  const cells: Array<UsageDashboard['days'][number]> = [];
  for (const r of rows) {
    const group = top.has(r.g || NONE) ? r.g || NONE : OTHER;
    let ofDay = byDay.get(r.day);
    if (!ofDay) byDay.set(r.day, (ofDay = new Map()));
    let cell = ofDay.get(group);
    if (!cell) {
      cell = { day: r.day, group, totalTokens: 0, costUsd: 0, unpricedCalls: 0 };
      ofDay.set(group, cell);
      cells.push(cell);
    }
    cell.totalTokens += tokensOf(r);
    cell.costUsd += r.cost;
    cell.unpricedCalls += r.unpriced;
  }
  const groups = ranked.length > TOP_GROUPS ? [...ranked.slice(0, TOP_GROUPS), OTHER] : ranked;
  // Sorted by day (localeCompare, once per pair of days, not per pair of cells) and by the groups' order.
  const dayRank = new Map([...byDay.keys()].sort((a, b) => a.localeCompare(b)).map((day, i) => [day, i]));
  const groupRank = new Map(groups.map((g, i) => [g, i]));
  const rank = (c: UsageDashboard['days'][number]) => (dayRank.get(c.day) as number) * (groups.length + 1) + (groupRank.get(c.group) ?? -1);
  return {
    groups,
    days: cells
      .map((c) => ({ c, k: rank(c) }))
      .sort((a, b) => a.k - b.k)
      .map(({ c }) => c),
  };
}

/** How much of each day's input side came from the cache. */
export function cachePerDay(rows: readonly DayRow[]): UsageDashboard['cache'] {
  const days = new Map<string, { cacheRead: number; input: number; cacheWrite: number }>();
  for (const r of rows) {
    const d = days.get(r.day) ?? { cacheRead: 0, input: 0, cacheWrite: 0 };
    d.cacheRead += r.cacheRead;
    d.input += r.input;
    d.cacheWrite += r.cacheWrite;
    days.set(r.day, d);
  }
  return [...days].sort((a, b) => a[0].localeCompare(b[0])).map(([day, d]) => ({ day, ...d, hitRate: hitRate(d) }));
}

export function hitRate(d: { cacheRead: number; input: number; cacheWrite: number }): number | null {
  const all = d.cacheRead + d.input + d.cacheWrite;
  return all > 0 ? d.cacheRead / all : null;
}

/** The first hour (UTC ms) of the first of these local days: days are consecutive in time, so hours from it on cover them. */
export function startOfDays(days: readonly string[], clock: Clock): number {
  const first = days[0];
  if (!first) return clock.toMs + 1;
  // A local day starts at most 14 hours before or after its UTC day; the day number test keeps exactly its hours.
  return Math.max(clock.fromMs, Date.parse(`${first}T00:00:00Z`) - 14 * 3_600_000);
}

/** Calls and tokens per local day and hour, for the given days (the most recent with usage). */
export function heatmap(catalogue: Pick<UsageSource, 'index'>, scope: UsageScope, clock: Clock, days: readonly string[]): UsageDashboard['heatmap'] {
  if (!days.length) return [];
  const wanted = new Set(days);
  const cells = overHours(
    catalogue,
    scope,
    clock,
    `${dayNumber('u')} AS dn, ${hourOfDay('u')} AS hour, sum(u.calls) AS calls, sum(${TOKENS}) AS totalTokens`,
    'GROUP BY 1, 2 ORDER BY 1, 2',
    false,
    startOfDays(days, clock),
  ) as Array<{ dn: number; hour: number; calls: number; totalTokens: number }>;
  return cells.map(({ dn, ...c }) => ({ day: dayOfNumber(dn), ...c })).filter((c) => wanted.has(c.day));
}

/** The projects with the most tokens. */
export function topProjects(catalogue: Pick<UsageSource, 'index'>, scope: UsageScope, clock: Clock, limit = 10): UsageDashboard['projects'] {
  const rows = overHours(
    catalogue,
    scope,
    clock,
    `coalesce(nullif(${GROUP_SQL.project}, ''), '${NONE}') AS name, sum(${TOKENS}) AS totalTokens, sum(u.cost) AS costUsd, count(DISTINCT u.file_id) AS sessions`,
    `GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${limit}`,
    true,
  );
  return rows as UsageDashboard['projects'];
}

/** The models with the most tokens. */
export function topModels(catalogue: Pick<UsageSource, 'index'>, scope: UsageScope, clock: Clock, limit = 10): UsageDashboard['models'] {
  const rows = overHours(
    catalogue,
    scope,
    clock,
    `coalesce(nullif(u.model, ''), '${NONE}') AS name, sum(${TOKENS}) AS totalTokens, sum(u.cost) AS costUsd, sum(u.calls) AS calls, sum(u.unpriced) AS unpricedCalls`,
    `GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${limit}`,
    false,
  );
  return rows as UsageDashboard['models'];
}

/** Files with usage in the clock's hours. */
export function sessionsWithUsage(catalogue: Pick<UsageSource, 'index'>, scope: UsageScope, clock: Clock): number {
  return (overHours(catalogue, scope, clock, 'count(DISTINCT u.file_id) AS n', '', false)[0] as { n: number }).n;
}
