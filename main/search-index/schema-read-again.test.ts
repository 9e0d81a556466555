// Schemas 16 to 18: an index written before a change to what a reader makes of its files reads again the files the change concerns (16: where the machine's zone cuts hours; 17: the formats with llm operations; 18: Cline-style task folders).
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, readAgainForHourCuts, readAgainLlmOperationFormats } from './schema.ts';

function indexWithFiles(): DatabaseSync {
  const db = new DatabaseSync(':memory:');
  db.exec('CREATE TABLE files (id INTEGER PRIMARY KEY, path TEXT, mtime_ms INTEGER, format TEXT)');
  db.exec(
    "INSERT INTO files (path, mtime_ms, format) VALUES ('/a.jsonl', 1000, 'claude-code'), ('/b.jsonl', 2000, 'cline'), ('/c.json', 3000, 'kilo'), ('/d.jsonl', 4000, 'goose')",
  );
  return db;
}

const mtimes = (db: DatabaseSync) => (db.prepare('SELECT mtime_ms AS m FROM files ORDER BY id').all() as Array<{ m: number }>).map((r) => r.m);

describe('schema 16: usage rows cut at the local hour', () => {
  it('marks every file changed in a zone that cuts hours (India), and none in a whole-hour zone', () => {
    const india = indexWithFiles();
    readAgainForHourCuts(india, true);
    expect(mtimes(india)).toEqual([-1, -1, -1, -1]);
    const whole = indexWithFiles();
    readAgainForHourCuts(whole, false);
    expect(mtimes(whole)).toEqual([1000, 2000, 3000, 4000]);
  });
});

describe('schema 17: llm operations counted under their own model', () => {
  it('marks the files of the formats whose usage comes from llm operations changed, and no others', () => {
    const db = indexWithFiles();
    readAgainLlmOperationFormats(db);
    expect(mtimes(db)).toEqual([1000, -1, 3000, -1]);
  });
});

describe('schema 18: attempt_completion shown as the answer', () => {
  it('marks the Cline-style task formats changed (Cline, Roo Code, Kilo), and no others', () => {
    const db = indexWithFiles();
    MIGRATIONS[17]!(db);
    expect(mtimes(db)).toEqual([1000, -1, -1, 4000]);
  });
});
