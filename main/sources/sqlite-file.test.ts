// A store is read while its agent writes it (WAL), or from a private copy, and a file that is no store says why.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { testTempDir } from '../test-support/temp-dir.ts';
import { closeHeldStores, hasTables, holdStoresOpen, readFromCopy, withReadOnlyStore } from './sqlite-file.ts';
import { UnreadableError } from './types.ts';

const count = (db: DatabaseSync) => (db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;
let writer: DatabaseSync | null = null;
afterEach(() => {
  writer?.close();
  writer = null;
  holdStoresOpen(0);
});

describe('withReadOnlyStore', () => {
  it('sees rows the agent has committed to its WAL but not yet checkpointed, and never blocks its next write', async () => {
    const dir = testTempDir('sv-sqlite-');
    const path = join(dir, 'agent.db');
    writer = new DatabaseSync(path);
    writer.exec('PRAGMA journal_mode=WAL; CREATE TABLE t(x); INSERT INTO t VALUES (1), (2);');
    expect(await withReadOnlyStore(path, count)).toBe(2);
    writer.exec('INSERT INTO t VALUES (3)');
    expect(await withReadOnlyStore(path, (db) => [count(db), hasTables(db, ['t']), hasTables(db, ['t', 'u'])])).toEqual([3, true, false]);
  });

  it('reads a private copy of the store with its WAL (for stores in folders it cannot write), leaving the original as it was', async () => {
    const path = join(testTempDir('sv-sqlite-'), 'agent.db');
    writer = new DatabaseSync(path);
    writer.exec('PRAGMA journal_mode=WAL; CREATE TABLE t(x); INSERT INTO t VALUES (1);');
    writer.exec('INSERT INTO t VALUES (2)'); // still only in the WAL
    const before = await readFile(path);
    expect(await readFromCopy(path, count, 'readonly')).toBe(2);
    expect((await readFile(path)).equals(before)).toBe(true);
  });

  it('reads an integer past 2^53 (a nanosecond time, a damaged cell) as the nearest number instead of failing the read', async () => {
    const path = join(testTempDir('sv-sqlite-'), 'agent.db');
    writer = new DatabaseSync(path);
    writer.exec("CREATE TABLE t(id TEXT, at INTEGER, n INTEGER); INSERT INTO t VALUES ('a', 1767225600123456789, 7), ('b', 5, 8);");
    const rows = (db: DatabaseSync) => [
      db.prepare('SELECT * FROM t ORDER BY id').all(),
      db.prepare('SELECT at FROM t WHERE id = ?').get('a'),
      [...db.prepare('SELECT n FROM t').iterate()],
    ];
    expect(await withReadOnlyStore(path, rows)).toEqual([
      [
        { id: 'a', at: 1767225600123456800, n: 7 },
        { id: 'b', at: 5, n: 8 },
      ],
      { at: 1767225600123456800 },
      [{ n: 7 }, { n: 8 }],
    ]);
  });

  it('says a file that is no SQLite store cannot be read, naming SQLite', async () => {
    const path = join(testTempDir('sv-sqlite-'), 'notes.db');
    await writeFile(path, 'plain text, not a database');
    const failure = await withReadOnlyStore(path, count).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(UnreadableError);
    expect((failure as UnreadableError).message).toMatch(/SQLite store/);
  });
});

describe('withReadOnlyStore with stores held open (a read worker)', () => {
  it('sees each new write through the kept connection, never blocks the writer, and opens a replaced store anew', async () => {
    holdStoresOpen(60_000);
    const dir = testTempDir('sv-sqlite-');
    const path = join(dir, 'agent.db');
    writer = new DatabaseSync(path);
    writer.exec('PRAGMA journal_mode=WAL; PRAGMA busy_timeout=0; CREATE TABLE t(x); INSERT INTO t VALUES (1);');
    expect(await withReadOnlyStore(path, count)).toBe(1);
    // Between reads the kept connection holds no lock: the writer's next write and a checkpoint go through at once.
    writer.exec('INSERT INTO t VALUES (2)');
    expect(writer.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get()).toMatchObject({ busy: 0 });
    expect(await withReadOnlyStore(path, count)).toBe(2);
    writer.close();
    writer = null;
    await rm(path);
    await rm(`${path}-wal`, { force: true });
    const fresh = new DatabaseSync(path);
    fresh.exec('CREATE TABLE t(x); INSERT INTO t VALUES (7), (8), (9);');
    fresh.close();
    expect(await withReadOnlyStore(path, count)).toBe(3);
    closeHeldStores();
  });
});
