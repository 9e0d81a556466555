// Schema 12: the usage totals per set of model names (a file's own model and the models it called), kept by the writer, so a `model:` dashboard sums a few thousand rows instead of most files' (usage-name-rollup.ts).
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { turnBucket } from './usage-buckets.ts';
import { PendingSums } from './usage-totals.ts';
import { USAGE_SUMS } from './usage-schema.ts';

/**
 * Every table is keyed first by `names`: the JSON array of a file's names (usage_file_models: its own model and the
 * models of its usage rows, sorted), so the files of one set of names are one range (100,000 bench sessions have 8
 * such sets where they have 117,937 files), then by whether the file is a top-level session (`top_level` 0: a
 * sub-agent, whose parent's names decide too whether it counts). Days are local days in the writer's zone (as usage_days), only known ones
 * (a row of unknown time is in no day, as the per-file figures count it); `with_usage` is a file with such a row.
 */
export const CREATE_NAME_TOTALS = `CREATE TABLE IF NOT EXISTS usage_name_days (
  names TEXT NOT NULL, top_level INTEGER NOT NULL, zone TEXT NOT NULL, day TEXT NOT NULL, model TEXT NOT NULL, format TEXT NOT NULL,
  input REAL NOT NULL, output REAL NOT NULL, cache_read REAL NOT NULL, cache_write REAL NOT NULL, reasoning REAL NOT NULL,
  cost REAL NOT NULL, unpriced INTEGER NOT NULL, calls INTEGER NOT NULL,
  PRIMARY KEY (names, top_level, zone, day, model, format)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS usage_name_hours (
  names TEXT NOT NULL, top_level INTEGER NOT NULL, zone TEXT NOT NULL, day TEXT NOT NULL, hour INTEGER NOT NULL, format TEXT NOT NULL,
  calls INTEGER NOT NULL, tokens REAL NOT NULL,
  PRIMARY KEY (names, top_level, zone, day, hour, format)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS usage_name_projects (
  names TEXT NOT NULL, top_level INTEGER NOT NULL, zone TEXT NOT NULL, project TEXT NOT NULL, format TEXT NOT NULL,
  tokens REAL NOT NULL, cost REAL NOT NULL, with_usage INTEGER NOT NULL,
  PRIMARY KEY (names, top_level, zone, project, format)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS usage_name_tools (
  names TEXT NOT NULL, top_level INTEGER NOT NULL, format TEXT NOT NULL, name TEXT NOT NULL, calls INTEGER NOT NULL, failures INTEGER NOT NULL,
  PRIMARY KEY (names, top_level, format, name)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS usage_name_sessions (
  names TEXT NOT NULL, top_level INTEGER NOT NULL, zone TEXT NOT NULL, format TEXT NOT NULL, length_bucket INTEGER NOT NULL, turn_bucket INTEGER NOT NULL,
  sessions INTEGER NOT NULL, with_usage INTEGER NOT NULL,
  PRIMARY KEY (names, top_level, zone, format, length_bucket, turn_bucket)
) WITHOUT ROWID;`;

/** Takes out what CREATE_NAME_TOTALS made (tests that make an index of schema 11). */
export const DROP_NAME_TOTALS =
  'DROP TABLE usage_name_days; DROP TABLE usage_name_hours; DROP TABLE usage_name_projects; DROP TABLE usage_name_tools; DROP TABLE usage_name_sessions;';

/** The key of a set of names: sorted, as JSON. */
export const namesKey = (names: Iterable<string>): string => JSON.stringify([...new Set(names)].sort());

/** One of a file's day rows: its local day, model, the eight sums (USAGE_SUMS' order) and its hours `[hour, calls, tokens]`. */
export interface FileDay {
  day: string;
  model: string;
  sums: readonly number[];
  hours: ReadonlyArray<readonly [number, number, number]>;
}

/** What a file adds to the totals: its session row's facts, its names and its day rows. */
export interface FileFacts {
  names: string;
  zone: string;
  format: string;
  /** The project's name (the first line of the column). */
  project: string;
  topLevel: number;
  length: number;
  turns: number;
  tools: ReadonlyArray<readonly [string, number, number]>;
  days: readonly FileDay[];
}

/** The batch's additions to the totals per set of names, written with the other totals (usage-write.ts). */
export class NameTotals {
  private readonly days: PendingSums;
  private readonly hours: PendingSums;
  private readonly projects: PendingSums;
  private readonly tools: PendingSums;
  private readonly sessions: PendingSums;
  private readonly namesOf: StatementSync;
  private readonly sessionOf: StatementSync;
  private readonly daysOf: StatementSync;

  constructor(db: DatabaseSync) {
    this.days = new PendingSums(db, 'usage_name_days', ['names', 'top_level', 'zone', 'day', 'model', 'format'], USAGE_SUMS);
    this.hours = new PendingSums(db, 'usage_name_hours', ['names', 'top_level', 'zone', 'day', 'hour', 'format'], ['calls', 'tokens']);
    this.projects = new PendingSums(db, 'usage_name_projects', ['names', 'top_level', 'zone', 'project', 'format'], ['tokens', 'cost', 'with_usage']);
    this.tools = new PendingSums(db, 'usage_name_tools', ['names', 'top_level', 'format', 'name'], ['calls', 'failures']);
    this.sessions = new PendingSums(
      db,
      'usage_name_sessions',
      ['names', 'top_level', 'zone', 'format', 'length_bucket', 'turn_bucket'],
      ['sessions', 'with_usage'],
    );
    this.namesOf = db.prepare('SELECT model FROM usage_file_models WHERE file_id = ?');
    this.sessionOf = db.prepare('SELECT format, zone, project, turns, length_bucket, top_level, tools FROM usage_sessions WHERE file_id = ?');
    this.daysOf = db.prepare(`SELECT day, model, ${USAGE_SUMS.join(', ')}, hours FROM usage_file_days WHERE file_id = ? AND day != ''`);
    this.daysOf.setReturnArrays(true);
  }

  /** Adds a file's figures (`sign` -1: takes them off). */
  add(f: FileFacts, sign: 1 | -1): void {
    let tokens = 0;
    let cost = 0;
    let withUsage = 0;
    // The file's calls and tokens per local day and hour, its models together (a few hours of a day: one row each).
    const hours = new Map<string, { day: string; hour: number; calls: number; tokens: number }>();
    for (const d of f.days) {
      if (d.day === '') continue;
      withUsage = 1;
      this.days.add([f.names, f.topLevel, f.zone, d.day, d.model, f.format], sign === 1 ? d.sums : d.sums.map((v) => -v));
      tokens += (d.sums[0] ?? 0) + (d.sums[1] ?? 0) + (d.sums[2] ?? 0) + (d.sums[3] ?? 0) + (d.sums[4] ?? 0);
      cost += d.sums[5] ?? 0;
      for (const [hour, calls, t] of d.hours) {
        const id = `${d.day}\n${hour}`;
        const h = hours.get(id);
        if (h) {
          h.calls += calls;
          h.tokens += t;
        } else hours.set(id, { day: d.day, hour, calls, tokens: t });
      }
    }
    for (const h of hours.values()) this.hours.add([f.names, f.topLevel, f.zone, h.day, h.hour, f.format], [sign * h.calls, sign * h.tokens]);
    if (withUsage) this.projects.add([f.names, f.topLevel, f.zone, f.project, f.format], [sign * tokens, sign * cost, sign]);
    for (const [name, calls, failures] of f.tools) this.tools.add([f.names, f.topLevel, f.format, name], [sign * calls, sign * failures]);
    this.sessions.add([f.names, f.topLevel, f.zone, f.format, f.length, turnBucket(f.turns)], [sign, sign * withUsage]);
  }

  /** A stored file's figures, read back from its rows (before they are deleted, or to fill the tables); null without a session row. */
  stored(fileId: number): FileFacts | null {
    const s = this.sessionOf.get(fileId) as
      { format: string; zone: string; project: string; turns: number; length_bucket: number; top_level: number; tools: string | null } | undefined;
    if (!s) return null;
    const days = (this.daysOf.all(fileId) as unknown as unknown[][]).map((r) => ({
      day: r[0] as string,
      model: r[1] as string,
      sums: r.slice(2, 2 + USAGE_SUMS.length) as number[],
      hours: JSON.parse(r[2 + USAGE_SUMS.length] as string) as Array<[number, number, number]>,
    }));
    const cut = s.project.indexOf('\n');
    return {
      names: namesKey((this.namesOf.all(fileId) as Array<{ model: string }>).map((n) => n.model)),
      zone: s.zone,
      format: s.format,
      project: cut >= 0 ? s.project.slice(0, cut) : s.project,
      topLevel: s.top_level,
      length: s.length_bucket,
      turns: s.turns,
      tools: s.tools ? (JSON.parse(s.tools) as Array<[string, number, number]>) : [],
      days,
    };
  }

  write(): void {
    for (const t of [this.days, this.hours, this.projects, this.tools, this.sessions]) t.write();
  }

  clear(): void {
    for (const t of [this.days, this.hours, this.projects, this.tools, this.sessions]) t.clear();
  }
}

/** Schema 11 -> 12: the totals per set of names, from the rows the index holds (no file is read again). */
export function addNameTotals(db: DatabaseSync): void {
  db.exec(CREATE_NAME_TOTALS);
  for (const table of ['usage_name_days', 'usage_name_hours', 'usage_name_projects', 'usage_name_tools', 'usage_name_sessions'])
    db.exec(`DELETE FROM ${table}`);
  const totals = new NameTotals(db);
  const ids = db.prepare('SELECT file_id FROM usage_sessions');
  ids.setReturnArrays(true);
  let n = 0;
  for (const [id] of ids.all() as unknown as Array<[number]>) {
    const facts = totals.stored(id);
    if (facts) totals.add(facts, 1);
    // Written every few thousand files, so the sums held in memory stay small.
    if (++n % 5000 === 0) totals.write();
  }
  totals.write();
}
