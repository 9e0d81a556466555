// The writer on the calling thread: its batches land whole, written unsynced as the writer thread's are, and the connection keeps its own setting.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import type { WriteOp } from './index-write.ts';
import { InlineWriter } from './inline-writer.ts';
import { openIndexDatabase } from './open-database.ts';
import { makeSession, readResult, textMessage } from './test-sessions.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function indexFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sv-inline-'));
  dirs.push(dir);
  return join(dir, 'index.sqlite');
}

/** As a command that only lists puts a file: its summary, no text. */
function listed(id: string): WriteOp {
  const { result } = readResult(makeSession(id, { title: `Session ${id}`, messages: [textMessage('user', `words of ${id}`)] }));
  return { kind: 'put', path: `/roots/${id}.json`, size: 100, mtimeMs: 1, key: `vizier:${id}`, result, text: null, textLater: true };
}

const synchronous = (db: DatabaseSync) => (db.prepare('PRAGMA synchronous').get() as { synchronous: number }).synchronous;

describe('InlineWriter', () => {
  it('writes a batch that another connection then reads whole, and leaves the connection at its own sync setting', () => {
    const file = indexFile();
    const { db } = openIndexDatabase(file);
    const writer = new InlineWriter(db);
    // 1 is NORMAL, what openIndexDatabase sets.
    expect(synchronous(db)).toBe(1);
    // Enough batches for SQLite to checkpoint the WAL into the file on the way (every 1,000 pages).
    for (let batch = 0; batch < 40; batch++) writer.write(Array.from({ length: 50 }, (_, i) => listed(`b${batch}-s${i}`)));
    expect(writer.problem).toBeNull();
    expect(synchronous(db)).toBe(1);
    const reader = new DatabaseSync(file, { readOnly: true });
    try {
      expect(reader.prepare('SELECT count(*) AS n FROM files').get()).toEqual({ n: 2000 });
      expect(reader.prepare('SELECT path FROM files WHERE key = ?').get('vizier:b39-s49')).toEqual({ path: '/roots/b39-s49.json' });
    } finally {
      reader.close();
    }
    db.close();
  });

  it('puts back a setting other than the default, after a batch that fails too', () => {
    const { db } = openIndexDatabase(indexFile());
    const writer = new InlineWriter(db);
    db.exec('PRAGMA synchronous = FULL');
    writer.write([listed('a')]);
    expect(synchronous(db)).toBe(2);
    // A batch the index cannot take (its tables are gone): the failure is reported, the setting still restored.
    db.exec('DROP TABLE results');
    writer.write([listed('b')]);
    expect(writer.problem).toMatch(/could not be added/);
    expect(synchronous(db)).toBe(2);
    db.close();
  });
});
