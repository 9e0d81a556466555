// The dashboard's figures for a `model:` query from the totals per set of model names (usage-name-totals.ts), with the few files those cannot tell (sub-agents of a matched parent, shadowed kept copies) added or taken off from their own rows.
import type { SQLInputValue } from 'node:sqlite';
import type { DashboardBreakdown, UsageDashboard } from '../../shared/usage-api.ts';
import { counted, LENGTH_BUCKETS, TURN_BUCKETS } from './usage-buckets.ts';
import type { Parts } from './usage-dashboard-sets.ts';
import { ranked, setHeatmap, setSessions, setUsage, type SetSessions, type SetUsage } from './usage-file-days.ts';
import { nameTest } from './usage-file-models.ts';
import type { UsageScope, UsageSource } from './usage-match.ts';
import type { ParsedQuery } from './query-parser.ts';
import { recentFiles, storeFiles } from './usage-scope-table.ts';
import { addDayCell, NONE, type Clock, type DayRow } from './usage-timeline.ts';
import { USAGE_SUMS } from './usage-schema.ts';
import { SHADOWED_CTE } from './usage-match.ts';

/**
 * Whether the totals per set of names answer the query: `model:` (and perhaps `source:`) with no words and no other
 * filter, the days stacked by model or source (the totals have no project per day).
 */
export function namesAnswer(parsed: ParsedQuery, breakdown: DashboardBreakdown): boolean {
  const { model, source, exact, tags, ...rest } = parsed.filters;
  void source;
  return (
    model !== undefined &&
    breakdown !== 'project' &&
    parsed.terms.length === 0 &&
    tags.length === 0 &&
    !exact?.project &&
    !exact?.branch &&
    Object.values(rest).every((v) => v === undefined)
  );
}

/** The query's test of a file: its names (and its source), as CTEs with their parameters and a condition on a file id. */
interface FileTest {
  ctes: string[];
  params: SQLInputValue[];
  /** The file `id` matches the query itself. */
  matches: (id: string) => string;
}

function fileTest(parsed: ParsedQuery): FileTest {
  const { model, source, exact } = parsed.filters;
  const test = nameTest({ model: model as string, exact });
  // The names that pass (a few dozen, stepped through along the primary key), then each file's own names (a few, by its id).
  const ctes = [
    `sv_names_all(name) AS (SELECT min(model) FROM usage_file_models UNION ALL SELECT (SELECT min(model) FROM usage_file_models WHERE model > name) FROM sv_names_all WHERE name IS NOT NULL)`,
    `sv_names_in AS MATERIALIZED (SELECT name FROM sv_names_all WHERE name IS NOT NULL AND ${test.sql('name')})`,
  ];
  const params: SQLInputValue[] = [test.param];
  if (source) {
    ctes.push('sv_names_source(v) AS (SELECT ?)');
    params.push(source);
  }
  const ofSource = (id: string) => (source ? ` AND (SELECT sv_s.format FROM files sv_s WHERE sv_s.id = ${id}) = (SELECT v FROM sv_names_source)` : '');
  return {
    ctes,
    params,
    matches: (id) =>
      `(EXISTS (SELECT 1 FROM usage_file_models sv_m INDEXED BY usage_file_models_file WHERE sv_m.file_id = ${id} AND sv_m.model IN sv_names_in)${ofSource(id)})`,
  };
}

/**
 * The files the query counts, tested one by one (for the few rows of the current block and the rate limits): every
 * match but the shadowed copies, and `subAgents` (the sub-agents that count with a matched parent, found already).
 * `source` (the block's) narrows them to one tool.
 */
function perFileScope(parsed: ParsedQuery, shadowed: readonly number[], subAgents: readonly number[], source?: string): UsageScope {
  const t = fileTest(parsed);
  const ctes = [SHADOWED_CTE, ...t.ctes, 'sv_counting AS MATERIALIZED (SELECT value AS id FROM json_each(?))'];
  const params: SQLInputValue[] = [JSON.stringify(shadowed), ...t.params, JSON.stringify(subAgents)];
  if (source !== undefined) {
    ctes.push('sv_block_source(v) AS (SELECT ?)');
    params.push(source);
  }
  const counted = (c: string) =>
    `((${c} IN sv_counting OR (${c} NOT IN sv_shadowed AND ${t.matches(c)}))${source !== undefined ? ` AND (SELECT sv_b.format FROM files sv_b WHERE sv_b.id = ${c}) = (SELECT v FROM sv_block_source)` : ''})`;
  return {
    parsed: source === undefined ? parsed : { ...parsed, filters: { ...parsed.filters, source: source as ParsedQuery['filters']['source'] } },
    shadowed,
    ctes,
    params,
    cond: counted,
    sessionCond: (c) => `(${counted(c)} AND ${c} NOT IN (SELECT id FROM files WHERE parent_key IS NOT NULL))`,
    from: (a) => `usage ${a}`,
    where: (a) => counted(`${a}.file_id`),
    any: true,
  };
}

/** A set of files' own figures: their rows (setUsage) and their tools and sessions (setSessions), read while they are stored. */
interface Correction {
  usage: SetUsage;
  sessions: SetSessions;
}

function correction(source: Pick<UsageSource, 'index'>, clock: Clock, breakdown: DashboardBreakdown, stored: number): Correction | null {
  if (!stored) return null;
  return { usage: setUsage(source, 'matched', clock, breakdown, false), sessions: setSessions(source, 'matched') };
}

/**
 * The totals of the sets of names the query's `model:` matches, less the shadowed kept copies among them (counted as
 * their live file), with the sub-agents that are no match themselves but count with a matched parent: their own rows
 * added, or, when they are most of such sub-agents, the totals of every such sub-agent less the others' rows.
 */
export function fromNameTotals(
  source: Pick<UsageSource, 'index'>,
  scope: UsageScope,
  clock: Clock,
  breakdown: DashboardBreakdown,
): { parts: Parts; blockScope: (source: string, sinceMs: number) => UsageScope; limitsScope: UsageScope } {
  const { parsed, shadowed } = scope;
  const t = fileTest(parsed);
  const shadowedJson = JSON.stringify(shadowed);
  const sets = JSON.stringify(
    (
      source.index
        .prepared(
          `WITH ${t.ctes.join(', ')} SELECT DISTINCT s.names AS names FROM usage_name_sessions s WHERE EXISTS (SELECT 1 FROM json_each(s.names) j WHERE j.value IN sv_names_in)`,
        )
        .all(...t.params) as Array<{ names: string }>
    ).map((r) => r.names),
  );
  const format = parsed.filters.source ?? null;

  // The sub-agents that are no match themselves (a few probes each, by their parent's key), and whether they count:
  // they do when a match that is not a shadowed copy is their parent, and they are not shadowed themselves. (A file
  // with an empty parent key is a top-level session, as the writer's top_level says.)
  const unmatched = source.index.prepared(
    `WITH ${[SHADOWED_CTE, ...t.ctes].join(', ')} SELECT c.id, c.id IN sv_shadowed OR NOT EXISTS (SELECT 1 FROM files p INDEXED BY files_key
      WHERE p.key = c.parent_key AND p.id NOT IN sv_shadowed AND ${t.matches('p.id')}) FROM files c INDEXED BY files_parent
    WHERE c.parent_key IS NOT NULL AND c.parent_key != '' AND NOT ${t.matches('c.id')}`,
  );
  unmatched.setReturnArrays(true);
  const counting: number[] = [];
  const notCounting: number[] = [];
  for (const [id, out] of unmatched.all(shadowedJson, ...t.params) as unknown as Array<[number, number]>) (out ? notCounting : counting).push(id);
  // Every sub-agent that is no match, from the totals, when those that do not count are the fewer.
  const complement = notCounting.length < counting.length;
  // The rows of the matches, and (complement) of every sub-agent that is no match: each a range of the primary key per set.
  const match = `r.names IN (SELECT value FROM json_each(?)) AND r.top_level IN (0, 1)${format === null ? '' : ' AND r.format = ?'}`;
  const matchParams: SQLInputValue[] = [sets, ...(format === null ? [] : [format])];
  const allSets = complement
    ? JSON.stringify((source.index.prepared('SELECT DISTINCT names FROM usage_name_sessions').all() as Array<{ names: string }>).map((r) => r.names))
    : '[]';
  const totals = (table: string) =>
    complement
      ? `(SELECT * FROM ${table} r WHERE ${match} UNION ALL SELECT * FROM ${table} r WHERE r.names IN (SELECT value FROM json_each(?)) AND r.top_level = 0 AND NOT (${match}))`
      : table;
  const whereMatch = complement ? 'true' : match;
  const countedParams: SQLInputValue[] = complement ? [...matchParams, allSets, ...matchParams] : matchParams;
  const all = (sql: string, params: SQLInputValue[]) => {
    const s = source.index.prepared(sql);
    s.setReturnArrays(true);
    return s.all(...countedParams, ...params) as unknown as unknown[][];
  };
  const read = (ids: number[]) =>
    ids.length ? correction(source, clock, breakdown, storeFiles(source, [], 'SELECT value FROM json_each(?)', [JSON.stringify(ids)])) : null;
  const subAgents = complement ? read(notCounting) : read(counting);
  // The shadowed copies to take off: the matches among them.
  const copies = shadowed.length
    ? correction(
        source,
        clock,
        breakdown,
        storeFiles(source, t.ctes, `SELECT f.id FROM files f WHERE f.id IN (SELECT value FROM json_each(?)) AND ${t.matches('f.id')}`, [
          ...t.params,
          shadowedJson,
        ]),
      )
    : null;
  const fixes = [
    { c: subAgents, sign: complement ? -1 : 1 },
    { c: copies, sign: -1 },
  ].filter((f): f is { c: Correction; sign: 1 | -1 } => f.c !== null);

  // Days per group.
  const cells = new Map<string, DayRow>();
  const addDay = (day: string, g: string | null, v: readonly number[], sign: number) => addDayCell(cells, day, g, v, sign);
  const group = breakdown === 'source' ? 'r.format' : 'r.model';
  for (const r of all(
    `SELECT r.day, ${group}, ${USAGE_SUMS.map((c) => `sum(r.${c})`).join(', ')} FROM ${totals('usage_name_days')} r
    WHERE ${whereMatch} AND r.zone = ? GROUP BY 1, 2`,
    [clock.timezone],
  ))
    addDay(r[0] as string, breakdown === 'model' ? (r[1] as string) || null : (r[1] as string), r.slice(2) as number[], 1);
  for (const { c, sign } of fixes)
    for (const d of c.usage.rows) addDay(d.day, d.g, [d.input, d.output, d.cacheRead, d.cacheWrite, d.reasoning, d.cost, d.unpriced, d.calls], sign);
  const rows = [...cells.values()].filter((r) => r.calls !== 0);

  /** Rows by name from the totals, with the corrections' rows of the same name added or taken off. */
  const merged = <T extends { name: string }>(totals: T[], of: (c: Correction) => T[], add: (a: T, b: T, sign: number) => void): T[] => {
    const byName = new Map(totals.map((r) => [r.name, r]));
    for (const { c, sign } of fixes)
      for (const r of of(c)) {
        const row = byName.get(r.name);
        if (row) add(row, r, sign);
        else {
          // A name only the correction has: its figures times the sign.
          const own = { ...r };
          add(own, r, sign - 1);
          byName.set(r.name, own);
        }
      }
    return [...byName.values()];
  };

  return {
    parts: {
      rows,
      heatmap: (days) => {
        const byCell = new Map<string, UsageDashboard['heatmap'][number]>();
        const addCell = (day: string, hour: number, calls: number, tokens: number) => {
          const id = `${day}\n${hour}`;
          const cell = byCell.get(id);
          if (cell) {
            cell.calls += calls;
            cell.totalTokens += tokens;
          } else byCell.set(id, { day, hour, calls, totalTokens: tokens });
        };
        for (const r of all(
          `SELECT r.day, r.hour, sum(r.calls), sum(r.tokens) FROM ${totals('usage_name_hours')} r
          WHERE ${whereMatch} AND r.zone = ? AND r.day IN (SELECT value FROM json_each(?)) GROUP BY 1, 2`,
          [clock.timezone, JSON.stringify(days)],
        ))
          addCell(r[0] as string, r[1] as number, r[2] as number, r[3] as number);
        for (const { c, sign } of fixes) for (const h of setHeatmap(c.usage, clock, days)) addCell(h.day, h.hour, sign * h.calls, sign * h.totalTokens);
        return [...byCell.values()].filter((c) => c.calls !== 0).sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : a.hour - b.hour));
      },
      models: () =>
        ranked(
          merged(
            all(
              `SELECT r.model, sum(r.input + r.output + r.cache_read + r.cache_write + r.reasoning), sum(r.cost), sum(r.calls), sum(r.unpriced) FROM ${totals('usage_name_days')} r
              WHERE ${whereMatch} AND r.zone = ? GROUP BY 1`,
              [clock.timezone],
            ).map((r) => ({
              name: (r[0] as string) || NONE,
              totalTokens: r[1] as number,
              costUsd: r[2] as number,
              calls: r[3] as number,
              unpricedCalls: r[4] as number,
            })),
            (c) => c.usage.models,
            (a, b, sign) => {
              a.totalTokens += sign * b.totalTokens;
              a.costUsd += sign * b.costUsd;
              a.calls += sign * b.calls;
              a.unpricedCalls += sign * b.unpricedCalls;
            },
          ).filter((m) => m.calls > 0),
          (m) => m.totalTokens,
          10,
        ),
      projects: () =>
        ranked(
          merged(
            all(
              `SELECT r.project, sum(r.tokens), sum(r.cost), sum(r.with_usage) FROM ${totals('usage_name_projects')} r
              WHERE ${whereMatch} AND r.zone = ? GROUP BY 1`,
              [clock.timezone],
            ).map((r) => ({ name: (r[0] as string) || NONE, totalTokens: r[1] as number, costUsd: r[2] as number, sessions: r[3] as number })),
            (c) => c.usage.projects,
            (a, b, sign) => {
              a.totalTokens += sign * b.totalTokens;
              a.costUsd += sign * b.costUsd;
              a.sessions += sign * b.sessions;
            },
          ).filter((p) => p.sessions > 0),
          (p) => p.totalTokens,
          10,
        ),
      tools: () =>
        ranked(
          merged(
            all(`SELECT r.name, sum(r.calls), sum(r.failures) FROM ${totals('usage_name_tools')} r WHERE ${whereMatch} GROUP BY 1`, []).map((r) => ({
              name: r[0] as string,
              calls: r[1] as number,
              failures: r[2] as number,
            })),
            (c) => c.sessions.tools,
            (a, b, sign) => {
              a.calls += sign * b.calls;
              a.failures += sign * b.failures;
            },
          ).filter((x) => x.calls > 0),
          (x) => x.calls,
          15,
        ),
      sessions: () => {
        const lengths = LENGTH_BUCKETS.map(() => 0);
        const turns = TURN_BUCKETS.map(() => 0);
        let withUsage = 0;
        for (const r of all(
          `SELECT r.top_level, r.length_bucket, r.turn_bucket, sum(r.sessions), sum(r.with_usage) FROM ${totals('usage_name_sessions')} r
          WHERE ${whereMatch} GROUP BY 1, 2, 3`,
          [],
        )) {
          withUsage += r[4] as number;
          if (r[0] !== 1) continue;
          const n = r[3] as number;
          const lb = r[1] as number;
          if (lb >= 0) lengths[lb] = (lengths[lb] ?? 0) + n;
          const tb = r[2] as number;
          turns[tb] = (turns[tb] ?? 0) + n;
        }
        for (const { c, sign } of fixes) {
          withUsage += sign * c.usage.withUsage;
          c.sessions.lengths.forEach((n, i) => (lengths[i] = (lengths[i] ?? 0) + sign * n));
          c.sessions.turns.forEach((n, i) => (turns[i] = (turns[i] ?? 0) + sign * n));
        }
        return {
          lengths: counted(
            lengths.map((n, b) => ({ b, n })),
            LENGTH_BUCKETS,
          ),
          turns: counted(
            turns.map((n, b) => ({ b, n })),
            TURN_BUCKETS,
          ),
          withUsage,
        };
      },
    },
    blockScope: (tool, sinceMs) => recentFiles(source, perFileScope(parsed, shadowed, counting, tool), sinceMs),
    limitsScope: perFileScope(parsed, shadowed, counting),
  };
}
