// The dashboard's figures from the totals the writer keeps (usage-schema.ts), for a query with no filter but `source:`: a few thousand rows, not every file's.
import type { SQLInputValue } from 'node:sqlite';
import type { DashboardBreakdown, UsageDashboard } from '../../shared/usage-api.ts';
import type { IndexedCatalogue } from './indexed-catalogue.ts';
import type { ParsedQuery } from './query-parser.ts';
import { withClause } from './search.ts';
import { counted, LENGTH_BUCKETS, TURN_BUCKETS } from './usage-buckets.ts';
import { dayOfNumber } from './usage-periods.ts';
import { addDayCell, dayNumber, hourOfDay, NONE, startOfDays, TZ_CTE, tzJoin, withDays, type Clock, type DayNumberRow, type DayRow } from './usage-timeline.ts';
import { USAGE_SUMS } from './usage-schema.ts';
import { SHADOWED_CTE } from './usage-match.ts';
import { kept, keptRows } from './usage-kept-totals.ts';

/**
 * Whether the totals can answer the query: no words, no filter but a source, and days stacked by model or source, or
 * by project when the days were counted in the dashboard's zone (`daysInZone`: the totals have no project per hour).
 */
export function rollupAnswers(parsed: ParsedQuery, breakdown: DashboardBreakdown, daysInZone = false): boolean {
  const { source, tags, ...rest } = parsed.filters;
  void source;
  return (breakdown !== 'project' || daysInZone) && parsed.terms.length === 0 && tags.length === 0 && Object.values(rest).every((v) => v === undefined);
}

/** The project's name in SQL (the column holds the name and the path, one per line). */
const PROJECT_NAME = (c: string) => `CASE WHEN instr(${c}, char(10)) > 0 THEN substr(${c}, 1, instr(${c}, char(10)) - 1) ELSE ${c} END`;

const TOKENS = (t: string) => `${t}.input + ${t}.output + ${t}.cache_read + ${t}.cache_write + ${t}.reasoning`;

/** The totals less what kept copies shadowed by their live file added (they are counted once, as the live file). */
export class Rollup {
  private readonly catalogue: IndexedCatalogue;
  private readonly shadowed: string;
  private readonly source: string | null;

  constructor(catalogue: IndexedCatalogue, parsed: ParsedQuery, shadowed: readonly number[]) {
    this.catalogue = catalogue;
    this.shadowed = JSON.stringify(shadowed);
    this.source = parsed.filters.source ?? null;
  }

  private all(sql: string, params: SQLInputValue[]): unknown[] {
    return this.catalogue.index.prepared(sql).all(...params);
  }

  /** `AND <column> = ?` when the query names a source (its parameter appended to `params`). */
  private bySource(column: string, params: SQLInputValue[]): string {
    if (this.source === null) return '';
    params.push(this.source);
    return ` AND ${column} = ?`;
  }

  /**
   * Usage per (key, group) in the clock's hours from `fromMs`: the totals plus, negated, the shadowed copies' rows.
   * `key` and the groups are SQL over `t` (the totals' or the file's row) with `tz` joined.
   */
  private perHour(clock: Clock, key: (t: string) => string, group: { totals: string; file: string }, fromMs = clock.fromMs, byHourOnly = false): unknown[] {
    const params: SQLInputValue[] = [this.shadowed, clock.spans, fromMs, clock.toMs];
    const sums = USAGE_SUMS.map((c) => `r.${c} AS ${c}`).join(', ');
    // `byHourOnly` (key and group of the hour alone): the totals' rows of an hour added up first, in their key's order
    // (no sort), so only one row an hour is placed in its zone and grouped (the heatmap's 60 days: ~15,000 rows -> 1,440).
    const totals = byHourOnly
      ? `SELECT ${key('r')} AS k, ${group.totals} AS g, ${sums} FROM (SELECT h.hour_ms AS hour_ms, ${USAGE_SUMS.map((c) => `sum(h.${c}) AS ${c}`).join(', ')}
        FROM usage_hours h WHERE h.hour_ms BETWEEN ? AND ?${this.bySource('h.format', params)} GROUP BY h.hour_ms) r ${tzJoin('r')}`
      : `SELECT ${key('r')} AS k, ${group.totals} AS g, ${sums} FROM usage_hours r ${tzJoin('r')} WHERE r.hour_ms BETWEEN ? AND ?${this.bySource('r.format', params)}`;
    params.push(fromMs, clock.toMs);
    const less = `SELECT ${key('u')}, ${group.file}, ${USAGE_SUMS.map((c) => `-u.${c}`).join(', ')} FROM sv_shadowed x CROSS JOIN usage u ON u.file_id = x.id JOIN usage_sessions s ON s.file_id = u.file_id ${tzJoin('u')}
      WHERE u.hour_ms BETWEEN ? AND ?${this.bySource('s.format', params)}`;
    return keptRows(
      this.catalogue.index,
      `${withClause([SHADOWED_CTE, TZ_CTE])}SELECT k, g, ${USAGE_SUMS.map((c) => `sum(${c}) AS ${c}`).join(', ')} FROM (${totals} UNION ALL ${less}) GROUP BY k, g`,
      params,
    );
  }

  /** Whether usage_days counts days in this zone for every file (the writer's zone, unless the machine's changed). */
  private daysIn(zone: string): boolean {
    const zones = this.all('SELECT DISTINCT zone FROM usage_days WHERE calls != 0', []) as Array<{ zone: string }>;
    return zones.length === 1 && zones[0]?.zone === zone;
  }

  /** The day rows of the totals read by `sql` (one row per day and group, as fromDays reads them when nothing is taken off). */
  private cells(sql: string, params: SQLInputValue[], breakdown: DashboardBreakdown): DayRow[] {
    const totals = this.catalogue.index.prepared(sql);
    totals.setReturnArrays(true);
    const rows: DayRow[] = [];
    for (const r of totals.all(...params) as unknown as unknown[][]) {
      if (r[9] === 0) continue;
      rows.push({
        day: r[0] as string,
        g: breakdown === 'model' ? (r[1] as string) || null : (r[1] as string | null),
        input: r[2] as number,
        output: r[3] as number,
        cacheRead: r[4] as number,
        cacheWrite: r[5] as number,
        reasoning: r[6] as number,
        cost: r[7] as number,
        unpriced: r[8] as number,
        calls: r[9] as number,
      });
    }
    return rows;
  }

  /**
   * Usage per local day and group from usage_days (a row per day, model and source), less the shadowed copies. The
   * totals are added up in their primary key's order (zone, day, model or project, source), so by model or project
   * SQL groups them without a sort (100,000 sessions by project: 14,634 groups, 43 -> 29 ms); the shadowed copies' rows,
   * read apart, are taken off in JS.
   */
  private fromDays(clock: Clock, breakdown: DashboardBreakdown): DayRow[] {
    // Stacked by project: usage_project_days, the same totals per project instead of per model.
    const g =
      breakdown === 'source'
        ? { totals: 'r.format', file: 's.format' }
        : breakdown === 'project'
          ? { totals: 'r.project', file: PROJECT_NAME('s.project') }
          : { totals: 'r.model', file: "coalesce(u.model, '')" };
    const table = breakdown === 'project' ? 'usage_project_days' : 'usage_days';
    // By project over every source: the totals per day and project (schema 15), a row per cell, nothing to group
    // (100,000 sessions: 14,634 rows, where grouping usage_project_days' 36,351 took 22 -> 13 ms).
    const whole = breakdown === 'project' && this.source === null;
    const cells = new Map<string, DayRow>();
    const add = (r: unknown[], sign: 1 | -1) => {
      const day = r[0] as string;
      // A model of no name is the group null (as the per-file rows have it).
      const group = breakdown === 'model' ? (r[1] as string) || null : (r[1] as string | null);
      addDayCell(cells, day, group, r.slice(2) as number[], sign);
    };
    const totalsParams: SQLInputValue[] = [clock.timezone];
    const totalsSql = whole
      ? `SELECT r.day, r.project, ${USAGE_SUMS.map((c) => `r.${c}`).join(', ')} FROM usage_project_day_totals r WHERE r.zone = ? AND r.day != ''`
      : `SELECT r.day, ${g.totals}, ${USAGE_SUMS.map((c) => `sum(r.${c})`).join(', ')} FROM ${table} r
      WHERE r.zone = ? AND r.day != ''${this.bySource('r.format', totalsParams)} GROUP BY r.day, ${g.totals}`;
    if (this.shadowed === '[]') {
      // Nothing to take off: each row of the totals is one day and group's cell as it comes, no cell looked up by a key
      // (100,000 sessions by project: 14,634 rows, 35 -> 26 ms), read all at once rather than stepped one by one
      // (~19 -> ~11 ms); and kept until the index changes (usage-kept-totals.ts: the same for every query, ~14 ms).
      return kept(this.catalogue.index, `dayRows ${breakdown}${JSON.stringify(totalsParams)}\n${totalsSql}`, () =>
        this.cells(totalsSql, totalsParams, breakdown),
      );
    }
    for (const r of keptRows(this.catalogue.index, totalsSql, totalsParams, true) as unknown[][]) add(r, 1);
    const params: SQLInputValue[] = [this.shadowed, clock.spans, clock.fromMs, clock.toMs];
    const less = this.catalogue.index.prepared(
      `${withClause([SHADOWED_CTE, TZ_CTE])}SELECT date(${dayNumber('u')} * 86400, 'unixepoch'), ${g.file}, ${USAGE_SUMS.map((c) => `u.${c}`).join(', ')}
      FROM sv_shadowed x CROSS JOIN usage u ON u.file_id = x.id JOIN usage_sessions s ON s.file_id = u.file_id ${tzJoin('u')}
      WHERE u.hour_ms BETWEEN ? AND ?${this.bySource('s.format', params)}`,
    );
    less.setReturnArrays(true);
    for (const r of less.iterate(...params) as Iterable<unknown[]>) add(r, -1);
    return [...cells.values()].filter((r) => r.calls !== 0);
  }

  dayRows(clock: Clock, breakdown: DashboardBreakdown): DayRow[] {
    if (this.daysIn(clock.timezone)) return this.fromDays(clock, breakdown);
    if (breakdown === 'project') throw new Error('The totals have no project per hour: days stacked by project need the days counted in this time zone.');
    const group = breakdown === 'source' ? { totals: 'r.format', file: 's.format' } : { totals: "nullif(r.model, '')", file: 'u.model' };
    const rows = this.perHour(clock, dayNumber, group) as Array<
      Omit<DayNumberRow, 'dn' | 'cacheRead' | 'cacheWrite'> & { k: number; cache_read: number; cache_write: number }
    >;
    return withDays(
      rows
        .filter((r) => r.calls !== 0)
        .map((r) => ({
          dn: r.k,
          g: r.g,
          input: r.input,
          output: r.output,
          cacheRead: r.cache_read,
          cacheWrite: r.cache_write,
          reasoning: r.reasoning,
          cost: r.cost,
          unpriced: r.unpriced,
          calls: r.calls,
        })),
    );
  }

  heatmap(clock: Clock, days: readonly string[]): UsageDashboard['heatmap'] {
    if (!days.length) return [];
    const wanted = new Set(days);
    const rows = this.perHour(clock, dayNumber, { totals: hourOfDay('r'), file: hourOfDay('u') }, startOfDays(days, clock), true) as Array<{
      k: number;
      g: number;
      calls: number;
      input: number;
      output: number;
      cache_read: number;
      cache_write: number;
      reasoning: number;
    }>;
    return rows
      .filter((r) => r.calls !== 0)
      .map((r) => ({ day: dayOfNumber(r.k), hour: Number(r.g), calls: r.calls, totalTokens: r.input + r.output + r.cache_read + r.cache_write + r.reasoning }))
      .filter((c) => wanted.has(c.day))
      .sort((a, b) => a.day.localeCompare(b.day) || a.hour - b.hour);
  }

  /** The models with the most tokens, over every hour (the totals per model; with dates, the query goes per file). */
  models(limit = 10): UsageDashboard['models'] {
    const params: SQLInputValue[] = [this.shadowed];
    const name = (c: string) => `coalesce(nullif(${c}, ''), '${NONE}')`;
    const totals = `SELECT ${name('r.model')} AS name, r.tokens AS tokens, r.cost AS cost, r.unpriced AS unpriced, r.calls AS calls FROM usage_models r WHERE true${this.bySource('r.format', params)}`;
    const less = `SELECT ${name('u.model')}, -(${TOKENS('u')}), -u.cost, -u.unpriced, -u.calls FROM sv_shadowed x CROSS JOIN usage u ON u.file_id = x.id JOIN usage_sessions s ON s.file_id = u.file_id
      WHERE u.hour_ms > 0${this.bySource('s.format', params)}`;
    const sql = `${withClause([SHADOWED_CTE])}SELECT name, sum(tokens) AS totalTokens, sum(cost) AS costUsd, sum(calls) AS calls, sum(unpriced) AS unpricedCalls FROM (${totals} UNION ALL ${less})
      GROUP BY name HAVING sum(calls) > 0 ORDER BY 2 DESC, 1 LIMIT ${limit}`;
    return this.all(sql, params) as UsageDashboard['models'];
  }

  projects(limit = 10): UsageDashboard['projects'] {
    const params: SQLInputValue[] = [this.shadowed];
    const name = (c: string) =>
      `coalesce(nullif(CASE WHEN instr(${c}, char(10)) > 0 THEN substr(${c}, 1, instr(${c}, char(10)) - 1) ELSE ${c} END, ''), '${NONE}')`;
    const totals = `SELECT ${name('r.project')} AS name, r.tokens AS tokens, r.cost AS cost, r.with_usage AS sessions FROM usage_projects r WHERE true${this.bySource('r.format', params)}`;
    const less = `SELECT ${name('s.project')}, -coalesce((SELECT sum(${TOKENS('u')}) FROM usage u WHERE u.file_id = s.file_id), 0), -coalesce((SELECT sum(u.cost) FROM usage u WHERE u.file_id = s.file_id), 0), -s.with_usage
      FROM sv_shadowed x JOIN usage_sessions s ON s.file_id = x.id WHERE true${this.bySource('s.format', params)}`;
    const sql = `${withClause([SHADOWED_CTE])}SELECT name, sum(tokens) AS totalTokens, sum(cost) AS costUsd, sum(sessions) AS sessions FROM (${totals} UNION ALL ${less})
      GROUP BY name HAVING sum(sessions) > 0 AND sum(tokens) > 0 ORDER BY 2 DESC, 1 LIMIT ${limit}`;
    return this.all(sql, params) as UsageDashboard['projects'];
  }

  tools(limit = 15): UsageDashboard['tools'] {
    const params: SQLInputValue[] = [this.shadowed];
    const totals = `SELECT r.name AS name, r.calls AS calls, r.failures AS failures FROM usage_tool_totals r WHERE true${this.bySource('r.format', params)}`;
    const less = `SELECT t.name, -t.calls, -t.failures FROM sv_shadowed x JOIN usage_tools t ON t.file_id = x.id JOIN usage_sessions s ON s.file_id = t.file_id WHERE true${this.bySource('s.format', params)}`;
    return this.all(
      `${withClause([SHADOWED_CTE])}SELECT name, sum(calls) AS calls, sum(failures) AS failures FROM (${totals} UNION ALL ${less}) GROUP BY name HAVING sum(calls) > 0 ORDER BY 2 DESC, 1 LIMIT ${limit}`,
      params,
    ) as UsageDashboard['tools'];
  }

  /** Sessions per length and turns bucket (top-level sessions), and the files with usage. */
  sessions(): { lengths: UsageDashboard['lengths']; turns: UsageDashboard['turns']; withUsage: number } {
    const params: SQLInputValue[] = [this.shadowed];
    const totals = `SELECT r.top_level AS top, r.length_bucket AS lb, r.turn_bucket AS tb, r.sessions AS n, r.with_usage AS w FROM usage_session_totals r WHERE true${this.bySource('r.format', params)}`;
    const turnBucket = TURN_BUCKETS.slice(0, -1)
      .map(([bound], i) => `WHEN s.turns <= ${bound} THEN ${i}`)
      .join(' ');
    const less = `SELECT s.top_level, s.length_bucket, CASE ${turnBucket} ELSE ${TURN_BUCKETS.length - 1} END, -1, -s.with_usage FROM sv_shadowed x JOIN usage_sessions s ON s.file_id = x.id WHERE true${this.bySource('s.format', params)}`;
    const rows = this.all(
      `${withClause([SHADOWED_CTE])}SELECT top, lb, tb, sum(n) AS n, sum(w) AS w FROM (${totals} UNION ALL ${less}) GROUP BY top, lb, tb`,
      params,
    ) as Array<{ top: number; lb: number; tb: number; n: number; w: number }>;
    const top = rows.filter((r) => r.top === 1);
    return {
      lengths: counted(
        top.filter((r) => r.lb >= 0).map((r) => ({ b: r.lb, n: r.n })),
        LENGTH_BUCKETS,
      ),
      turns: counted(
        top.map((r) => ({ b: r.tb, n: r.n })),
        TURN_BUCKETS,
      ),
      withUsage: rows.reduce((n, r) => n + r.w, 0),
    };
  }
}
