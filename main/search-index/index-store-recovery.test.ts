// The persistent index heals itself: a damaged, newer or unmigratable file is rebuilt with a note, and each older schema is upgraded in place, keeping what it can.
import { describe, expect, it } from 'vitest';
import { rm, writeFile } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import type { SessionIndex } from './index-store.ts';
import { indexFilePerTest, putSession as add } from './index-file-per-test.ts';
import { searchIndex } from './index-search.ts';
import { migrate, SCHEMA_VERSION } from './schema.ts';
import { TEXT_TOTAL_SQL, textSinceTidy } from './index-tidy.ts';
import { makeSession, readResult, textMessage } from './test-sessions.ts';
import { noUsageFacts } from './usage-facts.ts';
import { DROP_USAGE_V8 } from './usage-schema.ts';

/** What versions 7 and 8 added (the usage tables, the parent lookup): dropped to make an older index. */
const DROP_V7_V8 = `${DROP_USAGE_V8} DROP TABLE usage;`;
/** What version 9 added (the text waiting for the full-text tables): dropped to make an older index. */
const DROP_V9 = 'DROP TABLE fts_pending; DROP TABLE idents_pending;';

/** One call's usage in one hour, as a read file's usage facts carry it. */
const ONE_CALL_HOUR = {
  hourMs: 0,
  model: 'm',
  input: 5,
  output: 7,
  cacheRead: 0,
  cacheWrite: 0,
  reasoning: 0,
  costUsd: 0.5,
  unpriced: 0,
  calls: 1,
  firstMs: 10,
  lastMs: 20,
};

const at = indexFilePerTest('sv-index-');
const openIndex = () => at.open();

const keys = (index: SessionIndex, query: string, sort?: 'relevance' | 'date') => searchIndex(index, query, { sort }).hits.map((h) => h.key);

describe('SessionIndex recovery', () => {
  it('rebuilds an index file full of garbage, with a note saying so', async () => {
    await writeFile(at.file, 'this is not a database '.repeat(500));
    const index = openIndex();
    expect(index.note).toMatch(/could not be read.*rebuilt/);
    add(index, makeSession('a'));
    expect(index.count).toBe(1);
  });

  it('rebuilds an index whose tidy counter is gone, so writes land again (each batch counts its text there)', () => {
    const first = openIndex();
    add(first, makeSession('a', { messages: [textMessage('user', 'before the damage')] }));
    first.close();
    const db = new DatabaseSync(at.file);
    db.exec('DROP TABLE index_state');
    db.close();
    const index = openIndex();
    expect(index.note).toMatch(/could not be read \(no such table: index_state\).*rebuilt/);
    add(index, makeSession('b', { messages: [textMessage('user', 'written after the rebuild')] }));
    expect(index.problem).toBeNull();
    expect(keys(index, 'rebuild')).toEqual(['vizier:b']);
  });

  it('rebuilds an index with a newer schema version', () => {
    const db = new DatabaseSync(at.file);
    db.exec(`CREATE TABLE files (x); CREATE VIRTUAL TABLE docs USING fts5(a); PRAGMA user_version = ${SCHEMA_VERSION + 5}`);
    db.close();
    const index = openIndex();
    expect(index.note).toContain(`schema version ${SCHEMA_VERSION + 5}`);
    add(index, makeSession('a', { messages: [textMessage('user', 'works again')] }));
    expect(keys(index, 'works')).toEqual(['vizier:a']);
  });

  it('rebuilds an older index that has no migration step', () => {
    const db = new DatabaseSync(at.file);
    db.exec('CREATE TABLE sessions (path TEXT); PRAGMA user_version = 0');
    db.close();
    const index = openIndex();
    expect(index.note).toContain('schema version 0');
    expect(index.count).toBe(0);
  });

  it('rebuilds a version 3 index (its text inside the FTS5 tables) and finds words again once files are re-read', () => {
    const db = new DatabaseSync(at.file);
    db.exec(`CREATE TABLE files (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL, mtime_ms REAL NOT NULL);
      CREATE VIRTUAL TABLE docs USING fts5(title, body, meta, tokenize = 'unicode61 remove_diacritics 2');
      CREATE VIRTUAL TABLE idents USING fts5(text, tokenize = 'trigram');
      INSERT INTO files (path, size, mtime_ms) VALUES ('/roots/old.json', 1, 1);
      PRAGMA user_version = 3`);
    db.close();
    const index = openIndex();
    expect(index.note).toContain('schema version 3');
    // Nothing of the old file is trusted: the next scan reads it again.
    expect(index.count).toBe(0);
    add(index, makeSession('a', { messages: [textMessage('user', 'an okapi in the text')] }));
    expect(keys(index, 'okapi')).toEqual(['vizier:a']);
    index.close();
  });

  it('upgrades in place when every step from the file version has a migration, keeping its entries', () => {
    const db = new DatabaseSync(at.file);
    db.exec(
      `CREATE TABLE files (id INTEGER PRIMARY KEY, path TEXT); INSERT INTO files (path) VALUES ('/roots/kept.json'); PRAGMA user_version = ${SCHEMA_VERSION - 1}`,
    );
    const note = migrate(db, { [SCHEMA_VERSION - 1]: (d) => d.exec('ALTER TABLE files ADD COLUMN added TEXT') });
    expect(note).toBe(`The search index was upgraded from version ${SCHEMA_VERSION - 1} to ${SCHEMA_VERSION}.`);
    expect(db.prepare('SELECT path, added FROM files').all()).toEqual([{ path: '/roots/kept.json', added: null }]);
    expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(SCHEMA_VERSION);
    db.close();
  });

  it('upgrades a version 4 index in place: its titles are ranked through the new heads table without re-reading a file', () => {
    const index = openIndex();
    add(index, makeSession('titled', { title: 'Quokka census', messages: [textMessage('user', 'counting')] }));
    for (let i = 0; i < 3; i++) add(index, makeSession(`body${i}`, { title: `Other ${i}`, messages: [textMessage('user', 'a quokka in the body')] }));
    index.close();
    // What version 4 wrote: everything but the heads table.
    const db = new DatabaseSync(at.file);
    db.exec(`DROP TABLE heads; DROP TABLE index_state; ${DROP_V7_V8} ${DROP_V9} PRAGMA user_version = 4`);
    db.close();
    const upgraded = openIndex();
    expect(upgraded.note).toBe(`The search index was upgraded from version 4 to ${SCHEMA_VERSION}.`);
    expect(upgraded.count).toBe(4);
    expect(ftsSettings('automerge')).toEqual({ docs: 8, idents: 8, heads: 8 });
    // Past the full-ranking limit only titles and metadata are ranked: that reads the heads table.
    const page = searchIndex(upgraded, 'quokka', { fullRankLimit: 1 });
    expect(page.total).toBe(4);
    expect(page.hits[0]?.key).toBe('vizier:titled');
    expect(page.hits[0]?.score).not.toBeNull();
    expect(page.hits.slice(1).map((h) => h.score)).toEqual([null, null, null]);
  });

  it('upgrades a version 5 index in place: all its text counts as not yet merged, so the next tidy merges it', async () => {
    const index = openIndex();
    for (let i = 0; i < 3; i++) {
      add(index, makeSession(`s${i}`, { messages: [textMessage('user', `numbat number ${i}`)] }));
      index.flush();
    }
    index.close();
    // What version 5 wrote: everything but the tidy counter (and the usage table of version 7).
    const db = new DatabaseSync(at.file);
    db.exec(`DROP TABLE index_state; ${DROP_V7_V8} ${DROP_V9} PRAGMA user_version = 5`);
    db.close();
    const upgraded = at.open({ minBytes: 1 });
    expect(upgraded.note).toBe(`The search index was upgraded from version 5 to ${SCHEMA_VERSION}.`);
    const check = new DatabaseSync(at.file, { readOnly: true });
    const counted = textSinceTidy(check);
    const all = (check.prepare(TEXT_TOTAL_SQL).get() as { n: number }).n;
    check.close();
    expect(counted).toBe(all);
    expect(counted).toBeGreaterThan(0);
    upgraded.tidy();
    await upgraded.whenTidied();
    expect(searchIndex(upgraded, 'numbat').total).toBe(3);
    const after = new DatabaseSync(at.file, { readOnly: true });
    expect(textSinceTidy(after)).toBe(0);
    expect((after.prepare('SELECT count(DISTINCT segid) AS n FROM docs_idx').get() as { n: number }).n).toBe(1);
    after.close();
  });

  it('upgrades a version 6 index in place: its sessions stay searchable, and each file is read again once for its usage', () => {
    const index = openIndex();
    add(index, makeSession('wombat', { messages: [textMessage('user', 'wombat burrow')] }), 120, 1000);
    index.close();
    // What version 6 wrote: everything but the usage tables (and version 8's parent lookup).
    const db = new DatabaseSync(at.file);
    db.exec(`${DROP_V7_V8} ${DROP_V9} PRAGMA user_version = 6`);
    db.close();
    const upgraded = openIndex();
    expect(upgraded.note).toBe(`The search index was upgraded from version 6 to ${SCHEMA_VERSION}.`);
    expect(searchIndex(upgraded, 'wombat').hits.map((h) => h.key)).toEqual(['vizier:wombat']);
    // The stored mtime no longer matches the file's, so the next scan reads it and writes its usage rows.
    expect([...upgraded.entries()].map((e) => [e.path, e.size, e.mtimeMs])).toEqual([['/roots/wombat.json', 120, -1]]);
    const usage = ONE_CALL_HOUR;
    const { result, text } = readResult(makeSession('wombat'));
    upgraded.put('/roots/wombat.json', 120, 1000, 'vizier:wombat', result, text, { ...noUsageFacts(), hours: [usage] });
    upgraded.flush();
    expect(upgraded.statement('SELECT sum(input + output) AS n FROM usage').get()).toEqual({ n: 12 });
  });

  it('upgrades a version 8 index in place: text can wait for the full-text tables, and each file is read again for every word', async () => {
    const index = openIndex();
    add(index, makeSession('quoll', { messages: [textMessage('user', 'quoll den')] }), 120, 1000);
    index.close();
    const db = new DatabaseSync(at.file);
    db.exec(`${DROP_V9} PRAGMA user_version = 8`);
    db.close();
    const upgraded = openIndex();
    expect(upgraded.note).toBe(`The search index was upgraded from version 8 to ${SCHEMA_VERSION}.`);
    // Still found by what it held; read again by the next scan, now with the words the caps used to leave out.
    expect(searchIndex(upgraded, 'quoll').hits.map((h) => h.key)).toEqual(['vizier:quoll']);
    expect([...upgraded.entries()].map((e) => e.mtimeMs)).toEqual([-1]);
    upgraded.beginListing();
    add(upgraded, makeSession('quoll', { messages: [textMessage('user', 'quoll den'), textMessage('assistant', 'a bettong too')] }), 130, 2000);
    upgraded.endListing();
    await upgraded.whenCaughtUp();
    expect(searchIndex(upgraded, 'bettong').hits.map((h) => h.key)).toEqual(['vizier:quoll']);
  });

  it('upgrades a version 7 index in place: the usage tables gain call times, tools, turns and limits, and each file is read again', () => {
    const index = openIndex();
    add(index, makeSession('numbat', { messages: [textMessage('user', 'numbat termites')] }), 120, 1000);
    index.close();
    const db = new DatabaseSync(at.file);
    db.exec(`${DROP_USAGE_V8} ${DROP_V9} PRAGMA user_version = 7`);
    db.close();
    const upgraded = openIndex();
    expect(upgraded.note).toBe(`The search index was upgraded from version 7 to ${SCHEMA_VERSION}.`);
    expect(searchIndex(upgraded, 'numbat').hits.map((h) => h.key)).toEqual(['vizier:numbat']);
    expect([...upgraded.entries()].map((e) => e.mtimeMs)).toEqual([-1]);
    const { result, text } = readResult(makeSession('numbat'));
    const hour = ONE_CALL_HOUR;
    const limit = { atMs: 30, limitId: null, plan: 'pro', window: 'primary', windowMinutes: 300, usedPercent: 12, resetsAtMs: 40 };
    upgraded.put('/roots/numbat.json', 120, 1000, 'vizier:numbat', result, text, {
      hours: [hour],
      tools: [{ name: 'Bash', calls: 3, failures: 1 }],
      turns: 2,
      limits: [limit],
    });
    upgraded.flush();
    expect(upgraded.statement('SELECT first_ms AS f, last_ms AS l FROM usage').get()).toEqual({ f: 10, l: 20 });
    expect(upgraded.statement('SELECT name, calls, failures FROM usage_tools').get()).toEqual({ name: 'Bash', calls: 3, failures: 1 });
    expect(upgraded.statement('SELECT turns FROM usage_sessions').get()).toEqual({ turns: 2 });
    expect(upgraded.statement('SELECT sum(input + output) AS n FROM usage_hours').get()).toEqual({ n: 12 });
    expect(upgraded.statement('SELECT window_name AS w, used_percent AS p FROM usage_limits').get()).toEqual({ w: 'primary', p: 12 });
  });

  it('a failed migration step leaves the file as it was', () => {
    const db = new DatabaseSync(at.file);
    db.exec(`CREATE TABLE files (id INTEGER PRIMARY KEY, path TEXT); PRAGMA user_version = ${SCHEMA_VERSION - 1}`);
    const failing = (d: DatabaseSync) => {
      d.exec('ALTER TABLE files ADD COLUMN added TEXT');
      throw new Error('disk full');
    };
    expect(() => migrate(db, { [SCHEMA_VERSION - 1]: failing })).toThrow('disk full');
    expect(db.prepare("SELECT count(*) AS n FROM pragma_table_info('files') WHERE name = 'added'").get()).toEqual({ n: 0 });
    expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(SCHEMA_VERSION - 1);
    db.close();
  });

  it('a new index writes its FTS5 tables with 16 MB write buffers (one segment per batch, not one per megabyte), merged 8 at a time', () => {
    openIndex().close();
    expect(ftsSettings('hashsize')).toEqual({ docs: 16777216, idents: 16777216, heads: null });
    expect(ftsSettings('automerge')).toEqual({ docs: 8, idents: 8, heads: 8 });
  });

  it('starts fresh after the file was deleted', async () => {
    const first = openIndex();
    add(first, makeSession('a'));
    first.close();
    await rm(at.file);
    const index = openIndex();
    expect(index.count).toBe(0);
    expect(index.note).toBeNull();
  });
});

/** A setting each FTS5 table of the index file was configured with (null: FTS5's default). */
function ftsSettings(key: 'hashsize' | 'automerge'): Record<'docs' | 'idents' | 'heads', number | null> {
  const db = new DatabaseSync(at.file);
  const of = (table: string) => (db.prepare(`SELECT v FROM ${table}_config WHERE k = ?`).get(key) as { v: number } | undefined)?.v ?? null;
  const settings = { docs: of('docs'), idents: of('idents'), heads: of('heads') };
  db.close();
  return settings;
}
