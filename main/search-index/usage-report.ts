// usageReport: tokens and cost per day, week, month or session, summed in SQL over the index's usage rows (no session file is read).
import type { SQLInputValue } from 'node:sqlite';
import type { MethodInput, MethodOutput } from '../../shared/api.ts';
import type { UsageFigures, UsageRowOut } from '../../shared/usage-api.ts';
import type { IndexedCatalogue } from './indexed-catalogue.ts';
import { withClause } from './search.ts';
import type { Annotated } from './search-service.ts';
import { catalogueSource, usageScope, type UsageSource } from './usage-match.ts';
import { dayIn, localHours, periodOfDay } from './usage-periods.ts';
import { costText } from './usage-cost-text.ts';
import { reportFromTotals, type PeriodRow } from './usage-report-totals.ts';
import { heldFinite } from '../../shared/held-sum.ts';

type Input = MethodInput<'usageReport'>;
type Output = MethodOutput<'usageReport'>;

/** SQL for each breakdown's value of a row (a project is stored as its name and path, one per line: the name). */
export const GROUP_SQL = {
  model: 'u.model',
  project: 'CASE WHEN instr(f.project, char(10)) > 0 THEN substr(f.project, 1, instr(f.project, char(10)) - 1) ELSE f.project END',
  source: 'f.format',
  branch: 'f.branch',
} as const;

const SUMS = `sum(u.input) AS input, sum(u.output) AS output, sum(u.cache_read) AS cacheRead, sum(u.cache_write) AS cacheWrite,
  sum(u.reasoning) AS reasoning, sum(u.cost) AS costUsd, sum(u.unpriced) AS unpricedCalls, count(DISTINCT u.file_id) AS sessions,
  group_concat(DISTINCT u.model) AS models, max(u.hour_ms) AS lastHour`;
/** A session row's own usage, without its sub-agents' (they are rows of files with a parent). */
const OWN = `sum(CASE WHEN f.parent_key IS NULL THEN u.input + u.output + u.cache_read + u.cache_write + u.reasoning ELSE 0 END) AS ownTokens,
  sum(CASE WHEN f.parent_key IS NULL THEN u.cost ELSE 0 END) AS ownCost, sum(CASE WHEN f.parent_key IS NULL THEN u.unpriced ELSE 0 END) AS ownUnpriced`;

/** A row as the SQL over the hourly rows gives it: a PeriodRow (what the day totals give too), with the session report's columns. */
interface SqlRow extends PeriodRow {
  lastHour: number;
  ownTokens?: number;
  ownCost?: number;
  ownUnpriced?: number;
}

const emptyFigures = (): UsageFigures => ({
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  reasoning: 0,
  totalTokens: 0,
  costUsd: 0,
  unpricedCalls: 0,
  sessions: 0,
});

/**
 * Hour 0 holds the calls with no known time (usage-rows.ts dates them by the session, else at 0): they are on no day,
 * so the periods and any --since/--until leave them out (as the dashboard does); only the session report counts them.
 */
const UNDATED_HOUR = 0;

/**
 * The hours with usage, each with its period, for the days the input allows (as a JSON array of [hour, period]); the
 * hours from the writer's totals (one row per hour and model, not per file), their days asked of Intl once a day.
 */
function hourPeriods(catalogue: Pick<UsageSource, 'index'>, input: Input, timeZone: string): string {
  const local = localHours(timeZone);
  const pairs: Array<[number, string]> = [];
  for (const { h } of catalogue.index.prepared('SELECT DISTINCT hour_ms AS h FROM usage_hours').all() as Array<{ h: number }>) {
    if (h === UNDATED_HOUR && (input.period !== 'session' || input.since || input.until)) continue;
    const d = local(h).day;
    if ((input.since && d < input.since) || (input.until && d > input.until)) continue;
    pairs.push([h, input.period === 'session' ? d : periodOfDay(input.period, d)]);
  }
  return JSON.stringify(pairs);
}

/** What the periods left out for having no known time, as a sentence (null when nothing was). */
function undatedProblem(catalogue: UsageSource, scope: ReturnType<typeof usageScope>): string | null {
  const sql = `${withClause(scope.ctes)}SELECT count(DISTINCT u.file_id) AS files, sum(u.input + u.output + u.cache_read + u.cache_write + u.reasoning) AS tokens,
    sum(u.cost) AS cost, sum(u.unpriced) AS unpriced FROM usage u WHERE u.hour_ms = ${UNDATED_HOUR} AND ${scope.cond('u.file_id')}`;
  const r = catalogue.index.prepared(sql).get(...scope.params) as { files: number; tokens: number | null; cost: number | null; unpriced: number | null };
  if (!r.files) return null;
  const cost = costText({ costUsd: r.cost ?? 0, unpricedCalls: r.unpriced ?? 0 });
  const tokens = Math.round(r.tokens ?? 0).toLocaleString('en-US');
  return `${r.files} session${r.files === 1 ? ' has' : 's have'} usage with no known time (${tokens} tokens, ${cost}): left out of the days.`;
}

export function usageReport(catalogue: IndexedCatalogue, input: Input, annotated: Annotated): Output {
  return reportFrom(catalogueSource(catalogue, annotated), input);
}

/**
 * The report from any usage source (the app's catalogue, or the CLI's index read as it is: usage-fast-path.ts).
 * `fromTotals` false: always from every counted file's hourly rows (the reference the totals' path is tested against).
 */
export function reportFrom(catalogue: UsageSource, input: Input, fromTotals = true): Output {
  const t0 = performance.now();
  const timeZone = input.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  // Every file counts once (a kept copy whose live file exists is left out), sub-agents with their own usage, and
  // with the parent a query matched (usage-match.ts).
  const scope = usageScope(catalogue, input.query ?? '');
  const out: Output = { period: input.period, timezone: timeZone, rows: [], totals: emptyFigures(), problems: scope.parsed.problems, tookMs: 0 };
  if (!scope.any) return out;
  const bySession = input.period === 'session';
  const periodSql = bySession ? 'coalesce(f.parent_key, f.key)' : 'p.day';
  const groupSql = input.breakdown ? GROUP_SQL[input.breakdown] : 'NULL';
  // The report's hours first, each looked up in the usage_hour index: left to the planner, a count over every row
  // read the hours' list once per usage row (10,000 sessions: 210 -> 4 ms).
  const select = (columns: string, tail = '') =>
    `${withClause([...scope.ctes, 'p(h, day) AS MATERIALIZED (SELECT value->>0, value->>1 FROM json_each(?))'])}
    SELECT ${columns} FROM p CROSS JOIN usage u ON u.hour_ms = p.h JOIN files f ON f.id = u.file_id WHERE ${scope.cond('u.file_id')} ${tail}`;
  // Days, weeks or months of every file (or a source's): from the writer's totals per day (usage-report-totals.ts).
  const totals = fromTotals && !bySession ? reportFromTotals(catalogue, input, scope, timeZone) : null;
  const params: SQLInputValue[] = totals ? [] : [...scope.params, hourPeriods(catalogue, input, timeZone)];
  const order = bySession ? 'lastHour, period' : 'period';
  const columns = `${periodSql} AS period, ${groupSql} AS grp, ${SUMS}${bySession ? `, ${OWN}` : ''}`;
  const rows = totals
    ? (totals.rows as SqlRow[])
    : (catalogue.index.prepared(select(columns, `GROUP BY 1, 2 ORDER BY ${order}, grp`)).all(...params) as unknown as SqlRow[]);
  const day = dayIn(timeZone);
  const sessions = new Set<string>();
  for (const r of rows) {
    const totalTokens = r.input + r.output + r.cacheRead + r.cacheWrite + r.reasoning;
    const row: UsageRowOut = {
      period: r.period,
      ...(bySession && r.lastHour !== UNDATED_HOUR ? { lastDay: day(r.lastHour) } : {}),
      models: r.models ? r.models.split(',').sort() : [],
      ...(input.breakdown ? { group: r.grp } : {}),
      input: r.input,
      output: r.output,
      cacheRead: r.cacheRead,
      cacheWrite: r.cacheWrite,
      reasoning: r.reasoning,
      totalTokens,
      costUsd: r.costUsd,
      unpricedCalls: r.unpricedCalls,
      sessions: r.sessions,
      ...(bySession ? { own: { totalTokens: r.ownTokens ?? 0, costUsd: r.ownCost ?? 0, unpricedCalls: r.ownUnpriced ?? 0 } } : {}),
    };
    out.rows.push(row);
    for (const k of ['input', 'output', 'cacheRead', 'cacheWrite', 'reasoning', 'totalTokens', 'costUsd', 'unpricedCalls'] as const) out.totals[k] += row[k];
    if (bySession) sessions.add(r.period);
  }
  // Distinct files across all the rows: a session spanning two days is one session in the totals.
  out.totals.sessions = bySession
    ? sessions.size
    : (totals?.sessions ?? (catalogue.index.prepared(select('count(DISTINCT u.file_id) AS n')).get(...params) as { n: number }).n);
  if (!bySession && !input.since && !input.until) {
    const problem = undatedProblem(catalogue, scope);
    if (problem) out.problems.push(problem);
  }
  out.tookMs = Math.round((performance.now() - t0) * 10) / 10;
  // Held finite: sums over damaged sessions (1e308 tokens each) reach Infinity, which JSON sends as null.
  return heldFinite(out);
}
