// usageReport: tokens and cost per day, week, month or session, summed in SQL over the index's usage rows (no session file is read).
import type { SQLInputValue } from 'node:sqlite';
import type { MethodInput, MethodOutput } from '../../shared/api.ts';
import type { UsageFigures, UsageRowOut } from '../../shared/usage-api.ts';
import type { IndexedCatalogue } from './indexed-catalogue.ts';
import { parseQuery } from './query-parser.ts';
import { buildMatch, idConds, whereClause, withClause } from './search.ts';
import { hasVaultFilter, listingView, vaultFacts, type Annotated } from './search-service.ts';
import { dayIn, periodOfDay } from './usage-periods.ts';

type Input = MethodInput<'usageReport'>;
type Output = MethodOutput<'usageReport'>;

/** SQL for each breakdown's value of a row (a project is stored as its name and path, one per line: the name). */
const GROUP_SQL = {
  model: 'u.model',
  project: 'CASE WHEN instr(f.project, char(10)) > 0 THEN substr(f.project, 1, instr(f.project, char(10)) - 1) ELSE f.project END',
  source: 'f.format',
  branch: 'f.branch',
} as const;

const SUMS = `sum(u.input) AS input, sum(u.output) AS output, sum(u.cache_read) AS cacheRead, sum(u.cache_write) AS cacheWrite,
  sum(u.reasoning) AS reasoning, sum(u.cost) AS costUsd, sum(u.unpriced) AS unpricedCalls, count(DISTINCT u.file_id) AS sessions,
  group_concat(DISTINCT u.model) AS models, max(u.hour_ms) AS lastHour`;

interface SqlRow {
  period: string;
  grp: string | null;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
  costUsd: number;
  unpricedCalls: number;
  sessions: number;
  models: string | null;
  lastHour: number;
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

/** The hours with usage, each with its period, for the days the input allows (as a JSON array of [hour, period]). */
function hourPeriods(catalogue: IndexedCatalogue, input: Input, timeZone: string): string {
  const day = dayIn(timeZone);
  const pairs: Array<[number, string]> = [];
  for (const { h } of catalogue.index.prepared('SELECT DISTINCT hour_ms AS h FROM usage').all() as Array<{ h: number }>) {
    const d = day(h);
    if ((input.since && d < input.since) || (input.until && d > input.until)) continue;
    pairs.push([h, input.period === 'session' ? d : periodOfDay(input.period, d)]);
  }
  return JSON.stringify(pairs);
}

export function usageReport(catalogue: IndexedCatalogue, input: Input, annotated: Annotated): Output {
  const t0 = performance.now();
  const timeZone = input.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const parsed = parseQuery(input.query ?? '');
  const facts = hasVaultFilter(parsed.filters) ? vaultFacts(catalogue, parsed.filters, annotated, false) : null;
  // Every file counts once (a kept copy whose live file exists is left out); sub-agents count with their own usage.
  // listingView reads through `statement`, which waits for queued writes: the reads below need not wait again.
  const m = buildMatch(parsed, { excludeIds: listingView(catalogue).shadowed, onlyKeys: facts?.onlyKeys });
  const out: Output = { period: input.period, timezone: timeZone, rows: [], totals: emptyFigures(), problems: parsed.problems, tookMs: 0 };
  if (!m) return out;
  const periodSql = input.period === 'session' ? 'coalesce(f.parent_key, f.key)' : 'p.day';
  const groupSql = input.breakdown ? GROUP_SQL[input.breakdown] : 'NULL';
  const conds = [...idConds(m, 'f.id'), ...m.fileConds];
  // The report's hours first, each looked up in the usage_hour index: left to the planner, a count over every row
  // read the hours' list once per usage row (10,000 sessions: 210 -> 4 ms).
  const select = (columns: string, tail = '') =>
    `${withClause([...m.ctes, 'p(h, day) AS MATERIALIZED (SELECT value->>0, value->>1 FROM json_each(?))'])}
    SELECT ${columns} FROM p CROSS JOIN usage u ON u.hour_ms = p.h JOIN files f ON f.id = u.file_id${whereClause(conds)} ${tail}`;
  const params: SQLInputValue[] = [...m.cteParams, hourPeriods(catalogue, input, timeZone), ...m.idParams, ...m.fileParams];
  const order = input.period === 'session' ? 'lastHour, period' : 'period';
  const rows = catalogue.index
    .prepared(select(`${periodSql} AS period, ${groupSql} AS grp, ${SUMS}`, `GROUP BY 1, 2 ORDER BY ${order}, grp`))
    .all(...params) as unknown as SqlRow[];
  const day = dayIn(timeZone);
  const sessions = new Set<string>();
  for (const r of rows) {
    const totalTokens = r.input + r.output + r.cacheRead + r.cacheWrite + r.reasoning;
    const row: UsageRowOut = {
      period: r.period,
      ...(input.period === 'session' ? { lastDay: day(r.lastHour) } : {}),
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
    };
    out.rows.push(row);
    for (const k of ['input', 'output', 'cacheRead', 'cacheWrite', 'reasoning', 'totalTokens', 'costUsd', 'unpricedCalls'] as const) out.totals[k] += row[k];
    if (input.period === 'session') sessions.add(r.period);
  }
  // Distinct files across all the rows: a session spanning two days is one session in the totals.
  out.totals.sessions =
    input.period === 'session' ? sessions.size : (catalogue.index.prepared(select('count(DISTINCT u.file_id) AS n')).get(...params) as { n: number }).n;
  out.tookMs = Math.round((performance.now() - t0) * 10) / 10;
  return out;
}
