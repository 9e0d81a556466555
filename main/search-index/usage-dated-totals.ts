// For a dashboard query with dates: every file's usage in the clock's hours from the writer's totals per day (the first and last day from the hourly rows), and the counted files with usage in them per project.
import type { SQLInputValue } from 'node:sqlite';
import type { DashboardBreakdown } from '../../shared/usage-api.ts';
import { clockDays, sessionTally, type ClockDays, type ModelSum, type SetSessions } from './usage-file-days.ts';
import { byBytes } from './usage-file-pack.ts';
import { IdBits, idList } from './usage-id-bits.ts';
import type { UsageSource } from './usage-match.ts';
import { FAMILY_TABLE } from './usage-scope-table.ts';
import { addDayCell, NONE, type Clock, type DayRow } from './usage-timeline.ts';
import { projectName as firstLine } from './usage-write.ts';
import { USAGE_SUMS } from './usage-schema.ts';

const TOKENS = (t: string) => `${t}.input + ${t}.output + ${t}.cache_read + ${t}.cache_write + ${t}.reasoning`;

/** The project's name as the top projects list it. */
const projectName = (project: string) => firstLine(project) || NONE;

/** Every file's usage in the clock: its days stacked by the breakdown, its models and projects (sessions apart). */
export interface AllInClock {
  rows: DayRow[];
  models: ModelSum[];
  projects: Array<{ name: string; totalTokens: number; costUsd: number }>;
  /** The files with usage in the hours of the days the clock cuts (read from their hourly rows), but those left out. */
  edgeFiles: number[];
}

/** A condition on day rows `r` (and its parameters): the clock's days read whole, from its first to its last but the cut ones. */
function wholeDays(days: ClockDays, r: string): { sql: string; params: string[] } {
  const cut = days.cuts.map(([day]) => day);
  // A day of '' (usage with no time) is never one of the clock's: it stands in for a day not cut.
  return { sql: `${r}.day >= ? AND ${r}.day <= ? AND ${r}.day != ? AND ${r}.day != ?`, params: [days.first, days.last, cut[0] ?? '', cut[1] ?? ''] };
}

/**
 * Every file's usage in the clock's hours: the days it holds whole from the writer's totals per day (usage_days, or
 * usage_project_day_totals stacked by project), the first or last day it cuts from every file's hourly rows in that day's
 * hours in it (a day's hours are a few thousand rows at 100,000 sessions), as setUsage cuts them, but for the files
 * `leftOut` (the others, whose rows are taken off the whole days only: the same hours read once, not twice).
 */
export function allInClock(source: Pick<UsageSource, 'index'>, clock: Clock, breakdown: DashboardBreakdown, leftOut: ReadonlySet<number>): AllInClock {
  const days = clockDays(clock);
  const cells = new Map<string, DayRow>();
  const models = new Map<string, ModelSum>();
  const projects = new Map<string, { name: string; totalTokens: number; costUsd: number }>();
  const all = (sql: string, params: SQLInputValue[]) => {
    const s = source.index.prepared(sql);
    s.setReturnArrays(true);
    return s.all(...params) as unknown as unknown[][];
  };
  const addModel = (model: string, tokens: number, cost: number, calls: number, unpriced: number) => {
    const name = model || NONE;
    const m = models.get(name);
    if (m) {
      m.totalTokens += tokens;
      m.costUsd += cost;
      m.calls += calls;
      m.unpricedCalls += unpriced;
    } else models.set(name, { name, totalTokens: tokens, costUsd: cost, calls, unpricedCalls: unpriced });
  };
  const addProject = (name: string, tokens: number, cost: number) => {
    const p = projects.get(name);
    if (p) {
      p.totalTokens += tokens;
      p.costUsd += cost;
    } else projects.set(name, { name, totalTokens: tokens, costUsd: cost });
  };

  // The days held whole, from the totals per day.
  const whole = wholeDays(days, 'r');
  const inner = [clock.timezone, ...whole.params];
  const between = `r.zone = ? AND ${whole.sql}`;
  const sums = USAGE_SUMS.map((c) => `sum(r.${c})`).join(', ');
  const group = breakdown === 'source' ? 'r.format' : breakdown === 'project' ? 'r.project' : 'r.model';
  // By project: the totals per day and project over every source (schema 15), a row per group.
  const table = breakdown === 'project' ? 'usage_project_day_totals' : 'usage_days';
  for (const r of all(`SELECT r.day, ${group}, ${sums} FROM ${table} r WHERE ${between} GROUP BY r.day, ${group}`, inner))
    addDayCell(cells, r[0] as string, breakdown === 'model' ? (r[1] as string) || null : (r[1] as string), r.slice(2) as number[], 1);
  for (const r of all(
    `SELECT r.model, sum(${TOKENS('r')}), sum(r.cost), sum(r.calls), sum(r.unpriced) FROM usage_days r WHERE ${between} GROUP BY r.model`,
    inner,
  ))
    addModel(r[0] as string, r[1] as number, r[2] as number, r[3] as number, r[4] as number);
  for (const r of all(`SELECT r.project, sum(${TOKENS('r')}), sum(r.cost) FROM usage_project_day_totals r WHERE ${between} GROUP BY r.project`, inner))
    addProject((r[0] as string) || NONE, r[1] as number, r[2] as number);

  // The days cut: every file's hourly rows in the clock's hours of them, per file and model (as setUsage's cut).
  const edgeFiles = new Set<number>();
  const cut = `SELECT c.file_id, c.model, s.format, s.project, ${USAGE_SUMS.map((k) => `c.${k}`).join(', ')}
    FROM (SELECT u.file_id AS file_id, coalesce(u.model, '') AS model, ${USAGE_SUMS.map((k) => `sum(u.${k}) AS ${k}`).join(', ')} FROM usage u INDEXED BY usage_hour
      WHERE u.hour_ms BETWEEN ? AND ? GROUP BY 1, 2) c
    JOIN usage_sessions s INDEXED BY usage_sessions_narrow ON s.file_id = c.file_id`;
  for (const [day, from, to] of days.cuts)
    for (const r of all(cut, [from, to])) {
      if (leftOut.has(r[0] as number)) continue;
      edgeFiles.add(r[0] as number);
      const model = r[1] as string;
      const format = r[2] as string;
      const project = r[3] as string;
      const v = r.slice(4) as number[];
      const g = breakdown === 'model' ? model || null : breakdown === 'source' ? format : firstLine(project);
      addDayCell(cells, day, g, v, 1);
      const tokens = (v[0] as number) + (v[1] as number) + (v[2] as number) + (v[3] as number) + (v[4] as number);
      addModel(model, tokens, v[5] as number, v[7] as number, v[6] as number);
      addProject(projectName(project), tokens, v[5] as number);
    }
  return { rows: [...cells.values()], models: [...models.values()], projects: [...projects.values()], edgeFiles: [...edgeFiles] };
}

/**
 * The counted files (the stored scope's) with usage in the clock, per project name: those with a day row on a day it
 * holds whole, or usage in the hours of a day it cuts (`edgeFiles`: every file's, from allInClock). A file has one project.
 * With them, the counted files' tools and buckets (setSessions of 'matched'), from the same read of their session rows.
 * The files with day rows on the whole days are marked in memory from one read of the days' index, where each counted
 * file's day rows were looked up (after:30d at 100,000 sessions: 11,155 files, the two reads 47 -> 35 ms CPU).
 */
export function countedSessions(
  source: Pick<UsageSource, 'index'>,
  clock: Clock,
  edgeFiles: readonly number[],
): { counted: Map<string, number>; sessions: SetSessions } {
  const whole = wholeDays(clockDays(clock), 'd');
  const inClock = new IdBits();
  inClock.markList(idList(source, [], `SELECT d.file_id AS id FROM usage_file_days d INDEXED BY usage_file_days_day WHERE ${whole.sql}`, whole.params), 1);
  for (const id of edgeFiles) {
    inClock.reach(id);
    inClock.bits[id] = 1;
  }
  const tally = sessionTally();
  const byProject = new Map<string, number>();
  const rows = source.index.prepared(
    `SELECT s.tools, s.top_level, s.length_bucket, s.turns, x.id, s.project FROM ${FAMILY_TABLE} x CROSS JOIN usage_sessions s ON s.file_id = x.id`,
  );
  rows.setReturnArrays(true);
  for (const r of rows.iterate() as Iterable<unknown[]>) {
    tally.add(r, 0);
    if (inClock.has(r[4] as number, 1)) byProject.set(r[5] as string, (byProject.get(r[5] as string) ?? 0) + 1);
  }
  // Each project name's count added up in the order SQLite's GROUP BY project gave them (its BINARY order).
  const counted = new Map<string, number>();
  for (const project of [...byProject.keys()].sort(byBytes)) {
    const name = projectName(project);
    counted.set(name, (counted.get(name) ?? 0) + (byProject.get(project) as number));
  }
  return { counted, sessions: tally.result() };
}
