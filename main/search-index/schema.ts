// The index's tables and the steps that bring an older index file up to the current schema.
import { FTS_HASH_BYTES } from '../env/tuning.ts';
import type { DatabaseSync } from 'node:sqlite';
import { SINCE_TIDY, TEXT_TOTAL_SQL } from './index-tidy.ts';
import { mergeModeSql } from './merge-mode.ts';
import { READING_VERSION, READING_VERSION_STATE } from './reading-version.ts';
import {
  ADD_PROJECT_DAY_TOTALS,
  CREATE_FILE_DAYS_BY_DAY,
  CREATE_FILE_PACKS,
  CREATE_NARROW_SESSIONS,
  CREATE_PROJECT_DAY_TOTALS,
  USAGE_V10,
  USAGE_V8,
} from './usage-schema.ts';
import { addFileModels, CREATE_FILE_MODELS } from './usage-file-models.ts';
import { addNameTotals, CREATE_NAME_TOTALS } from './usage-name-totals.ts';
import { addFileDays, addFilePacks } from './usage-schema-steps.ts';
import { machineCutsHours } from './usage-rows.ts';

/** Stored in PRAGMA user_version; bump it and add a migration (or let the index rebuild) when the shape changes. */
export const SCHEMA_VERSION = 18;

/** A new file starts in steady mode: FTS5 merges segments as they pile up (merge-mode.ts). */
const AUTOMERGE = mergeModeSql('steady');

/** FTS5 writes a segment each time a transaction's tokens pass 'hashsize': one per batch (env/tuning.ts says why). */
const FTS_TUNING = `
INSERT INTO docs(docs, rank) VALUES ('hashsize', ${FTS_HASH_BYTES});
INSERT INTO idents(idents, rank) VALUES ('hashsize', ${FTS_HASH_BYTES});
${AUTOMERGE}`;

/**
 * What the full-text tables still need of a listed file (pending-text.ts): the words no column stores, and its
 * identifiers. A scan writes the list's rows and the stored text; the writer thread indexes these rows afterwards.
 */
const CREATE_PENDING = `CREATE TABLE fts_pending (id INTEGER PRIMARY KEY, more BLOB);
CREATE TABLE idents_pending (id INTEGER PRIMARY KEY, idents BLOB);`;

/**
 * Counters the writer keeps with the index (index-tidy.ts: the text written since the full-text tables were last
 * merged), and the readers' version its files were read with (reading-version.ts: a new file's are this one's).
 */
const CREATE_STATE = `CREATE TABLE index_state (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO index_state (name, value) VALUES ('${SINCE_TIDY}', 0), ('${READING_VERSION_STATE}', ${READING_VERSION});`;

/**
 * The titles and metadata again, in a table of their own: when a word is in thousands of sessions, ranking only
 * those with it in the title or metadata reads this table's short lists instead of every position of the word in
 * every transcript (a word in 9,700 of 10,000 sessions: 4.5 ms -> 0.7 ms).
 */
const CREATE_HEADS = `CREATE VIRTUAL TABLE heads USING fts5(title, meta, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2');`;

/**
 * Each file's token usage and cost per hour and model (usage-rows.ts), what `usage daily|weekly|monthly|session`
 * adds up without reading a session file. Hours in UTC: a report folds them into days of any whole-hour time zone.
 */
const CREATE_USAGE = `CREATE TABLE usage (
  file_id INTEGER NOT NULL,
  hour_ms INTEGER NOT NULL,
  model TEXT,
  input REAL NOT NULL,
  output REAL NOT NULL,
  cache_read REAL NOT NULL,
  cache_write REAL NOT NULL,
  reasoning REAL NOT NULL,
  cost REAL NOT NULL,
  unpriced INTEGER NOT NULL,
  calls INTEGER NOT NULL
);
CREATE INDEX usage_file ON usage(file_id);
CREATE INDEX usage_hour ON usage(hour_ms);`;

const CREATE = `
CREATE TABLE files (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  key TEXT,
  format TEXT,
  project TEXT,
  branch TEXT,
  status TEXT,
  outcome TEXT,
  model TEXT,
  created_ms INTEGER,
  updated_ms INTEGER,
  time_ms INTEGER NOT NULL,
  tokens REAL,
  cost REAL,
  has_summary INTEGER NOT NULL DEFAULT 0,
  parent_key TEXT,
  readable INTEGER NOT NULL DEFAULT 1,
  companions TEXT
);
-- Each file's read result (its list row), apart from the files rows so that scanning those (a start, a
-- listing, facet counts) reads a few small pages per hundred files instead of every summary.
CREATE TABLE results (
  id INTEGER PRIMARY KEY,
  result TEXT NOT NULL
);
CREATE INDEX files_time ON files(time_ms);
CREATE INDEX files_key ON files(key);
-- The words and identifiers are indexed without a copy of their text (contentless FTS5, rows still deletable);
-- the text a snippet needs is kept here, the transcript in 32 KB pieces (body-chunks.ts) so that a snippet reads
-- the piece holding its match instead of the whole body.
CREATE TABLE texts (
  id INTEGER PRIMARY KEY,
  title TEXT,
  meta TEXT,
  body_bytes INTEGER NOT NULL,
  body_chunks INTEGER NOT NULL
);
CREATE TABLE body_chunks (
  rowid INTEGER PRIMARY KEY,
  first_message INTEGER NOT NULL,
  text BLOB
);
CREATE VIRTUAL TABLE docs USING fts5(title, body, meta, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE idents USING fts5(text, content = '', contentless_delete = 1, tokenize = 'trigram');
${CREATE_HEADS}
${CREATE_STATE}
${CREATE_USAGE}
${USAGE_V8}
${USAGE_V10}
${CREATE_FILE_MODELS}
${CREATE_NARROW_SESSIONS}
${CREATE_NAME_TOTALS}
${CREATE_FILE_DAYS_BY_DAY}
${CREATE_FILE_PACKS}
${CREATE_PROJECT_DAY_TOTALS}
${CREATE_PENDING}
${FTS_TUNING}`;

/**
 * Each entry upgrades from version N to N+1 in place; a missing step means the index is rebuilt instead (it is a
 * cache of the session files, so a rebuild loses nothing but time). Versions 1-3 kept the text inside FTS5 tables
 * that version 4 replaces with contentless ones, which cannot be converted without re-reading every file: an
 * index older than 4 is rebuilt. (The steps 1 -> 2 -> 3 that once upgraded in place are in the history.)
 */
export const MIGRATIONS: Record<number, (db: DatabaseSync) => void> = {
  // 4 -> 5: the titles and metadata are already stored in `texts`; index them again in `heads`.
  4: (db) => {
    db.exec(CREATE_HEADS);
    db.exec(AUTOMERGE);
    db.exec('INSERT INTO heads (rowid, title, meta) SELECT id, title, meta FROM texts');
  },
  // 5 -> 6: the tidy counter; all the text so far counts as not yet merged, so the tables are merged once.
  5: (db) => {
    db.exec(CREATE_STATE);
    db.prepare(`UPDATE index_state SET value = (${TEXT_TOTAL_SQL}) WHERE name = ?`).run(SINCE_TIDY);
  },
  // 6 -> 7: the usage table. Only a file's reader knows its per-call usage, so every file is marked changed
  // (mtime -1) and the next scan reads it again; its text and list row stay searchable meanwhile.
  6: (db) => {
    db.exec(CREATE_USAGE);
    db.exec('UPDATE files SET mtime_ms = -1');
  },
  // 7 -> 8: usage-schema.ts (call times, tools, turns, rate limits, the parent lookup); every file is read again, as for 7.
  7: (db) => {
    db.exec(USAGE_V8);
    db.exec('UPDATE files SET mtime_ms = -1');
  },
  // 8 -> 9: text waits in fts_pending between a scan and the full-text tables, and every word of a session is indexed
  // (not only the stored body's): every file is read again, its old text searchable meanwhile.
  8: (db) => {
    db.exec(CREATE_PENDING);
    db.exec('UPDATE files SET mtime_ms = -1');
  },
  // 9 -> 10: usage-schema.ts's per-file day rows and tools, worked out from the usage rows already stored.
  9: addFileDays,
  // 10 -> 11: usage-file-models.ts's names per file, from the rows already stored, and usage-schema.ts's narrow session rows.
  10: (db) => {
    addFileModels(db);
    db.exec(CREATE_NARROW_SESSIONS);
  },
  // 11 -> 12: usage-name-totals.ts's totals per set of model names, from the rows already stored.
  11: addNameTotals,
  // 12 -> 13: usage-schema.ts's day rows by day (an index SQLite builds from the rows already stored).
  12: (db) => db.exec(CREATE_FILE_DAYS_BY_DAY),
  // 13 -> 14: usage-file-pack.ts's packed facts per file, from the session and day rows already stored.
  13: addFilePacks,
  // 14 -> 15: usage-schema.ts's totals per day and project over every source, from the totals per source already stored.
  14: (db) => db.exec(ADD_PROJECT_DAY_TOTALS),
  // 15 -> 16: usage rows are cut where the machine's local hour begins (usage-rows.ts machineHourCut). Only a machine in
  // a zone that is not whole hours from UTC has rows to cut: there every file is read again, as for 7; elsewhere nothing changes.
  15: (db) => readAgainForHourCuts(db, machineCutsHours()),
  // 16 -> 17: an llm operation's usage counts under its own model (usage-rows.ts), and a Cline task's requests under the
  // model it had in use at their time: the formats whose usage comes from llm operations are read again.
  16: readAgainLlmOperationFormats,
  // 17 -> 18: a Cline-family task's attempt_completion is its answer's text, the call kept only when feedback answered it
  // (cline-history.ts): their messages and tool counts change, so those formats' files are read again.
  17: (db) => readAgainFormats(db, CLINE_TASK_FORMATS),
};

/** The formats whose usage rows come from llm operations named by their model. */
const LLM_OPERATION_FORMATS = ['cline', 'roo-code', 'ai-agent', 'goose'];

/** The formats that read Cline-style task folders (Kilo's pre-2026 extension among Kilo's). */
const CLINE_TASK_FORMATS = ['cline', 'roo-code', 'kilo'];

/** Marks the files of those formats changed (read again by the next scan, their rows listed meanwhile). */
export function readAgainLlmOperationFormats(db: DatabaseSync): void {
  readAgainFormats(db, LLM_OPERATION_FORMATS);
}

/** Marks the files of these formats changed (read again by the next scan, their rows listed meanwhile). */
export function readAgainFormats(db: DatabaseSync, formats: readonly string[]): void {
  const marks = formats.map(() => '?').join(', ');
  db.prepare(`UPDATE files SET mtime_ms = -1 WHERE format IN (${marks})`).run(...formats);
}

/** Marks every file changed (read again by the next scan, its text searchable meanwhile) when the machine's zone cuts hours. */
export function readAgainForHourCuts(db: DatabaseSync, cuts: boolean): void {
  if (cuts) db.exec('UPDATE files SET mtime_ms = -1');
}

export function createSchema(db: DatabaseSync): void {
  db.exec(CREATE);
  db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
}

/** Drops everything the index holds (it is a cache of the session files, so nothing is lost). */
export function dropAll(db: DatabaseSync): void {
  const rows = db.prepare("SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'").all() as Array<{
    type: string;
    name: string;
    sql: string | null;
  }>;
  const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
  // Virtual tables first: their shadow tables go with them.
  const virtualFirst = [...rows].sort((a, b) => Number(/^CREATE VIRTUAL/i.test(b.sql ?? '')) - Number(/^CREATE VIRTUAL/i.test(a.sql ?? '')));
  for (const { type, name } of virtualFirst) db.exec(`DROP ${type === 'view' ? 'VIEW' : 'TABLE'} IF EXISTS ${quoted(name)}`);
}

/** Brings the file to SCHEMA_VERSION; returns a note when it had to rebuild, null when nothing was lost. */
export function migrate(db: DatabaseSync, migrations: Record<number, (db: DatabaseSync) => void> = MIGRATIONS): string | null {
  const version = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  if (version === SCHEMA_VERSION) return null;
  const hasTables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number };
  if (version === 0 && hasTables.n === 0) {
    createSchema(db);
    return null;
  }
  let v = version;
  if (v < SCHEMA_VERSION) {
    db.exec('BEGIN');
    try {
      while (v < SCHEMA_VERSION && migrations[v]) {
        migrations[v]?.(db);
        v++;
      }
      if (v === SCHEMA_VERSION) db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
      db.exec('COMMIT');
    } catch (err) {
      db.exec('ROLLBACK');
      throw err;
    }
    if (v === SCHEMA_VERSION) return `The search index was upgraded from version ${version} to ${SCHEMA_VERSION}.`;
  }
  db.exec('BEGIN');
  dropAll(db);
  createSchema(db);
  db.exec('COMMIT');
  return `The search index had schema version ${version} (this app uses ${SCHEMA_VERSION}); it was rebuilt and sessions are read again.`;
}
