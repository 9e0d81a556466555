// The dashboard's figures for a set of files from their rows per day and model (usage_file_days) and their session rows, added up in one pass each.
import type { SQLInputValue, StatementSync } from 'node:sqlite';
import type { DashboardBreakdown } from '../../shared/usage-api.ts';
import { LENGTH_BUCKETS, TURN_BUCKETS, turnBucket } from './usage-buckets.ts';
import type { UsageSource } from './usage-match.ts';
import { eachHour } from './usage-hours-json.ts';
import { eachTool } from './usage-tools-json.ts';
import { localHours } from './usage-periods.ts';
import { ROW_STEP_MS } from './usage-rows.ts';
import { FAMILY_TABLE, OTHERS_TABLE } from './usage-scope-table.ts';
import { projectName as firstLine } from './usage-write.ts';
import { NONE, type Clock, type DayRow } from './usage-timeline.ts';
import { USAGE_SUMS } from './usage-schema.ts';

/** Which files: those of the stored scope, or every other one with a session row (what the writer's totals hold beyond them: storeOthers). */
export type Side = 'matched' | 'others';
export const tableOf = (side: Side) => (side === 'matched' ? FAMILY_TABLE : OTHERS_TABLE);

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
  /** The hours JSON of the day rows read, by local day (the heatmap's, from the same read: setHeatmap). */
  hours: Map<string, string[]>;
  /** Or their hours as read from packs (usage-packed-set.ts): local hour, calls and tokens, three numbers each, by local day. */
  hourTriples?: Map<string, number[]>;
}

/** A set's tool calls, and its sessions per length and turns bucket (index = bucket). */
export interface SetSessions {
  tools: ToolSum[];
  lengths: number[];
  turns: number[];
}

const SUM_COLUMNS = USAGE_SUMS.map((k) => `d.${k}`).join(', ');

/**
 * The clock's rows on its first and last local day, as inclusive bounds on `hour_ms` (a row starts on the hour, or
 * where the machine's local hour begins within it: on a multiple of ROW_STEP_MS; a local day's rows follow each
 * other: its first after the clock's start to its last before the end).
 */
function edgeHours(local: ReturnType<typeof localHours>, clock: Clock, first: string, last: string): Array<[string, number, number]> {
  if (first === last) return [[first, clock.fromMs, clock.toMs]];
  let end = Math.ceil(clock.fromMs / ROW_STEP_MS) * ROW_STEP_MS;
  while (end <= clock.toMs && local(end).day === first) end += ROW_STEP_MS;
  let start = Math.floor(clock.toMs / ROW_STEP_MS) * ROW_STEP_MS;
  while (start >= clock.fromMs && local(start).day === last) start -= ROW_STEP_MS;
  return [
    [first, clock.fromMs, end - 1],
    [last, start + ROW_STEP_MS, clock.toMs],
  ];
}

/** The clock's days: its first and last, and those of the two it cuts (not all their hours are in it), with their hours in it. */
export interface ClockDays {
  first: string;
  last: string;
  cuts: Array<[day: string, fromMs: number, toMs: number]>;
}

/**
 * The clock's first and last local day, and which of them it cuts: a day all of whose hours are in the clock is read
 * whole, like the days between (`after:30d` starts at a midnight in UTC: only the last day, today, is read by the hour).
 */
export function clockDays(clock: Clock): ClockDays {
  const local = localHours(clock.timezone);
  const first = local(clock.fromMs).day;
  const last = local(clock.toMs).day;
  const cuts = edgeHours(local, clock, first, last).filter(([day, from, to]) => {
    const firstRow = Math.ceil(from / ROW_STEP_MS) * ROW_STEP_MS;
    const lastRow = Math.floor(to / ROW_STEP_MS) * ROW_STEP_MS;
    return firstRow > lastRow || local(firstRow - ROW_STEP_MS).day === day || local(lastRow + ROW_STEP_MS).day === day;
  });
  return { first, last, cuts };
}

/**
 * The day rows of the side's files, `d` the day row and `s` the file's session row: file by file, each file's rows
 * read together (left to itself, the planner read every day row and looked each one's file up in the set).
 */
const fromSide = (side: Side) =>
  `${tableOf(side)} x CROSS JOIN usage_sessions s INDEXED BY usage_sessions_narrow ON s.file_id = x.id CROSS JOIN usage_file_days d ON d.file_id = x.id`;

/** The project's name as the top projects list it. */
const projectName = (project: string) => firstLine(project) || NONE;

/** Adds each row of a query (as arrays) to `add`. */
function each(statement: StatementSync, params: SQLInputValue[], add: (row: unknown[]) => void): void {
  statement.setReturnArrays(true);
  for (const row of statement.iterate(...params) as Iterable<unknown[]>) add(row);
}

/**
 * A day and group's cell as setSums adds rows up into it (a DayRow), a class of its own: made as an object literal
 * shaped as every other DayRow, its making was ~70% of setSums' own time in a CPU profile (100,000 sessions, `parser`
 * by project: ~12,000 cells); so, the others' packs are read and added up in ~49 -> ~38 ms CPU (median of 80 calls).
 */
class Cell implements DayRow {
  day: string;
  g: string | null;
  input = 0;
  output = 0;
  cacheRead = 0;
  cacheWrite = 0;
  reasoning = 0;
  cost = 0;
  unpriced = 0;
  calls = 0;
  constructor(day: string, g: string | null) {
    this.day = day;
    this.g = g;
  }
}

/** Adds day rows up into a set's usage (setUsage, usage-packed-set.ts): cells per day and group, models, projects and their files. */
export function setSums(breakdown: DashboardBreakdown): {
  /** Adds a row whose eight sums (USAGE_SUMS' order) start at `at`. */
  add: (file: number, day: string, model: string, format: string, project: string, r: ArrayLike<unknown>, at: number) => void;
  /** What was added, with the hours JSON kept by day (or their triples, `hourTriples`). */
  result: (hours: SetUsage['hours'], hourTriples?: SetUsage['hourTriples']) => SetUsage;
} {
  // Cells by day, then by group; each project's row (and its chart group) looked up once per project string.
  const cells = new Map<string, Map<string | null, DayRow>>();
  const models = new Map<string, ModelSum>();
  const projects = new Map<string, ProjectSum & { files: Set<number> }>();
  const ofProject = new Map<string, { group: string; row: ProjectSum & { files: Set<number> } }>();
  const add = (file: number, day: string, model: string, format: string, project: string, r: ArrayLike<unknown>, at: number) => {
    const input = r[at] as number;
    const output = r[at + 1] as number;
    const cacheRead = r[at + 2] as number;
    const cacheWrite = r[at + 3] as number;
    const reasoning = r[at + 4] as number;
    const cost = r[at + 5] as number;
    const unpriced = r[at + 6] as number;
    const calls = r[at + 7] as number;
    let known = ofProject.get(project);
    if (!known) {
      const pn = projectName(project);
      const row = projects.get(pn) ?? { name: pn, totalTokens: 0, costUsd: 0, sessions: 0, files: new Set<number>() };
      projects.set(pn, row);
      known = { group: firstLine(project), row };
      ofProject.set(project, known);
    }
    const g = breakdown === 'model' ? model || null : breakdown === 'source' ? format : known.group;
    let byGroup = cells.get(day);
    if (!byGroup) cells.set(day, (byGroup = new Map()));
    let cell = byGroup.get(g);
    if (!cell) {
      cell = new Cell(day, g);
      byGroup.set(g, cell);
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
    let m = models.get(name);
    if (!m) models.set(name, (m = { name, totalTokens: 0, costUsd: 0, calls: 0, unpricedCalls: 0 }));
    m.totalTokens += tokens;
    m.costUsd += cost;
    m.calls += calls;
    m.unpricedCalls += unpriced;
    const p = known.row;
    p.totalTokens += tokens;
    p.costUsd += cost;
    p.files.add(file);
  };
  const result = (hours: SetUsage['hours'], hourTriples?: SetUsage['hourTriples']): SetUsage => ({
    rows: [...cells.values()].flatMap((byGroup) => [...byGroup.values()]),
    models: [...models.values()],
    projects: [...projects.values()].map(({ files: f, ...p }) => ({ ...p, sessions: f.size })),
    // A file has one project: the files with usage are its projects' files.
    withUsage: [...projects.values()].reduce((n, p) => n + p.files.size, 0),
    hours,
    hourTriples,
  });
  return { add, result };
}

/**
 * The days in the clock fully: its first and last local day are cut at its hours (from each row's hours) unless all
 * their hours are in it (clockDays), the days between are read whole. Without dates, every day is whole. `cutHours`
 * false leaves the hours of the days the clock cuts out (usage-dated-totals.ts reads them for every file at once). The same read keeps each day row's hours JSON (the first
 * and last day's too) for the heatmap, which read the rows once more (100,000 sessions, `after:30d`: 33,000 rows).
 */
export function setUsage(
  source: Pick<UsageSource, 'index'>,
  side: Side,
  clock: Clock,
  breakdown: DashboardBreakdown,
  bounded: boolean,
  cutHours = true,
): SetUsage {
  const { add, result } = setSums(breakdown);
  const hours = new Map<string, string[]>();
  const days = bounded ? clockDays(clock) : null;
  const cut = new Set(days?.cuts.map(([day]) => day));
  const columns = `d.file_id, d.day, d.model, s.format, s.project, d.hours, ${SUM_COLUMNS}`;
  const whole = source.index.prepared(`SELECT ${columns} FROM ${fromSide(side)} WHERE d.day != ''${bounded ? ' AND d.day >= ? AND d.day <= ?' : ''}`);
  each(whole, days ? [days.first, days.last] : [], (r) => {
    const day = r[1] as string;
    const kept = hours.get(day);
    if (kept) kept.push(r[5] as string);
    else hours.set(day, [r[5] as string]);
    // The figures of a day the clock cuts come from its hours in the clock (below); only its hours JSON is kept.
    if (!cut.has(day)) add(r[0] as number, day, r[2] as string, r[3] as string, r[4] as string, r, 6);
  });
  if (cutHours && days?.cuts.length) {
    // The first and last day, when cut: only their hours in the clock, from the hourly rows (read through the hour index), each
    // file's added up per model in SQL (the window is the day's hours exactly: no row's local day to check in JS).
    const hourly = source.index.prepared(
      `SELECT c.file_id, c.model, s.format, s.project, ${USAGE_SUMS.map((k) => `c.${k}`).join(', ')}
      FROM (SELECT u.file_id AS file_id, coalesce(u.model, '') AS model, ${USAGE_SUMS.map((k) => `sum(u.${k}) AS ${k}`).join(', ')} FROM usage u INDEXED BY usage_hour
        WHERE u.hour_ms BETWEEN ? AND ? AND u.file_id IN (SELECT id FROM ${tableOf(side)}) GROUP BY 1, 2) c
      JOIN usage_sessions s INDEXED BY usage_sessions_narrow ON s.file_id = c.file_id`,
    );
    for (const [day, from, to] of days.cuts) each(hourly, [from, to], (r) => add(r[0] as number, day, r[1] as string, r[2] as string, r[3] as string, r, 4));
  }
  return result(hours);
}

/**
 * Calls and tokens per local day and hour of these days (in the clock's hours: `bounded`, its first and last day are
 * cut), from the hours JSON setUsage kept of the same set's day rows.
 */
export function setHeatmap(usage: Pick<SetUsage, 'hours' | 'hourTriples'>, clock: Clock, days: readonly string[], bounded = false): HeatCell[] {
  const local = localHours(clock.timezone);
  const first = bounded ? local(clock.fromMs) : null;
  const last = bounded ? local(clock.toMs) : null;
  const cells: HeatCell[] = [];
  for (const day of new Set(days)) {
    const byHour = new Map<number, HeatCell>();
    const visit = (hour: number, calls: number, tokens: number) => {
      if ((first && day === first.day && hour < first.hour) || (last && day === last.day && hour > last.hour)) return;
      const cell = byHour.get(hour);
      if (cell) {
        cell.calls += calls;
        cell.totalTokens += tokens;
      } else byHour.set(hour, { day, hour, calls, totalTokens: tokens });
    };
    // Read without JSON.parse's array per hour (100,000 sessions, `after:30d`: 33,000 rows, 24 -> 8 ms).
    eachHour(usage.hours.get(day) ?? [], visit);
    const triples = usage.hourTriples?.get(day) ?? [];
    for (let i = 0; i < triples.length; i += 3) visit(triples[i] as number, triples[i + 1] as number, triples[i + 2] as number);
    cells.push(...byHour.values());
  }
  return cells;
}

/** The side's tool calls (every file), and its top-level sessions per length and turns bucket. */
export function setSessions(source: Pick<UsageSource, 'index'>, side: Side): SetSessions {
  const tally = sessionTally();
  // One read of the side's session rows for both: each file's tools JSON, read without JSON.parse's arrays, and the
  // top-level sessions' buckets, where a second statement walked the files again (100,000 sessions, a word in 90%:
  // the others' 11,152 rows, 33 -> 25 ms; `after:30d`'s 10,197 files 34 -> 30 ms).
  const rows = `SELECT s.tools, s.top_level, s.length_bucket, s.turns FROM ${tableOf(side)} x CROSS JOIN usage_sessions s ON s.file_id = x.id`;
  each(source.index.prepared(rows), [], (r) => tally.add(r, 0));
  return tally.result();
}

/** Adds session rows up into a set's tools and buckets (setSessions, usage-packed-set.ts). */
export function sessionTally(): {
  /** Adds a session row whose tools JSON, top-level flag, length bucket and turns are at `at` onwards. */
  add: (r: readonly unknown[], at: number) => void;
  /** Adds one of a session's tools. */
  addTool: (name: string, calls: number, failures: number) => void;
  /** Adds a session to its buckets (a top-level one: a sub-agent is part of its parent). */
  addSession: (topLevel: number, lengthBucket: number, turns: number) => void;
  result: () => SetSessions;
} {
  const tools = new Map<string, ToolSum>();
  const lengths = LENGTH_BUCKETS.map(() => 0);
  const turns = TURN_BUCKETS.map(() => 0);
  const addTool = (name: string, calls: number, failures: number) => {
    const t = tools.get(name);
    if (t) {
      t.calls += calls;
      t.failures += failures;
    } else tools.set(name, { name, calls, failures });
  };
  const addSession = (topLevel: number, lb: number, turnCount: number) => {
    if (topLevel !== 1) return;
    if (lb >= 0) lengths[lb] = (lengths[lb] ?? 0) + 1;
    const tb = turnBucket(turnCount);
    turns[tb] = (turns[tb] ?? 0) + 1;
  };
  const add = (r: readonly unknown[], at: number) => {
    if (r[at] !== null) eachTool(r[at] as string, addTool);
    addSession(r[at + 1] as number, r[at + 2] as number, r[at + 3] as number);
  };
  return { add, addTool, addSession, result: () => ({ tools: [...tools.values()], lengths, turns }) };
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
