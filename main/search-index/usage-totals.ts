// The usage totals a writer batch adds, summed in memory per key and written once per key when the batch ends (usage-write.ts adds each written file's figures).
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { USAGE_SUMS } from './usage-schema.ts';

/** A key's sums, found by its columns' values one Map per column (the last column's Map holds the entry). */
type Level = Map<SQLInputValue, Level | Entry>;
interface Entry {
  key: SQLInputValue[];
  sums: number[];
}

/**
 * One totals table's additions: per key (its key columns' values), the sums of its summed columns. Keys are equal when
 * each column's value is (Map equality: every caller gives a column values of one type). Looked up one column at a
 * time: joining each key into a string (numbers turned into text) took about a sixth of the writer's usage work in a
 * cold scan of 10,000 OpenCode sessions (CPU profile: 174-232 -> 100-118 ms). The rows are written in the order their
 * keys first came, as before.
 */
export class PendingSums {
  private root: Level = new Map();
  private entries: Entry[] = [];
  private readonly statement: StatementSync;
  private readonly width: number;

  constructor(db: DatabaseSync, table: string, keys: readonly string[], sums: readonly string[]) {
    const columns = [...keys, ...sums];
    this.statement = db.prepare(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})
      ON CONFLICT DO UPDATE SET ${sums.map((c) => `${c} = ${c} + excluded.${c}`).join(', ')}`,
    );
    this.width = sums.length;
  }

  /** Adds `values` (one per summed column, in order) to the key's sums; a key added only zeros is still written, as a row of zeros. */
  add(key: SQLInputValue[], values: readonly number[]): void {
    let level = this.root;
    const last = key.length - 1;
    for (let i = 0; i < last; i++) {
      let next = level.get(key[i] as SQLInputValue) as Level | undefined;
      if (!next) level.set(key[i] as SQLInputValue, (next = new Map()));
      level = next;
    }
    let entry = level.get(key[last] as SQLInputValue) as Entry | undefined;
    if (!entry) {
      entry = { key, sums: new Array<number>(this.width).fill(0) };
      level.set(key[last] as SQLInputValue, entry);
      this.entries.push(entry);
    }
    const sums = entry.sums;
    for (let i = 0; i < this.width; i++) sums[i]! += values[i] ?? 0;
  }

  /** One statement per key: its row is made, or its sums added to the row's. */
  write(): void {
    for (const { key, sums } of this.entries) this.statement.run(...key, ...sums);
    this.clear();
  }

  clear(): void {
    this.root = new Map();
    this.entries = [];
  }
}

/**
 * The totals over every file (usage-schema.ts), as a batch changes them. Reading each written file's rows back to add
 * them (six statements a file, each a join and a group) cost the writer a fifth of its time in a cold scan; the
 * batch's files share most keys (an hour, a model, a source), so a batch of hundreds writes a few dozen rows.
 */
export class UsageTotals {
  readonly hours: PendingSums;
  readonly days: PendingSums;
  readonly projectDays: PendingSums;
  /** The same over every source (schema 15). */
  readonly projectDayTotals: PendingSums;
  readonly models: PendingSums;
  readonly projects: PendingSums;
  readonly tools: PendingSums;
  readonly sessions: PendingSums;
  private readonly all: PendingSums[];

  constructor(db: DatabaseSync) {
    this.hours = new PendingSums(db, 'usage_hours', ['hour_ms', 'model', 'format'], USAGE_SUMS);
    this.days = new PendingSums(db, 'usage_days', ['zone', 'day', 'model', 'format'], USAGE_SUMS);
    this.projectDays = new PendingSums(db, 'usage_project_days', ['zone', 'day', 'project', 'format'], USAGE_SUMS);
    this.projectDayTotals = new PendingSums(db, 'usage_project_day_totals', ['zone', 'day', 'project'], USAGE_SUMS);
    this.models = new PendingSums(db, 'usage_models', ['model', 'format'], ['tokens', 'cost', 'unpriced', 'calls']);
    this.projects = new PendingSums(db, 'usage_projects', ['project', 'format'], ['tokens', 'cost', 'with_usage']);
    this.tools = new PendingSums(db, 'usage_tool_totals', ['format', 'name'], ['calls', 'failures']);
    this.sessions = new PendingSums(db, 'usage_session_totals', ['format', 'top_level', 'length_bucket', 'turn_bucket'], ['sessions', 'with_usage']);
    this.all = [this.hours, this.days, this.projectDays, this.projectDayTotals, this.models, this.projects, this.tools, this.sessions];
  }

  /** Writes what the batch added (inside its transaction, before it commits). */
  write(): void {
    for (const table of this.all) table.write();
  }

  /** Forgets what a failed batch added (its transaction is rolled back). */
  clear(): void {
    for (const table of this.all) table.clear();
  }
}
