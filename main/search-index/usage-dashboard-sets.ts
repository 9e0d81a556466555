// The dashboard's figures for a query that narrows the files, from their rows per day: the matched files' own, or, when they are most files, the totals less the others'.
import type { DashboardBreakdown, UsageDashboard } from '../../shared/usage-api.ts';
import { counted, LENGTH_BUCKETS, TURN_BUCKETS } from './usage-buckets.ts';
import { allInClock, countedSessions } from './usage-dated-totals.ts';
import { clockDays, filesCounted, ranked, setHeatmap, setSessions, setUsage, type HeatCell, type ModelSum } from './usage-file-days.ts';
import type { UsageSource } from './usage-match.ts';
import { packedOthers } from './usage-packed-set.ts';
import { Rollup } from './usage-rollup.ts';
import { storedOthers, storeOthers, type StoredScope } from './usage-scope-table.ts';
import type { Clock, DayRow } from './usage-timeline.ts';
import type { IndexedCatalogue } from './indexed-catalogue.ts';

/** What usage-dashboard.ts draws from (the same for every way of adding up). */
export interface Parts {
  rows: DayRow[];
  heatmap: (days: string[]) => UsageDashboard['heatmap'];
  projects: () => UsageDashboard['projects'];
  models: () => UsageDashboard['models'];
  tools: () => UsageDashboard['tools'];
  sessions: () => { lengths: UsageDashboard['lengths']; turns: UsageDashboard['turns']; withUsage: number };
}

const ALL = Number.MAX_SAFE_INTEGER;
/** Tools and sessions come from one read of the session rows. */
const once = <T>(f: () => T): (() => T) => {
  let value: { v: T } | null = null;
  return () => (value ??= { v: f() }).v;
};
const byDayHour = (a: HeatCell, b: HeatCell) => (a.day < b.day ? -1 : a.day > b.day ? 1 : a.hour - b.hour);
const buckets = (counts: number[], names: Array<[number, string]>) =>
  counted(
    counts.map((n, b) => ({ b, n })),
    names,
  );

/** The matched files' own rows (a few per file: fast when they are not most of the files). */
function matched(source: Pick<UsageSource, 'index'>, clock: Clock, breakdown: DashboardBreakdown, bounded: boolean): Parts {
  const usage = setUsage(source, 'matched', clock, breakdown, bounded);
  const sessions = once(() => setSessions(source, 'matched'));
  return {
    rows: usage.rows,
    heatmap: (days) => setHeatmap(usage, clock, days, bounded).sort(byDayHour),
    projects: () => ranked(usage.projects, (p) => p.totalTokens, 10),
    models: () => ranked(usage.models, (m) => m.totalTokens, 10),
    tools: () => ranked(sessions().tools, (t) => t.calls, 15),
    sessions: () => {
      const s = sessions();
      return { lengths: buckets(s.lengths, LENGTH_BUCKETS), turns: buckets(s.turns, TURN_BUCKETS), withUsage: usage.withUsage };
    },
  };
}

/** `all` less `some`, matched by `key`, with `sub` taking one row's figures from another's; rows `keep` refuses are left out. */
function less<T>(all: T[], some: T[], key: (r: T) => string, sub: (a: T, b: T) => T, keep: (r: T) => boolean): T[] {
  const others = new Map(some.map((r) => [key(r), r]));
  return all
    .map((r) => {
      const o = others.get(key(r));
      return o ? sub(r, o) : r;
    })
    .filter(keep);
}

/**
 * `all` day rows less `some`, matched by day and group (a group of no name matching an empty one), as `less` with that
 * key, looked up day by day instead of by a string made for each row (100,000 sessions by project: 14,634 rows).
 * `reuse`: some's rows are the caller's own, each matched one overwritten with the difference instead of a row made
 * for it (`all`'s may be the kept totals', usage-kept-totals.ts, never changed; each of `all` is one day and group, so
 * no row of `some` is matched twice). 100,000 sessions, `parser` by project: ~10,000 rows not made, ~10 -> ~4 ms.
 */
function lessDays(all: DayRow[], some: DayRow[], keep: (r: DayRow) => boolean, reuse = false): DayRow[] {
  const others = new Map<string, Map<string, DayRow>>();
  for (const r of some) {
    let byGroup = others.get(r.day);
    if (!byGroup) others.set(r.day, (byGroup = new Map()));
    byGroup.set(r.g ?? '', r);
  }
  const rows: DayRow[] = [];
  for (const r of all) {
    const o = others.get(r.day)?.get(r.g ?? '');
    const row = o ? (reuse ? subRowInto(r, o) : subRow(r, o)) : r;
    if (keep(row)) rows.push(row);
  }
  return rows;
}

/**
 * Every file's totals (the writer's) less the other files' rows: for a query matching most files (a common word), whose
 * own rows would be most of the index's. Only without dates (the totals per model and project are over all time).
 */
function others(catalogue: IndexedCatalogue, stored: StoredScope, clock: Clock, breakdown: DashboardBreakdown): Parts {
  const all = new Rollup(catalogue, { ...stored.scope.parsed, filters: { ...stored.scope.parsed.filters, source: undefined } }, []);
  if (!stored.othersStored) storeOthers(catalogue);
  // One read of the others' packs (100,000 sessions, a word in 89%: 11,152 files, 29,561 day rows).
  const packed = packedOthers(catalogue, breakdown);
  const usage = packed?.usage ?? setUsage(catalogue, 'others', clock, breakdown, false);
  // The others' day rows are this call's own (their cells, setSums): overwritten with the differences.
  const rows = lessDays(all.dayRows(clock, breakdown), usage.rows, (r) => r.calls !== 0, true);
  const sessions = once(() => packed?.sessions ?? setSessions(catalogue, 'others'));
  return {
    rows,
    heatmap: (days) =>
      less(
        all.heatmap(clock, days),
        setHeatmap(usage, clock, days),
        (c) => `${c.day}\n${c.hour}`,
        (a, b) => ({ day: a.day, hour: a.hour, calls: a.calls - b.calls, totalTokens: a.totalTokens - b.totalTokens }),
        (c) => c.calls !== 0,
      ).sort(byDayHour),
    projects: () =>
      ranked(
        less(
          all.projects(ALL),
          usage.projects,
          (p) => p.name,
          (a, b) => ({ name: a.name, totalTokens: a.totalTokens - b.totalTokens, costUsd: a.costUsd - b.costUsd, sessions: a.sessions - b.sessions }),
          (p) => p.sessions > 0,
        ),
        (p) => p.totalTokens,
        10,
      ),
    models: () =>
      ranked(
        less(
          all.models(ALL),
          usage.models,
          (m) => m.name,
          (a, b) => ({
            name: a.name,
            totalTokens: a.totalTokens - b.totalTokens,
            costUsd: a.costUsd - b.costUsd,
            calls: a.calls - b.calls,
            unpricedCalls: a.unpricedCalls - b.unpricedCalls,
          }),
          (m) => m.calls > 0,
        ),
        (m) => m.totalTokens,
        10,
      ),
    tools: () =>
      ranked(
        less(
          all.tools(ALL),
          sessions().tools,
          (t) => t.name,
          (a, b) => ({ name: a.name, calls: a.calls - b.calls, failures: a.failures - b.failures }),
          (t) => t.calls > 0,
        ),
        (t) => t.calls,
        15,
      ),
    sessions: () => {
      const total = all.sessions();
      const s = sessions();
      const minus = (rows: Array<{ bucket: string; sessions: number }>, some: number[]) =>
        rows.map((r, i) => ({ bucket: r.bucket, sessions: r.sessions - (some[i] ?? 0) }));
      return { lengths: minus(total.lengths, s.lengths), turns: minus(total.turns, s.turns), withUsage: total.withUsage - usage.withUsage };
    },
  };
}

/** A day row's figures less another's. */
const subRow = (a: DayRow, b: DayRow): DayRow => ({
  day: a.day,
  g: a.g,
  input: a.input - b.input,
  output: a.output - b.output,
  cacheRead: a.cacheRead - b.cacheRead,
  cacheWrite: a.cacheWrite - b.cacheWrite,
  reasoning: a.reasoning - b.reasoning,
  cost: a.cost - b.cost,
  unpriced: a.unpriced - b.unpriced,
  calls: a.calls - b.calls,
});
/** A day row's figures less another's, written over the other (subRow's figures, no row made). */
function subRowInto(a: DayRow, b: DayRow): DayRow {
  b.day = a.day;
  b.g = a.g;
  b.input = a.input - b.input;
  b.output = a.output - b.output;
  b.cacheRead = a.cacheRead - b.cacheRead;
  b.cacheWrite = a.cacheWrite - b.cacheWrite;
  b.reasoning = a.reasoning - b.reasoning;
  b.cost = a.cost - b.cost;
  b.unpriced = a.unpriced - b.unpriced;
  b.calls = a.calls - b.calls;
  return b;
}
const subModel = (a: ModelSum, b: ModelSum): ModelSum => ({
  name: a.name,
  totalTokens: a.totalTokens - b.totalTokens,
  costUsd: a.costUsd - b.costUsd,
  calls: a.calls - b.calls,
  unpricedCalls: a.unpricedCalls - b.unpricedCalls,
});
const tokensOf = (r: DayRow) => r.input + r.output + r.cacheRead + r.cacheWrite + r.reasoning;

/**
 * For a query with dates whose counted files are most of those with usage on its days (`after:30d`): every file's
 * usage in the clock (usage-dated-totals.ts: the totals per day, the first and last day's hours from the hourly rows)
 * less the other files' with usage on those days (a few: found by day), where the counted files' own day rows were
 * tens of thousands. Tools and sessions still come from the counted files. Null when the others are not the fewer.
 */
export function fromDatedTotals(catalogue: IndexedCatalogue, stored: StoredScope, clock: Clock, breakdown: DashboardBreakdown): Parts | null {
  const most = Math.floor(stored.files / 2);
  const { first, last } = clockDays(clock);
  if (storeOthers(catalogue, { first, last, limit: most + 1 }) > most) return null;
  // The others' figures on the whole days from their day rows; on a day cut at an hour they are left out of every file's.
  const all = allInClock(catalogue, clock, breakdown, new Set(storedOthers(catalogue)));
  const usage = setUsage(catalogue, 'others', clock, breakdown, true, false);
  const rollup = new Rollup(catalogue, { ...stored.scope.parsed, filters: { ...stored.scope.parsed.filters, source: undefined } }, []);
  const read = once(() => countedSessions(catalogue, clock, all.edgeFiles));
  const counted = () => read().counted;
  const sessions = () => read().sessions;
  return {
    rows: lessDays(all.rows, usage.rows, (r) => r.calls !== 0 || tokensOf(r) !== 0),
    heatmap: (days) =>
      less(
        rollup.heatmap(clock, days),
        setHeatmap(usage, clock, days, true),
        (c) => `${c.day}\n${c.hour}`,
        (a, b) => ({ day: a.day, hour: a.hour, calls: a.calls - b.calls, totalTokens: a.totalTokens - b.totalTokens }),
        (c) => c.calls !== 0 || c.totalTokens !== 0,
      ).sort(byDayHour),
    projects: () => {
      // The projects of the counted files with usage in the clock, their figures the totals' less the others'.
      const totals = new Map(all.projects.map((p) => [p.name, p]));
      const theirs = new Map(usage.projects.map((p) => [p.name, p]));
      const rows = [...counted()].map(([name, sessions]) => {
        const t = totals.get(name);
        const o = theirs.get(name);
        return { name, totalTokens: (t?.totalTokens ?? 0) - (o?.totalTokens ?? 0), costUsd: (t?.costUsd ?? 0) - (o?.costUsd ?? 0), sessions };
      });
      return ranked(rows, (p) => p.totalTokens, 10);
    },
    models: () =>
      ranked(
        less(
          all.models,
          usage.models,
          (m) => m.name,
          subModel,
          (m) => m.calls !== 0 || m.totalTokens !== 0,
        ),
        (m) => m.totalTokens,
        10,
      ),
    tools: () => ranked(sessions().tools, (t) => t.calls, 15),
    sessions: () => {
      const s = sessions();
      return {
        lengths: buckets(s.lengths, LENGTH_BUCKETS),
        turns: buckets(s.turns, TURN_BUCKETS),
        withUsage: [...counted().values()].reduce((n, c) => n + c, 0),
      };
    },
  };
}

/**
 * The matched files' rows, or the totals less the others' when the matches are most files and the totals can say:
 * over all time (no dates), or, with dates, over the clock's days (the others then being those with usage on them).
 */
export function fromFileDays(catalogue: IndexedCatalogue, stored: StoredScope, clock: Clock, breakdown: DashboardBreakdown): Parts {
  const { afterMs, beforeMs } = stored.scope.parsed.filters;
  const bounded = afterMs !== undefined || beforeMs !== undefined;
  if (!bounded && stored.files * 2 > filesCounted(catalogue)) return others(catalogue, stored, clock, breakdown);
  return (bounded ? fromDatedTotals(catalogue, stored, clock, breakdown) : null) ?? matched(catalogue, clock, breakdown, bounded);
}
