// Schema 16: an index written before usage rows were cut at the machine's local hour is read again only where the machine's zone cuts hours.
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { readAgainForHourCuts } from './schema.ts';

function indexWithFiles(): DatabaseSync {
  const db = new DatabaseSync(':memory:');
  db.exec('CREATE TABLE files (id INTEGER PRIMARY KEY, path TEXT, mtime_ms INTEGER)');
  db.exec("INSERT INTO files (path, mtime_ms) VALUES ('/a.jsonl', 1000), ('/b.jsonl', 2000)");
  return db;
}

const mtimes = (db: DatabaseSync) => (db.prepare('SELECT mtime_ms AS m FROM files ORDER BY id').all() as Array<{ m: number }>).map((r) => r.m);

describe('schema 16: usage rows cut at the local hour', () => {
  it('marks every file changed in a zone that cuts hours (India), and none in a whole-hour zone', () => {
    const india = indexWithFiles();
    readAgainForHourCuts(india, true);
    expect(mtimes(india)).toEqual([-1, -1]);
    const whole = indexWithFiles();
    readAgainForHourCuts(whole, false);
    expect(mtimes(whole)).toEqual([1000, 2000]);
  });
});
