// `usage daily|weekly|monthly` from the writer's totals per day (usage_days) and each file's day rows (usage_file_days), for a report with no filter but `source:`: thousands of rows read instead of every file's hourly rows.
import type { SQLInputValue } from 'node:sqlite';
import type { MethodInput } from '../../shared/api.ts';
import type { UsageBreakdown } from '../../shared/usage-api.ts';
import { withClause } from './search.ts';
import type { UsageScope, UsageSource } from './usage-match.ts';
import { periodOfDay } from './usage-periods.ts';
import { rollupAnswers } from './usage-rollup.ts';
import { USAGE_SUMS } from './usage-schema.ts';
import { SHADOWED_CTE } from './usage-match.ts';
import type { TokenCounts } from './usage-rows.ts';

type Input = MethodInput<'usageReport'>;

/** A report's row as its SQL over the hourly rows gives it (usage-report.ts), before it is shaped for the contract. */
export interface PeriodRow extends TokenCounts {
  period: string;
  grp: string | null;
  costUsd: number;
  unpricedCalls: number;
  sessions: number;
  models: string | null;
}

const PERIODS_CTE = 'p(day, period) AS MATERIALIZED (SELECT value->>0, value->>1 FROM json_each(?))';

/** Each breakdown the totals hold, as SQL over a totals row (`t`), a file's day row (`d`) and its session row (`s`). */
const GROUPS: Partial<Record<UsageBreakdown | 'none', { totals: string; file: string; needsSession: boolean }>> = {
  none: { totals: 'NULL', file: 'NULL', needsSession: false },
  // A call of no known model is stored under '' in the day rows and is the group null, as the hourly rows have it.
  model: { totals: "nullif(t.model, '')", file: "nullif(d.model, '')", needsSession: false },
  source: { totals: 't.format', file: 's.format', needsSession: true },
};

/**
 * Whether the writer's day totals answer the report: a period of days (not per session), a breakdown they hold, no
 * filter but a source, and every file's days counted in the report's time zone (the writer counts them in the
 * machine's zone, with the same hour-to-day rule the report uses: usage-periods.ts localHours).
 */
function answerable(source: UsageSource, input: Input, scope: UsageScope, timeZone: string): boolean {
  if (input.period === 'session' || !GROUPS[input.breakdown ?? 'none'] || !rollupAnswers(scope.parsed, 'model')) return false;
  const zones = source.index.prepared('SELECT DISTINCT zone FROM usage_days').all() as Array<{ zone: string }>;
  return zones.length === 1 && zones[0]?.zone === timeZone;
}

/** The report's days (those with usage in the zone, within --since/--until) with their period, as a JSON array of [day, period]. */
function dayPeriods(source: UsageSource, input: Input, timeZone: string): string {
  const period = input.period as Exclude<Input['period'], 'session'>;
  const pairs: Array<[string, string]> = [];
  for (const { day } of source.index.prepared("SELECT DISTINCT day FROM usage_days WHERE zone = ? AND day != ''").all(timeZone) as Array<{ day: string }>) {
    if ((input.since && day < input.since) || (input.until && day > input.until)) continue;
    pairs.push([day, periodOfDay(period, day)]);
  }
  return JSON.stringify(pairs);
}

/**
 * The report's rows and its distinct sessions from the totals, or null when they cannot answer it (the caller reads the
 * hourly rows). The totals less the kept copies a live file shadows (their day rows taken off), per period, group and
 * model; the sessions counted from the files' day rows (a sub-agent is a file of its own, as in the hourly rows).
 */
export function reportFromTotals(source: UsageSource, input: Input, scope: UsageScope, timeZone: string): { rows: PeriodRow[]; sessions: number } | null {
  if (!answerable(source, input, scope, timeZone)) return null;
  const group = GROUPS[input.breakdown ?? 'none'] as NonNullable<(typeof GROUPS)['none']>;
  const tool = scope.parsed.filters.source;
  const shadowed = JSON.stringify(scope.shadowed);
  const days = dayPeriods(source, input, timeZone);
  const ctes = withClause([SHADOWED_CTE, PERIODS_CTE]);

  const sumParams: SQLInputValue[] = [shadowed, days, timeZone];
  const totalsSource = tool === undefined ? '' : (sumParams.push(tool), ' AND t.format = ?');
  const copiesSource = tool === undefined ? '' : (sumParams.push(tool), ' WHERE s.format = ?');
  const sums = source.index.prepared(
    `${ctes}SELECT p.period AS period, r.g AS grp, r.model AS model, ${USAGE_SUMS.map((c) => `sum(r.${c}) AS ${c}`).join(', ')} FROM (
      SELECT t.day AS day, ${group.totals} AS g, t.model AS model, ${USAGE_SUMS.map((c) => `t.${c} AS ${c}`).join(', ')} FROM usage_days t WHERE t.zone = ?${totalsSource}
      UNION ALL
      SELECT d.day, ${group.file}, d.model, ${USAGE_SUMS.map((c) => `-d.${c}`).join(', ')} FROM sv_shadowed x CROSS JOIN usage_file_days d ON d.file_id = x.id
        JOIN usage_sessions s ON s.file_id = d.file_id${copiesSource}
    ) r JOIN p ON p.day = r.day GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
  );
  sums.setReturnArrays(true);

  const countParams: SQLInputValue[] = [shadowed, days];
  const withSession = group.needsSession || tool !== undefined;
  const countFrom = `usage_file_days d${withSession ? ' JOIN usage_sessions s ON s.file_id = d.file_id' : ''} JOIN p ON p.day = d.day`;
  const countWhere = `d.file_id NOT IN sv_shadowed${tool === undefined ? '' : ' AND s.format = ?'}`;
  if (tool !== undefined) countParams.push(tool);
  const counts = new Map<string, number>();
  const keyOf = (period: string, grp: string | null) => `${period}\n${grp ?? '\u0000'}`;
  const perGroup = source.index.prepared(
    `${ctes}SELECT p.period, ${group.file}, count(DISTINCT d.file_id) FROM ${countFrom} WHERE ${countWhere} GROUP BY 1, 2`,
  );
  perGroup.setReturnArrays(true);
  for (const [period, grp, n] of perGroup.all(...countParams) as unknown as Array<[string, string | null, number]>) counts.set(keyOf(period, grp), n);
  const distinct = source.index.prepared(`${ctes}SELECT count(DISTINCT d.file_id) AS n FROM ${countFrom} WHERE ${countWhere}`).get(...countParams) as {
    n: number;
  };

  const rows: PeriodRow[] = [];
  const models = new Map<PeriodRow, string[]>();
  for (const r of sums.iterate(...sumParams) as Iterable<unknown[]>) {
    const [period, grp, model] = r as [string, string | null, string];
    const [input_, output, cacheRead, cacheWrite, reasoning, cost, unpriced, calls] = r.slice(3) as number[] as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    // What the shadowed copies alone added nets to nothing: that model was not called in this period by a counted file.
    if (calls === 0 && input_ + output + cacheRead + cacheWrite + reasoning === 0 && unpriced === 0) continue;
    let row = rows.at(-1);
    if (!row || row.period !== period || row.grp !== grp) {
      row = {
        period,
        grp,
        input: 0,
        output: 0,
        cacheRead: 0,
        cacheWrite: 0,
        reasoning: 0,
        costUsd: 0,
        unpricedCalls: 0,
        sessions: counts.get(keyOf(period, grp)) ?? 0,
        models: null,
      };
      rows.push(row);
      models.set(row, []);
    }
    row.input += input_;
    row.output += output;
    row.cacheRead += cacheRead;
    row.cacheWrite += cacheWrite;
    row.reasoning += reasoning;
    row.costUsd += cost;
    row.unpricedCalls += unpriced;
    if (model !== '') models.get(row)?.push(model);
  }
  for (const row of rows) row.models = models.get(row)?.join(',') || null;
  return { rows, sessions: distinct.n };
}
