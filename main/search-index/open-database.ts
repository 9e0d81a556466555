// Opens the index file in WAL mode; an unreadable, corrupt or foreign file is deleted and rebuilt, never fatal.
import { INDEX_PAGE_BYTES } from '../env/tuning.ts';
import { DatabaseSync } from 'node:sqlite';
import { rmSync } from 'node:fs';
import { migrate } from './schema.ts';

export interface OpenedIndex {
  db: DatabaseSync;
  /** Set when the index was rebuilt or upgraded, for the startup problems list. */
  note: string | null;
}

function configure(db: DatabaseSync): void {
  // Before WAL mode, which freezes it. Large pages: env/tuning.ts says why.
  db.exec(`PRAGMA page_size = ${INDEX_PAGE_BYTES}`);
  db.exec('PRAGMA journal_mode = WAL');
  // A crash may lose the last moments of index writes, never corrupt it; the next scan re-reads what is missing.
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec('PRAGMA busy_timeout = 2000');
}

function attempt(file: string): OpenedIndex {
  const db = new DatabaseSync(file);
  try {
    configure(db);
    const note = migrate(db);
    // Touch every table so a damaged page shows up now, not in the middle of a search.
    db.prepare('SELECT count(*) FROM files').get();
    db.prepare('SELECT id FROM results LIMIT 1').get();
    db.prepare("SELECT rowid FROM docs WHERE docs MATCH 'x' LIMIT 1").all();
    db.prepare("SELECT rowid FROM idents WHERE idents MATCH 'xyz' LIMIT 1").all();
    db.prepare("SELECT rowid FROM heads WHERE heads MATCH 'x' LIMIT 1").all();
    // Every write batch counts its text here (index-tidy.ts): without it no write could land.
    db.prepare('SELECT value FROM index_state LIMIT 1').get();
    return { db, note };
  } catch (err) {
    try {
      db.close();
    } catch {
      // already unusable; it is deleted next
    }
    throw err;
  }
}

export function removeIndexFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(file + suffix, { force: true });
}

export function openIndexDatabase(file: string): OpenedIndex {
  if (file === ':memory:') return attempt(file);
  try {
    return attempt(file);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    removeIndexFiles(file);
    const { db } = attempt(file);
    return { db, note: `The search index at ${file} could not be read (${reason}); it was rebuilt and sessions are read again.` };
  }
}
