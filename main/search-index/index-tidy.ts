// After a scan, merges the full-text tables' segments: into one per table after much new text, else the scan's own.
import { TIDY_MIN_BYTES } from '../env/tuning.ts';
import { TIDY_SHARE } from '../env/tuning.ts';
import { TIDY_STEP_PAGES } from '../env/tuning.ts';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { mergeModeOf, setMergeMode } from './merge-mode.ts';

/**
 * In this order: searches read the small `heads` table for every common word, and it merges in well under a second;
 * then the word index, the largest (100,000 sessions, 585 segments after a scan in bulk mode: 0.6 s, 29.6 s and
 * 11.1 s; the bench's query p95 772 -> 753 -> 176 -> 139 ms as each was merged).
 */
const TABLES = ['heads', 'docs', 'idents'] as const;

/** The name of the index_state row counting the text written since the last tidy. */
export const SINCE_TIDY = 'text_since_tidy';

export interface TidyLimits {
  minBytes?: number;
  stepPages?: number;
}

/** All the indexed text (transcripts, titles, metadata), measured as the writer counts what it adds. */
export const TEXT_TOTAL_SQL = 'SELECT coalesce(sum(body_bytes + coalesce(length(title), 0) + coalesce(length(meta), 0)), 0) AS n FROM texts';

/** Text bytes written since the last tidy, as the index file records them. */
export function textSinceTidy(db: DatabaseSync): number {
  const row = db.prepare('SELECT value FROM index_state WHERE name = ?').get(SINCE_TIDY) as { value: number } | undefined;
  return row?.value ?? 0;
}

/** True when enough text came in since the last tidy for merging everything to pay off. */
export function tidyDue(db: DatabaseSync, limits: TidyLimits = {}): boolean {
  const since = textSinceTidy(db);
  if (since < (limits.minBytes ?? TIDY_MIN_BYTES)) return false;
  const total = (db.prepare(TEXT_TOTAL_SQL).get() as { n: number }).n;
  return since * TIDY_SHARE >= total;
}

/**
 * How much a pass merges. `full`: every table into one segment (after much new text, see tidyDue). `settle`: only
 * until no size has 4 segments or more (FTS5's 'merge' with a positive count), which merges what a scan in bulk mode
 * left unmerged (merge-mode.ts) without rewriting the rest of the index.
 */
export type TidyKind = 'full' | 'settle';

/** The pass a file needs now, if any: a full one when enough text came in, else a settling one after bulk writes. */
export function tidyNeeded(db: DatabaseSync, limits: TidyLimits = {}): TidyKind | null {
  if (tidyDue(db, limits)) return 'full';
  return mergeModeOf(db) === 'bulk' ? 'settle' : null;
}

/**
 * One tidy pass over the index file, a step at a time, so the writer can apply new batches between steps. The text
 * written during the pass still counts towards the next one. At its end the file is back in steady merge mode.
 */
export class IndexTidy {
  private readonly db: DatabaseSync;
  private readonly steps: StatementSync[];
  private readonly totalChanges: StatementSync;
  private readonly startSince: number;
  private readonly stepPages: number;
  private readonly kind: TidyKind;
  private table = 0;
  /** Whether the last step merged pages (false: its table was done, and the pass moved on to the next). */
  merged = false;

  constructor(db: DatabaseSync, limits: TidyLimits = {}, kind: TidyKind = 'full') {
    this.db = db;
    this.kind = kind;
    this.steps = TABLES.map((t) => db.prepare(`INSERT INTO ${t}(${t}, rank) VALUES ('merge', ?)`));
    this.totalChanges = db.prepare('SELECT total_changes() AS n');
    this.startSince = textSinceTidy(db);
    this.stepPages = limits.stepPages ?? TIDY_STEP_PAGES;
  }

  get done(): boolean {
    return this.table >= this.steps.length;
  }

  /** Runs one step in its own transaction; returns false once every table is merged (and the count is reset). */
  step(): boolean {
    const statement = this.steps[this.table];
    if (!statement) return false;
    const before = (this.totalChanges.get() as { n: number }).n;
    this.db.exec('BEGIN');
    try {
      statement.run(this.kind === 'full' ? -this.stepPages : this.stepPages);
      // The command's own row counts as one change; more means pages were merged and there may be more to do.
      const worked = (this.totalChanges.get() as { n: number }).n - before > 1;
      this.merged = worked;
      if (!worked && ++this.table >= this.steps.length) {
        if (this.kind === 'full') this.db.prepare('UPDATE index_state SET value = max(0, value - ?) WHERE name = ?').run(this.startSince, SINCE_TIDY);
        setMergeMode(this.db, 'steady');
      }
      this.db.exec('COMMIT');
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw err;
    }
    return !this.done;
  }
}
