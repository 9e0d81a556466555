// The dashboard's figures for a set of files from their rows per day and model (usage_file_days) and their session rows, added up in one pass each.
import type { SQLInputValue, StatementSync } from 'node:sqlite';
import type { DashboardBreakdown } from '../../shared/usage-api.ts';
import { LENGTH_BUCKETS, TURN_BUCKETS, turnBucket } from './usage-buckets.ts';
import type { UsageSource } from './usage-match.ts';
import { localHours } from './usage-periods.ts';
import { FAMILY_TABLE, PICKED_TABLE } from './usage-scope-table.ts';
import { projectName as firstLine } from './usage-write.ts';
import { NONE, type Clock, type DayRow } from './usage-timeline.ts';

/** Which files: those of the stored scope, or every other one (what the writer's totals hold beyond them). */
export type Side = 'matched' | 'others';

export interface ModelSum {
  name: string;
  totalTokens: number;
  costUsd: number;
  calls: number;
  unpricedCalls: number;
}
export interface ProjectSum {
  name: string;
  totalTokens: number;
  costUsd: number;
  sessions: number;
}
export interface ToolSum {
  name: string;
  calls: number;
  failures: number;
}
export interface HeatCell {
  day: string;
  hour: number;
  calls: number;
  totalTokens: number;
}

/** A set's usage in the clock's hours. */
export interface SetUsage {
  rows: DayRow[];
  models: ModelSum[];
  projects: ProjectSum[];
  /** Files with usage. */
  withUsage: number;
}

/** A set's tool calls, and its sessions per length and turns bucket (index = bucket). */
export interface SetSessions {
  tools: ToolSum[];
  lengths: number[];
  turns: number[];
}

/** One local hour of a day row's JSON: the hour of the day, its calls and its tokens. */
type Hour = [number, number, number];
/** Longer than any local day (25 hours when the clocks go back). */
const EDGE_MS = 26 * 3_600_000;
const SUM_COLUMNS = 'd.input, d.output, d.cache_read, d.cache_write, d.reasoning, d.cost, d.unpriced, d.calls';

/**
 * The day rows of the side's files, `d` the day row and `s` the file's session row: file by file, each file's rows
 * read together (left to itself, the planner read every day row and looked each one's file up in the set).
 */
function fromSide(side: Side): string {
  return side === 'matched'
    ? `${FAMILY_TABLE} x CROSS JOIN usage_sessions s ON s.file_id = x.id CROSS JOIN usage_file_days d ON d.file_id = x.id`
    : `usage_sessions s CROSS JOIN usage_file_days d ON d.file_id = s.file_id WHERE s.file_id NOT IN ${FAMILY_TABLE} AND`;
}
const where = (side: Side) => (side === 'matched' ? 'WHERE' : '');

/** The project's name as the top projects list it. */
const projectName = (project: string) => firstLine(project) || NONE;

/** Adds each row of a query (as arrays) to `add`. */
function each(statement: StatementSync, params: SQLInputValue[], add: (row: unknown[]) => void): void {
  statement.setReturnArrays(true);
  for (const row of statement.iterate(...params) as Iterable<unknown[]>) add(row);
}

/**
 * The days in the clock fully: its first and last local day are cut at its hours (from each row's hours), the days
 * between are read whole. Without dates, every day is whole.
 */
export function setUsage(source: Pick<UsageSource, 'index'>, side: Side, clock: Clock, breakdown: DashboardBreakdown, bounded: boolean): SetUsage {
  const cells = new Map<string, DayRow>();
  const models = new Map<string, ModelSum>();
  const projects = new Map<string, ProjectSum & { files: Set<number> }>();
  const files = new Set<number>();
  const local = localHours(clock.timezone);
  const first = bounded ? local(clock.fromMs).day : null;
  const last = bounded ? local(clock.toMs).day : null;
  const add = (file: number, day: string, model: string, format: string, project: string, s: readonly number[]) => {
    const [input = 0, output = 0, cacheRead = 0, cacheWrite = 0, reasoning = 0, cost = 0, unpriced = 0, calls = 0] = s;
    const g = breakdown === 'model' ? model || null : breakdown === 'source' ? format : firstLine(project);
    const id = `${day}\n${g ?? ''}`;
    let cell = cells.get(id);
    if (!cell) {
      cell = { day, g, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, cost: 0, unpriced: 0, calls: 0 };
      cells.set(id, cell);
    }
    cell.input += input;
    cell.output += output;
    cell.cacheRead += cacheRead;
    cell.cacheWrite += cacheWrite;
    cell.reasoning += reasoning;
    cell.cost += cost;
    cell.unpriced += unpriced;
    cell.calls += calls;
    const tokens = input + output + cacheRead + cacheWrite + reasoning;
    const name = model || NONE;
    const m = models.get(name) ?? { name, totalTokens: 0, costUsd: 0, calls: 0, unpricedCalls: 0 };
    m.totalTokens += tokens;
    m.costUsd += cost;
    m.calls += calls;
    m.unpricedCalls += unpriced;
    models.set(name, m);
    const pn = projectName(project);
    const p = projects.get(pn) ?? { name: pn, totalTokens: 0, costUsd: 0, sessions: 0, files: new Set<number>() };
    p.totalTokens += tokens;
    p.costUsd += cost;
    p.files.add(file);
    projects.set(pn, p);
    files.add(file);
  };
  const columns = `d.file_id, d.day, d.model, s.format, s.project, ${SUM_COLUMNS}`;
  const whole = source.index.prepared(`SELECT ${columns} FROM ${fromSide(side)} ${where(side)} d.day != ''${bounded ? ' AND d.day > ? AND d.day < ?' : ''}`);
  each(whole, bounded ? [first, last] : [], (r) => add(r[0] as number, r[1] as string, r[2] as string, r[3] as string, r[4] as string, r.slice(5) as number[]));
  if (bounded && first !== null && last !== null) {
    // The first and last day: only their hours in the clock, from the hourly rows (read through the hour index).
    const cut = source.index.prepared(
      `SELECT u.file_id, u.hour_ms, coalesce(u.model, ''), s.format, s.project, ${SUM_COLUMNS.replaceAll('d.', 'u.')}
      FROM usage u INDEXED BY usage_hour JOIN usage_sessions s ON s.file_id = u.file_id WHERE u.hour_ms BETWEEN ? AND ? AND ${side === 'matched' ? '' : 'NOT '}u.file_id IN ${FAMILY_TABLE}`,
    );
    const windows: Array<[string, number, number]> =
      first === last
        ? [[first, clock.fromMs, clock.toMs]]
        : [
            [first, clock.fromMs, Math.min(clock.toMs, clock.fromMs + EDGE_MS)],
            [last, Math.max(clock.fromMs, clock.toMs - EDGE_MS), clock.toMs],
          ];
    for (const [day, from, to] of windows)
      each(cut, [from, to], (r) => {
        if (local(r[1] as number).day === day) add(r[0] as number, day, r[2] as string, r[3] as string, r[4] as string, r.slice(5) as number[]);
      });
  }
  return {
    rows: [...cells.values()],
    models: [...models.values()],
    projects: [...projects.values()].map(({ files: f, ...p }) => ({ ...p, sessions: f.size })),
    withUsage: files.size,
  };
}

/** Calls and tokens per local day and hour of these days (in the clock's hours: `bounded`, its first and last day are cut). */
export function setHeatmap(source: Pick<UsageSource, 'index'>, side: Side, clock: Clock, days: readonly string[], bounded = false): HeatCell[] {
  if (!days.length) return [];
  const wanted = new Set(days);
  const local = localHours(clock.timezone);
  const first = bounded ? local(clock.fromMs) : null;
  const last = bounded ? local(clock.toMs) : null;
  const cells = new Map<string, HeatCell>();
  // The matched files' day rows need no session row (the others' are found through theirs).
  const from = side === 'matched' ? `${FAMILY_TABLE} x CROSS JOIN usage_file_days d ON d.file_id = x.id WHERE` : fromSide(side);
  const statement = source.index.prepared(`SELECT d.day, d.hours FROM ${from} d.day >= ? AND d.day <= ?`);
  each(statement, [days[0] as string, days.at(-1) as string], (r) => {
    const day = r[0] as string;
    if (!wanted.has(day)) return;
    for (const [hour, calls, tokens] of JSON.parse(r[1] as string) as Hour[]) {
      if ((first && day === first.day && hour < first.hour) || (last && day === last.day && hour > last.hour)) continue;
      const id = `${day}\n${hour}`;
      const cell = cells.get(id) ?? { day, hour, calls: 0, totalTokens: 0 };
      cell.calls += calls;
      cell.totalTokens += tokens;
      cells.set(id, cell);
    }
  });
  return [...cells.values()];
}

/** The side's tool calls (every file), and its top-level sessions per length and turns bucket. */
export function setSessions(source: Pick<UsageSource, 'index'>, side: Side): SetSessions {
  const tools = new Map<string, ToolSum>();
  const fromTools =
    side === 'matched'
      ? `${FAMILY_TABLE} x CROSS JOIN usage_sessions s ON s.file_id = x.id WHERE s.tools IS NOT NULL`
      : `usage_sessions s WHERE s.file_id NOT IN ${FAMILY_TABLE} AND s.tools IS NOT NULL`;
  each(source.index.prepared(`SELECT s.tools FROM ${fromTools}`), [], (r) => {
    for (const [name, calls, failures] of JSON.parse(r[0] as string) as Array<[string, number, number]>) {
      const t = tools.get(name) ?? { name, calls: 0, failures: 0 };
      t.calls += calls;
      t.failures += failures;
      tools.set(name, t);
    }
  });
  const lengths = LENGTH_BUCKETS.map(() => 0);
  const turns = TURN_BUCKETS.map(() => 0);
  const fromSessions =
    side === 'matched'
      ? `${PICKED_TABLE} x CROSS JOIN usage_sessions s ON s.file_id = x.id`
      : `usage_sessions s WHERE s.top_level = 1 AND s.file_id NOT IN ${PICKED_TABLE}`;
  each(source.index.prepared(`SELECT s.length_bucket, s.turns FROM ${fromSessions}`), [], (r) => {
    const lb = r[0] as number;
    if (lb >= 0) lengths[lb] = (lengths[lb] ?? 0) + 1;
    const tb = turnBucket(r[1] as number);
    turns[tb] = (turns[tb] ?? 0) + 1;
  });
  return { tools: [...tools.values()], lengths, turns };
}

/** Whether every file's day rows were counted in this time zone (the writer's; the machine's unless it changed). */
export function fileDaysIn(source: Pick<UsageSource, 'index'>, zone: string): boolean {
  const zones = source.index.prepared('SELECT DISTINCT zone FROM usage_days WHERE calls != 0').all() as Array<{ zone: string }>;
  return zones.length === 1 && zones[0]?.zone === zone;
}

/** Files with a session row (the files the totals count). */
export function filesCounted(source: Pick<UsageSource, 'index'>): number {
  return (source.index.prepared('SELECT count(*) AS n FROM usage_sessions').get() as { n: number }).n;
}

/** Largest first, then by name (as SQL's `ORDER BY value DESC, name` with the binary collation). */
export function ranked<T extends { name: string }>(rows: T[], value: (r: T) => number, limit: number): T[] {
  return [...rows].sort((a, b) => value(b) - value(a) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).slice(0, limit);
}
