// The index's tables and the steps that bring an older index file up to the current schema.
import type { DatabaseSync } from 'node:sqlite';

/** Stored in PRAGMA user_version; bump it and add a migration (or let the index rebuild) when the shape changes. */
export const SCHEMA_VERSION = 3;

/**
 * FTS5 gathers a transaction's tokens in memory and writes them out as a new segment whenever that buffer
 * passes 'hashsize' (1 MB by default), so a batch of 10 MB of text became ten small segments to merge again.
 * 16 MB makes one segment per batch: inserting 109 MB of transcript text took 2.0 s -> 1.56 s (-22%).
 */
const FTS_TUNING = `
INSERT INTO docs(docs, rank) VALUES ('hashsize', 16777216);
INSERT INTO idents(idents, rank) VALUES ('hashsize', 16777216);
`;

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
CREATE VIRTUAL TABLE docs USING fts5(title, body, meta, tokenize = 'unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE idents USING fts5(text, tokenize = 'trigram');
${FTS_TUNING}`;

/** Each entry upgrades from version N to N+1 in place; a missing step means the index is rebuilt instead. */
export const MIGRATIONS: Record<number, (db: DatabaseSync) => void> = {
  // 1 → 2: the read results move to their own table, and what a start needs to list a file (parent, readable,
  // companions) gets columns: a start reads small rows and parses no summaries.
  1: (db) => {
    db.exec('CREATE TABLE results (id INTEGER PRIMARY KEY, result TEXT NOT NULL)');
    db.exec('INSERT INTO results (id, result) SELECT id, result FROM files');
    db.exec('ALTER TABLE files ADD COLUMN parent_key TEXT');
    db.exec('ALTER TABLE files ADD COLUMN readable INTEGER NOT NULL DEFAULT 1');
    db.exec('ALTER TABLE files ADD COLUMN companions TEXT');
    db.exec(`UPDATE files SET
      parent_key = json_extract(result, '$.summary.parentKey'),
      readable = coalesce(json_extract(result, '$.ok'), 0),
      companions = CASE WHEN json_array_length(result, '$.companions') > 0 THEN json_extract(result, '$.companions') END`);
    db.exec('ALTER TABLE files DROP COLUMN result');
  },
  // 2 → 3: larger FTS5 write buffers (FTS_TUNING); the index's contents are unchanged.
  2: (db) => db.exec(FTS_TUNING),
};

export function createSchema(db: DatabaseSync): void {
  db.exec(CREATE);
  db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
}

/** Drops everything the index holds (it is a cache of the session files, so nothing is lost). */
export function dropAll(db: DatabaseSync): void {
  const rows = db.prepare("SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'").all() as Array<{ type: string; name: string; sql: string | null }>;
  const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
  // Virtual tables first: their shadow tables go with them.
  const virtualFirst = [...rows].sort((a, b) => Number(/^CREATE VIRTUAL/i.test(b.sql ?? '')) - Number(/^CREATE VIRTUAL/i.test(a.sql ?? '')));
  for (const { type, name } of virtualFirst) db.exec(`DROP ${type === 'view' ? 'VIEW' : 'TABLE'} IF EXISTS ${quoted(name)}`);
}

/** Brings the file to SCHEMA_VERSION; returns a note when it had to rebuild, null when nothing was lost. */
export function migrate(db: DatabaseSync): string | null {
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
      while (v < SCHEMA_VERSION && MIGRATIONS[v]) {
        MIGRATIONS[v]?.(db);
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
