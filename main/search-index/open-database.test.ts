// Opening the index file: the page size a new file is built with, and an older file opened as it is.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { INDEX_PAGE_BYTES } from '../env/tuning.ts';
import { openIndexDatabase } from './open-database.ts';
import { createSchema } from './schema.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-open-db-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const pageSizeOf = (db: DatabaseSync) => (db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size;

describe('openIndexDatabase', () => {
  it('builds a new index file with large pages, in WAL mode', () => {
    const { db, note } = openIndexDatabase(join(dir, 'index.sqlite'));
    expect(note).toBeNull();
    expect(INDEX_PAGE_BYTES).toBe(16384);
    expect(pageSizeOf(db)).toBe(INDEX_PAGE_BYTES);
    expect((db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode).toBe('wal');
    db.close();
  });

  it('opens an index built with 4 KB pages as it is, rows and all', () => {
    const file = join(dir, 'index.sqlite');
    const legacy = new DatabaseSync(file);
    legacy.exec('PRAGMA page_size = 4096');
    legacy.exec('PRAGMA journal_mode = WAL');
    createSchema(legacy);
    legacy.exec("INSERT INTO files (path, size, mtime_ms, time_ms) VALUES ('/a.jsonl', 1, 1, 1)");
    legacy.close();
    const { db, note } = openIndexDatabase(file);
    expect(note).toBeNull();
    expect(pageSizeOf(db)).toBe(4096);
    expect((db.prepare('SELECT path FROM files').all() as Array<{ path: string }>).map((r) => r.path)).toEqual(['/a.jsonl']);
    db.close();
  });
});
