// The index's write batches: one transaction, full-text rows after the plain ones, and every change kept in order.
import { describe, expect, it } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import { createSchema } from './schema.ts';
import { IndexWrites, releaseText, type WriteOp } from './index-write.ts';
import { extractPackedIndexText } from './index-text.ts';
import { makeSession, readResult, textMessage } from './test-sessions.ts';

function openWrites(): { db: DatabaseSync; writes: IndexWrites } {
  const db = new DatabaseSync(':memory:');
  createSchema(db);
  return { db, writes: new IndexWrites(db) };
}

function put(id: string, words: string, title = `Session ${id}`): WriteOp {
  const { result, text } = readResult(makeSession(id, { title, messages: [textMessage('user', words)] }));
  return { kind: 'put', path: `/roots/${id}.json`, size: 100, mtimeMs: 1, key: `vizier:${id}`, result, text };
}

const matches = (db: DatabaseSync, query: string, table: 'docs' | 'heads' | 'idents' = 'docs') =>
  (
    db.prepare(`SELECT f.path FROM ${table} JOIN files f ON f.id = ${table}.rowid WHERE ${table} MATCH ? ORDER BY f.path`).all(query) as Array<{ path: string }>
  ).map((r) => r.path);
/** Rows of FTS5's segment store: every segment written adds at least one. */
const segmentRows = (db: DatabaseSync) => (db.prepare('SELECT count(*) AS n FROM docs_data').get() as { n: number }).n;

describe('IndexWrites', () => {
  it('writes a batch of sessions as one full-text segment, not one per session', () => {
    const { db, writes } = openWrites();
    const empty = segmentRows(db);
    writes.apply(Array.from({ length: 60 }, (_, i) => put(`s${i}`, `alpha${i} shared words`)));
    // FTS5 writes out what it gathered whenever another statement of the transaction opens a savepoint (the files
    // upsert does): interleaved, this batch made dozens of segments.
    expect(segmentRows(db) - empty).toBeLessThanOrEqual(2);
    expect(matches(db, 'shared')).toHaveLength(60);
    expect(matches(db, 'alpha17')).toEqual(['/roots/s17.json']);
  });

  it('applies a batch changing, removing and re-adding the same rows in the order given, in every full-text table', () => {
    const { db, writes } = openWrites();
    writes.apply([put('a', 'first version callFirstHelper', 'Title one'), put('b', 'bravo words callBravoHelper', 'Bravo title')]);
    writes.apply([
      put('a', 'second version callSecondHelper', 'Title two'),
      { kind: 'remove', path: '/roots/b.json' },
      // Takes the removed row's id: its words must not be deleted by the remove queued before it.
      put('c', 'charlie words callCharlieHelper', 'Charlie title'),
      put('a', 'third version callThirdHelper', 'Title three'),
    ]);
    expect(matches(db, 'first')).toEqual([]);
    expect(matches(db, 'second')).toEqual([]);
    expect(matches(db, 'third')).toEqual(['/roots/a.json']);
    expect(matches(db, 'bravo')).toEqual([]);
    expect(matches(db, 'charlie')).toEqual(['/roots/c.json']);
    expect(matches(db, 'words')).toEqual(['/roots/c.json']);
    // The titles and metadata, and the identifiers' trigrams, were changed in the same order.
    expect(matches(db, 'title', 'heads')).toEqual(['/roots/a.json', '/roots/c.json']);
    expect(matches(db, 'three', 'heads')).toEqual(['/roots/a.json']);
    expect(matches(db, 'one OR two OR bravo', 'heads')).toEqual([]);
    expect(matches(db, 'Helper', 'idents')).toEqual(['/roots/a.json', '/roots/c.json']);
    expect(matches(db, 'ThirdHelp', 'idents')).toEqual(['/roots/a.json']);
    expect(matches(db, 'FirstHelp OR SecondHelp OR BravoHelp', 'idents')).toEqual([]);
  });

  it('keeps a file written again under its id, with every column of its list row new, listed or with its text', () => {
    const { db, writes } = openWrites();
    const row = (path: string) => db.prepare('SELECT id, size, mtime_ms AS mtime, key, readable FROM files WHERE path = ?').get(path);
    writes.apply([put('a', 'first words'), put('b', 'bravo words')], { deferText: true });
    const first = row('/roots/a.json') as { id: number };
    const second: WriteOp = { ...(put('a', 'second words') as Extract<WriteOp, { kind: 'put' }>), size: 250, mtimeMs: 9, key: 'vizier:a2' };
    writes.apply([second], { deferText: true });
    expect(row('/roots/a.json')).toEqual({ id: first.id, size: 250, mtime: 9, key: 'vizier:a2', readable: 1 });
    const unreadable: WriteOp = {
      kind: 'put',
      path: '/roots/a.json',
      size: 7,
      mtimeMs: 10,
      key: 'vizier:a3',
      result: { id: 0, ok: false, format: 'vizier', unreadable: { code: 'wrong_shape', message: 'no' } },
      text: null,
    };
    writes.apply([unreadable]);
    expect(row('/roots/a.json')).toEqual({ id: first.id, size: 7, mtime: 10, key: 'vizier:a3', readable: 0 });
    // A new path after them takes a new id, and the stored result is the latest.
    writes.apply([put('c', 'charlie words')]);
    expect((row('/roots/c.json') as { id: number }).id).toBeGreaterThan((row('/roots/b.json') as { id: number }).id);
    expect(db.prepare('SELECT count(*) AS n FROM files').get()).toEqual({ n: 3 });
    const stored = db.prepare('SELECT result FROM results WHERE id = ?').get(first.id) as { result: string };
    expect(JSON.parse(stored.result)).toMatchObject({ ok: false, format: 'vizier' });
  });
});

describe('IndexWrites.catchUp', () => {
  it('takes waiting files until its budget is spent, however many small files that is, words first and then identifiers', () => {
    const { db, writes } = openWrites();
    // 300 small sessions listed (their text waits), as a scan of a store of short OpenCode sessions leaves them.
    writes.apply(
      Array.from({ length: 300 }, (_, i) => put(`s${i}`, `word${i} shared callHelper${i}`)),
      { deferText: true },
    );
    expect(writes.pendingCounts()).toEqual({ words: 300, idents: 300 });
    expect(matches(db, 'shared')).toEqual([]);
    // Every step is a transaction that writes a segment into each full-text table: one step takes all their words,
    // the next all their identifiers (a page of ids per step made five steps of words and two of identifiers).
    expect(writes.catchUp({ words: 16 << 20, idents: 1 << 20 })).toEqual({ words: 0, idents: 300 });
    expect(matches(db, 'shared')).toHaveLength(300);
    expect(matches(db, 'word299')).toEqual(['/roots/s299.json']);
    expect(writes.catchUp({ words: 16 << 20, idents: 1 << 20 })).toEqual({ words: 0, idents: 0 });
    expect(matches(db, 'callHelper123', 'idents')).toEqual(['/roots/s123.json']);
  });

  it('indexes a caught-up file exactly as one written at once: its stored pieces joined, a word cut between two of them whole, then the words no column stores, and its identifiers', () => {
    // A body of 40 KB (two stored pieces of at most 32 KB) whose cut falls inside a word and next to an accented
    // letter, and a tool output past its cap (what the cap cuts is indexed, never stored).
    const filler = 'alpha beta '.repeat(2978);
    const body = `${filler}crossingword é ${'gamma delta '.repeat(700)}`;
    const longOutput = `${'epsilon '.repeat(1100)}beyondthecap`;
    const session = makeSession('big', {
      messages: [textMessage('user', body), textMessage('assistant', 'done', [{ type: 'tool_result', callId: 'c1', output: longOutput, isError: false }])],
    });
    const { result } = readResult(session);
    const op = (): WriteOp => ({ kind: 'put', path: '/roots/big.json', size: 1, mtimeMs: 1, key: 'vizier:big', result, text: extractPackedIndexText(session) });
    const atOnce = openWrites();
    atOnce.writes.apply([op(), put('small', 'small words here')]);
    const later = openWrites();
    later.writes.apply([op(), put('small', 'small words here')], { deferText: true });
    expect(later.writes.catchUp({ words: 16 << 20, idents: 1 << 20 })).toEqual({ words: 0, idents: 2 });
    expect(later.writes.catchUp({ words: 16 << 20, idents: 1 << 20 })).toEqual({ words: 0, idents: 0 });
    expect(matches(later.db, 'crossingword')).toEqual(['/roots/big.json']);
    expect(matches(later.db, 'beyondthecap')).toEqual(['/roots/big.json']);
    expect(matches(later.db, '"crossingword e gamma"')).toEqual(['/roots/big.json']);
    // Every token of every table at the same position in both (fts5vocab reads the index itself).
    const instances = (db: DatabaseSync, table: 'docs' | 'heads' | 'idents') => {
      db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${table}_v USING fts5vocab(${table}, 'instance')`);
      return db.prepare(`SELECT term, doc, col, offset FROM ${table}_v ORDER BY doc, col, offset`).all();
    };
    const docs = instances(atOnce.db, 'docs');
    expect(docs.length).toBeGreaterThan(8000);
    expect(instances(later.db, 'docs')).toEqual(docs);
    expect(instances(later.db, 'heads')).toEqual(instances(atOnce.db, 'heads'));
    expect(instances(later.db, 'idents')).toEqual(instances(atOnce.db, 'idents'));
  });

  it('still ends a step once its budget is spent', () => {
    const { writes } = openWrites();
    writes.apply(
      Array.from({ length: 40 }, (_, i) => put(`s${i}`, `word${i} shared`)),
      { deferText: true },
    );
    // A budget of one byte takes one file a step (at least one, so the catch-up always moves on).
    expect(writes.catchUp({ words: 1, idents: 1 })).toEqual({ words: 39, idents: 40 });
  });
});

describe('releaseText', () => {
  it('frees the packed text of written puts and leaves other ops alone', () => {
    const written = put('p', 'some words');
    const session = makeSession('q');
    const { result } = readResult(session);
    const packed = extractPackedIndexText(session);
    const op: WriteOp = { kind: 'put', path: '/roots/q.json', size: 1, mtimeMs: 1, key: 'vizier:q', result, text: packed };
    const { writes, db } = openWrites();
    writes.apply([written, op, { kind: 'remove', path: '/roots/none.json' }]);
    releaseText([written, op, { kind: 'remove', path: '/roots/none.json' }]);
    expect((packed.packed.buffer as ArrayBuffer).detached).toBe(true);
    // A put with plain-string text has nothing to free; the index keeps what was written.
    expect(matches(db, 'words')).toEqual(['/roots/p.json']);
  });
});
