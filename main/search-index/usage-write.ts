// Writes a file's usage facts (usage-facts.ts) into the usage tables and the totals over every file (what a batch adds summed in memory: usage-totals.ts), and takes them out again; used by the index's writer.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { SessionSummary } from '../../shared/session.ts';
import { lengthBucket, turnBucket } from './usage-buckets.ts';
import type { UsageFacts } from './usage-facts.ts';
import { localHours, type LocalHour } from './usage-periods.ts';
import { fileModelNames } from './usage-file-models.ts';
import { NameTotals, namesKey } from './usage-name-totals.ts';
import { USAGE_SUMS } from './usage-schema.ts';
import { packFile, type PackedDay } from './usage-file-pack.ts';
import type { ToolUse } from './usage-tools.ts';
import { UsageTotals } from './usage-totals.ts';

const timeOf = (iso: string | null | undefined): number | null => {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(t) ? null : t;
};

/** The project as the files table holds it (name and path, one per line). */
export const projectOf = (s: Pick<SessionSummary, 'projectName' | 'projectPath'> | null) =>
  s ? [s.projectName, s.projectPath].filter(Boolean).join('\n') : '';
/** The project's name from that column (its first line), as the dashboard groups by it. */
export const projectName = (project: string) => {
  const cut = project.indexOf('\n');
  return cut >= 0 ? project.slice(0, cut) : project;
};

/** A file's usage row with its session's source, zone and project, as `hoursOf` reads it back. */
type HourRow = { h: number; model: string; format: string; zone: string; project: string } & Record<(typeof USAGE_SUMS)[number], number>;
type Day = { zone: string; day: string; model: string; format: string; sums: number[]; hours: Map<number, [number, number, number]> };
type ProjectDay = { zone: string; day: string; project: string; format: string; sums: number[] };
/** What a written file's usage_sessions row holds (and its tools), for the totals. */
interface UsageSessionRow {
  format: string;
  project: string;
  turns: number;
  length: number;
  topLevel: 0 | 1;
  withUsage: 0 | 1;
  tools: readonly ToolUse[];
}
const zeros = () => USAGE_SUMS.map(() => 0);
/** Where a row of no hour (hour_ms 0) is counted. */
const NO_HOUR: LocalHour = { day: '', hour: 0 };
const addAll = (columns: readonly string[]) => columns.map((c) => `${c} = ${c} + excluded.${c}`).join(', ');

export class UsageWrites {
  private readonly insertHour: StatementSync;
  private readonly insertTool: StatementSync;
  private readonly insertSession: StatementSync;
  private readonly insertPack: StatementSync;
  private readonly insertLimit: StatementSync;
  private readonly insertModel: StatementSync;
  private readonly addHours: StatementSync;
  private readonly addProject: StatementSync;
  private readonly addModels: StatementSync;
  private readonly addDay: StatementSync;
  private readonly insertFileDay: StatementSync;
  private readonly addProjectDay: StatementSync;
  private readonly addProjectDayTotal: StatementSync;
  private readonly hoursOf: StatementSync;
  /** The time zone days are counted in for usage_days: this process's (the machine's), and each file's own on removal. */
  private readonly zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  private readonly zones = new Map<string, (hourMs: number) => LocalHour>();
  private readonly addTools: StatementSync;
  private readonly addSession: StatementSync;
  private readonly sessionOf: StatementSync;
  private readonly deletes: StatementSync[];
  /** What the batch's written files add to the totals, written when it ends (writeTotals). */
  private readonly totals: UsageTotals;
  /** The same per set of model names (usage-name-totals.ts), written with them. */
  private readonly names: NameTotals;

  constructor(db: DatabaseSync) {
    this.insertHour = db.prepare(
      'INSERT INTO usage (file_id, hour_ms, model, input, output, cache_read, cache_write, reasoning, cost, unpriced, calls, first_ms, last_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.insertTool = db.prepare('INSERT INTO usage_tools (file_id, name, calls, failures) VALUES (?, ?, ?, ?)');
    this.insertModel = db.prepare('INSERT OR IGNORE INTO usage_file_models (model, file_id) VALUES (?, ?)');
    this.insertPack = db.prepare('INSERT OR REPLACE INTO usage_file_packs (file_id, pack) VALUES (?, ?)');
    // An upsert, not INSERT OR REPLACE: with the table's second index (usage_sessions_narrow) REPLACE cost ~20 µs a
    // file, this ~7 (10,000 OpenCode sessions' first scan replayed on one thread: 207 -> 74 ms); the row is the same.
    this.insertSession = db.prepare(
      `INSERT INTO usage_sessions (file_id, format, zone, project, turns, length_bucket, top_level, with_usage, tools) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (file_id) DO UPDATE SET ${['format', 'zone', 'project', 'turns', 'length_bucket', 'top_level', 'with_usage', 'tools'].map((c) => `${c} = excluded.${c}`).join(', ')}`,
    );
    this.addProjectDay =
      db.prepare(`INSERT INTO usage_project_days (zone, day, project, format, ${USAGE_SUMS.join(', ')}) VALUES (?, ?, ?, ?, ${USAGE_SUMS.map(() => '?').join(', ')})
      ON CONFLICT DO UPDATE SET ${addAll(USAGE_SUMS)}`);
    this.addProjectDayTotal =
      db.prepare(`INSERT INTO usage_project_day_totals (zone, day, project, ${USAGE_SUMS.join(', ')}) VALUES (?, ?, ?, ${USAGE_SUMS.map(() => '?').join(', ')})
      ON CONFLICT DO UPDATE SET ${addAll(USAGE_SUMS)}`);
    this.insertFileDay = db.prepare(
      `INSERT INTO usage_file_days (file_id, day, model, ${USAGE_SUMS.join(', ')}, hours) VALUES (?, ?, ?, ${USAGE_SUMS.map(() => '?').join(', ')}, ?)`,
    );
    this.addDay =
      db.prepare(`INSERT INTO usage_days (zone, day, model, format, ${USAGE_SUMS.join(', ')}) VALUES (?, ?, ?, ?, ${USAGE_SUMS.map(() => '?').join(', ')})
      ON CONFLICT DO UPDATE SET ${addAll(USAGE_SUMS)}`);
    this.hoursOf =
      db.prepare(`SELECT u.hour_ms AS h, coalesce(u.model, '') AS model, s.format AS format, s.zone AS zone, s.project AS project, ${USAGE_SUMS.map((c) => `u.${c} AS ${c}`).join(', ')}
      FROM usage u JOIN usage_sessions s ON s.file_id = u.file_id WHERE u.file_id = ?`);
    this.insertLimit = db.prepare(
      'INSERT INTO usage_limits (file_id, at_ms, limit_id, plan, window_name, window_minutes, used_percent, resets_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    // The totals: a file's rows are added with `sign` 1 when it is written, and -1 before they are deleted.
    this.addHours = db.prepare(`INSERT INTO usage_hours (hour_ms, model, format, ${USAGE_SUMS.join(', ')})
      SELECT u.hour_ms, coalesce(u.model, ''), s.format, ${USAGE_SUMS.map((c) => `?1 * sum(u.${c})`).join(', ')}
      FROM usage u JOIN usage_sessions s ON s.file_id = u.file_id WHERE u.file_id = ?2 GROUP BY u.hour_ms, u.model
      ON CONFLICT DO UPDATE SET ${addAll(USAGE_SUMS)}`);
    this.addProject = db.prepare(`INSERT INTO usage_projects (project, format, tokens, cost, with_usage)
      SELECT s.project, s.format, ?1 * coalesce(sum(u.input + u.output + u.cache_read + u.cache_write + u.reasoning), 0), ?1 * coalesce(sum(u.cost), 0), ?1 * s.with_usage
      FROM usage_sessions s LEFT JOIN usage u ON u.file_id = s.file_id WHERE s.file_id = ?2 GROUP BY s.file_id
      ON CONFLICT DO UPDATE SET ${addAll(['tokens', 'cost', 'with_usage'])}`);
    this.addModels = db.prepare(`INSERT INTO usage_models (model, format, tokens, cost, unpriced, calls)
      SELECT coalesce(u.model, ''), s.format, ?1 * sum(u.input + u.output + u.cache_read + u.cache_write + u.reasoning), ?1 * sum(u.cost), ?1 * sum(u.unpriced), ?1 * sum(u.calls)
      FROM usage u JOIN usage_sessions s ON s.file_id = u.file_id WHERE u.file_id = ?2 AND u.hour_ms > 0 GROUP BY u.model
      ON CONFLICT DO UPDATE SET ${addAll(['tokens', 'cost', 'unpriced', 'calls'])}`);
    this.addTools = db.prepare(`INSERT INTO usage_tool_totals (format, name, calls, failures)
      SELECT s.format, t.name, ?1 * sum(t.calls), ?1 * sum(t.failures) FROM usage_tools t JOIN usage_sessions s ON s.file_id = t.file_id WHERE t.file_id = ?2 GROUP BY t.name
      ON CONFLICT DO UPDATE SET ${addAll(['calls', 'failures'])}`);
    this.addSession = db.prepare(`INSERT INTO usage_session_totals (format, top_level, length_bucket, turn_bucket, sessions, with_usage)
      SELECT format, top_level, length_bucket, ?3, ?1, ?1 * with_usage FROM usage_sessions WHERE file_id = ?2 AND true
      ON CONFLICT DO UPDATE SET ${addAll(['sessions', 'with_usage'])}`);
    this.sessionOf = db.prepare('SELECT turns FROM usage_sessions WHERE file_id = ?');
    this.totals = new UsageTotals(db);
    this.names = new NameTotals(db);
    this.deletes = ['usage', 'usage_tools', 'usage_sessions', 'usage_limits', 'usage_file_days', 'usage_file_models', 'usage_file_packs'].map((t) =>
      db.prepare(`DELETE FROM ${t} WHERE file_id = ?`),
    );
  }

  /** The local-hour function for a zone, made once. */
  private localOf(zone: string): (hourMs: number) => LocalHour {
    let local = this.zones.get(zone);
    if (!local) {
      local = localHours(zone);
      this.zones.set(zone, local);
    }
    return local;
  }

  /** A file's rows per local day and model (with their hours), and per local day and project, each sum times `sign`. */
  private dayFigures(rows: readonly HourRow[], sign: 1 | -1): { days: Map<string, Day>; projects: Map<string, ProjectDay> } {
    const projects = new Map<string, ProjectDay>();
    const days = new Map<string, Day>();
    for (const r of rows) {
      const local = this.localOf(r.zone);
      const at = r.h > 0 ? local(r.h) : NO_HOUR;
      const id = `${at.day}\n${r.model}`;
      const d = days.get(id) ?? { zone: r.zone, day: at.day, model: r.model, format: r.format, sums: zeros(), hours: new Map() };
      const p = projects.get(at.day) ?? { zone: r.zone, day: at.day, project: projectName(r.project), format: r.format, sums: zeros() };
      // In USAGE_SUMS' order (a loop, not a closure per column and row: this runs for every hour of every session a scan writes).
      const values = [r.input, r.output, r.cache_read, r.cache_write, r.reasoning, r.cost, r.unpriced, r.calls];
      for (let i = 0; i < values.length; i++) {
        const v = sign * (values[i] as number);
        d.sums[i] = (d.sums[i] as number) + v;
        p.sums[i] = (p.sums[i] as number) + v;
      }
      projects.set(at.day, p);
      // The heatmap's figures per local hour: calls and tokens.
      const hour = d.hours.get(at.hour) ?? [at.hour, 0, 0];
      hour[1] += r.calls;
      hour[2] += r.input + r.output + r.cache_read + r.cache_write + r.reasoning;
      d.hours.set(at.hour, hour);
      days.set(id, d);
    }
    return { days, projects };
  }

  private insertFileDays(fileId: number, days: Map<string, Day>): void {
    for (const d of days.values()) this.insertFileDay.run(fileId, d.day, d.model, ...d.sums, JSON.stringify(hoursOf(d)));
  }

  /**
   * The file's usage per local day (in the zone it was added under) into usage_days, and when it is written, its own
   * rows per day and model (with their hours) into usage_file_days; read from the rows the index holds for it.
   */
  addDays(fileId: number, sign: 1 | -1, totals = true): void {
    const { days, projects } = this.dayFigures(this.hoursOf.all(fileId) as HourRow[], sign);
    if (totals) for (const d of days.values()) this.addDay.run(d.zone, d.day, d.model, d.format, ...d.sums);
    if (sign === 1) this.insertFileDays(fileId, days);
    if (totals)
      for (const p of projects.values()) {
        this.addProjectDay.run(p.zone, p.day, p.project, p.format, ...p.sums);
        this.addProjectDayTotal.run(p.zone, p.day, p.project, ...p.sums);
      }
  }

  /**
   * A written file's day rows, and its figures added to the batch's totals: what `addTotals` adds for it, worked out
   * from the rows just written instead of read back (see usage-totals.ts).
   */
  private addWritten(
    fileId: number,
    rows: readonly HourRow[],
    figures: ReturnType<UsageWrites['dayFigures']>,
    s: UsageSessionRow,
    names: readonly string[],
  ): void {
    const { days, projects } = figures;
    this.names.add(
      {
        names: namesKey(names),
        zone: this.zone,
        format: s.format,
        project: projectName(s.project),
        topLevel: s.topLevel,
        length: s.length,
        turns: s.turns,
        tools: s.tools.map((t) => [t.name, t.calls, t.failures] as const),
        days: [...days.values()].map((d) => ({ day: d.day, model: d.model, sums: d.sums, hours: [...d.hours.values()] })),
      },
      1,
    );
    for (const d of days.values()) this.totals.days.add([d.zone, d.day, d.model, d.format], d.sums);
    this.insertFileDays(fileId, days);
    for (const p of projects.values()) {
      this.totals.projectDays.add([p.zone, p.day, p.project, p.format], p.sums);
      this.totals.projectDayTotals.add([p.zone, p.day, p.project], p.sums);
    }
    // A session's project row is made with its first file, usage or not (the LEFT JOIN of addProject).
    this.totals.projects.add([s.project, s.format], [0, 0, s.withUsage]);
    for (const r of rows) {
      const tokens = r.input + r.output + r.cache_read + r.cache_write + r.reasoning;
      this.totals.hours.add([r.h, r.model, r.format], [r.input, r.output, r.cache_read, r.cache_write, r.reasoning, r.cost, r.unpriced, r.calls]);
      if (r.h > 0) this.totals.models.add([r.model, r.format], [tokens, r.cost, r.unpriced, r.calls]);
      this.totals.projects.add([s.project, s.format], [tokens, r.cost, 0]);
    }
    for (const t of s.tools) this.totals.tools.add([s.format, t.name], [t.calls, t.failures]);
    this.totals.sessions.add([s.format, s.topLevel, s.length, turnBucket(s.turns)], [1, s.withUsage]);
  }

  /** Writes the batch's totals (before its transaction commits). */
  writeTotals(): void {
    this.totals.write();
    this.names.write();
  }

  /** Forgets a failed batch's totals (its transaction is rolled back). */
  clearTotals(): void {
    this.totals.clear();
    this.names.clear();
  }

  private addTotals(fileId: number, sign: 1 | -1, turns: number): void {
    this.addDays(fileId, sign);
    this.addHours.run(sign, fileId);
    this.addProject.run(sign, fileId);
    this.addModels.run(sign, fileId);
    this.addTools.run(sign, fileId);
    this.addSession.run(sign, fileId, turnBucket(turns));
  }

  /**
   * Writes a file's rows (`summary` null for a file that could not be read: it counts as a session of no source).
   * What it adds to the totals is written by writeTotals, which the batch calls before it commits.
   */
  put(fileId: number, facts: UsageFacts | undefined, summary: SessionSummary | null): void {
    for (const u of facts?.hours ?? []) {
      this.insertHour.run(
        fileId,
        u.hourMs,
        u.model,
        u.input,
        u.output,
        u.cacheRead,
        u.cacheWrite,
        u.reasoning,
        u.costUsd,
        u.unpriced,
        u.calls,
        u.firstMs,
        u.lastMs,
      );
    }
    for (const t of facts?.tools ?? []) this.insertTool.run(fileId, t.name, t.calls, t.failures);
    for (const l of facts?.limits ?? []) this.insertLimit.run(fileId, l.atMs, l.limitId, l.plan, l.window, l.windowMinutes, l.usedPercent, l.resetsAtMs);
    if (!summary) return;
    const session: UsageSessionRow = {
      format: summary.format,
      project: projectOf(summary),
      turns: facts?.turns ?? 0,
      length: lengthBucket(timeOf(summary.createdAt), timeOf(summary.updatedAt)),
      topLevel: summary.parentKey ? 0 : 1,
      withUsage: facts?.hours.length ? 1 : 0,
      tools: facts?.tools ?? [],
    };
    const tools = session.tools.length ? JSON.stringify(session.tools.map((t) => [t.name, t.calls, t.failures])) : null;
    const rows: HourRow[] = (facts?.hours ?? []).map((u) => ({
      h: u.hourMs,
      model: u.model ?? '',
      format: session.format,
      zone: this.zone,
      project: session.project,
      input: u.input,
      output: u.output,
      cache_read: u.cacheRead,
      cache_write: u.cacheWrite,
      reasoning: u.reasoning,
      cost: u.costUsd,
      unpriced: u.unpriced,
      calls: u.calls,
    }));
    this.insertSession.run(fileId, session.format, this.zone, session.project, session.turns, session.length, session.topLevel, session.withUsage, tools);
    // The file's facts packed (usage-file-pack.ts): its session row's and its day rows.
    const figures = this.dayFigures(rows, 1);
    this.insertPack.run(
      fileId,
      packFile({
        format: session.format,
        project: session.project,
        topLevel: session.topLevel,
        lengthBucket: session.length,
        turns: session.turns,
        tools: session.tools.map((t) => [t.name, t.calls, t.failures] as const),
        days: [...figures.days.values()].map(packedDay),
      }),
    );
    // The names model: finds it by (usage-file-models.ts): its own model and the models it called.
    const names = fileModelNames(
      summary.model,
      (facts?.hours ?? []).map((u) => u.model),
    );
    for (const name of names) this.insertModel.run(name, fileId);
    this.addWritten(fileId, rows, figures, session, names);
  }

  remove(fileId: number): void {
    const session = this.sessionOf.get(fileId) as { turns: number } | undefined;
    if (session) this.addTotals(fileId, -1, session.turns);
    const named = this.names.stored(fileId);
    if (named) this.names.add(named, -1);
    for (const d of this.deletes) d.run(fileId);
  }
}

/** A day's hours in hour order, as its row's JSON holds them. */
const hoursOf = (d: Day) => [...d.hours.values()].sort((a, b) => a[0] - b[0]);
const packedDay = (d: Day): PackedDay => ({ day: d.day, model: d.model, sums: d.sums, hours: hoursOf(d) });
