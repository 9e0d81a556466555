// The persistent index: survives restarts keyed by (path, size, mtime), searches text and filters, heals itself.
import { beforeEach, describe, expect, it } from 'vitest';
import { rm, writeFile } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import type { SessionIndex } from './index-store.ts';
import { indexFilePerTest } from './index-file-per-test.ts';
import { searchIndex } from './index-search.ts';
import { storedText } from './stored-snippet.ts';
import { migrate, SCHEMA_VERSION } from './schema.ts';
import { TEXT_TOTAL_SQL, textSinceTidy } from './index-tidy.ts';
import { extractPackedIndexText } from './index-text.ts';
import { makeSession, readResult, textMessage } from './test-sessions.ts';
import type { Session } from '../../shared/session.ts';

const at = indexFilePerTest('sv-index-');
const openIndex = () => at.open();

function add(index: SessionIndex, session: Session, size = 100, mtimeMs = 1) {
  const path = `/roots/${session.id}.json`;
  const { result, text } = readResult(session);
  index.put(path, size, mtimeMs, session.key, result, text);
  return path;
}

const keys = (index: SessionIndex, query: string, sort?: 'relevance' | 'date') => searchIndex(index, query, { sort }).hits.map((h) => h.key);

describe('SessionIndex persistence', () => {
  it('gives back every entry after a restart with its size and mtime, so unchanged files are not read again', () => {
    const first = openIndex();
    add(first, makeSession('a'), 120, 1000);
    add(first, makeSession('b'), 340, 2000);
    first.close();
    const second = openIndex();
    expect(second.note).toBeNull();
    const entries = [...second.entries()].map((e) => ({ path: e.path, size: e.size, mtimeMs: e.mtimeMs, title: e.result.ok && e.result.summary.title }));
    expect(entries).toEqual([
      { path: '/roots/a.json', size: 120, mtimeMs: 1000, title: 'Session a' },
      { path: '/roots/b.json', size: 340, mtimeMs: 2000, title: 'Session b' },
    ]);
  });

  it('replaces a changed file and forgets a removed one', () => {
    const index = openIndex();
    add(index, makeSession('a', { messages: [textMessage('user', 'old words here')] }));
    add(index, makeSession('a', { messages: [textMessage('user', 'fresh content now')] }), 200, 2);
    add(index, makeSession('b', { messages: [textMessage('user', 'fresh start')] }));
    expect(keys(index, 'old')).toEqual([]);
    expect(keys(index, 'fresh').sort()).toEqual(['vizier:a', 'vizier:b']);
    index.remove('/roots/b.json');
    expect(keys(index, 'fresh')).toEqual(['vizier:a']);
    expect(index.count).toBe(1);
  });

  it('keeps unreadable files listed with their reason', () => {
    const index = openIndex();
    index.put('/roots/bad.json', 5, 1, 'vizier:bad', { id: 0, ok: false, format: 'vizier', unreadable: { code: 'invalid_json', message: 'HTML page' } }, null);
    index.close();
    const [entry] = [...openIndex().entries()];
    expect(entry?.result).toMatchObject({ ok: false, unreadable: { code: 'invalid_json' } });
  });
});

describe('SessionIndex writer thread', () => {
  it('writes a scan-sized batch on its own thread, searchable at once and kept after a restart', () => {
    const index = openIndex();
    const filler = 'lorem ipsum dolor '.repeat(20_000);
    for (let i = 0; i < 5; i++) add(index, makeSession(`bulk${i}`, { messages: [textMessage('user', `${filler} needle${i}`)] }), 100 + i, 1);
    expect(keys(index, 'needle3')).toEqual(['vizier:bulk3']);
    expect(index.count).toBe(5);
    index.close();
    const again = openIndex();
    expect(keys(again, 'needle4')).toEqual(['vizier:bulk4']);
    expect(again.problem).toBeNull();
  });
});

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
    db.exec('DROP TABLE heads; DROP TABLE index_state; DROP TABLE usage; PRAGMA user_version = 4');
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
    db.exec('DROP TABLE index_state; DROP TABLE usage; PRAGMA user_version = 5');
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
    // What version 6 wrote: everything but the usage table.
    const db = new DatabaseSync(at.file);
    db.exec('DROP TABLE usage; PRAGMA user_version = 6');
    db.close();
    const upgraded = openIndex();
    expect(upgraded.note).toBe(`The search index was upgraded from version 6 to ${SCHEMA_VERSION}.`);
    expect(searchIndex(upgraded, 'wombat').hits.map((h) => h.key)).toEqual(['vizier:wombat']);
    // The stored mtime no longer matches the file's, so the next scan reads it and writes its usage rows.
    expect([...upgraded.entries()].map((e) => [e.path, e.size, e.mtimeMs])).toEqual([['/roots/wombat.json', 120, -1]]);
    const usage = { hourMs: 0, model: 'm', input: 5, output: 7, cacheRead: 0, cacheWrite: 0, reasoning: 0, costUsd: 0.5, unpriced: 0, calls: 1 };
    const { result, text } = readResult(makeSession('wombat'));
    upgraded.put('/roots/wombat.json', 120, 1000, 'vizier:wombat', result, text, [usage]);
    upgraded.flush();
    expect(upgraded.statement('SELECT sum(input + output) AS n FROM usage').get()).toEqual({ n: 12 });
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

describe('SessionIndex search', () => {
  let index: SessionIndex;
  beforeEach(() => {
    index = openIndex();
    add(index, makeSession('title-hit', { title: 'Merge conflict in parser', updatedAt: '2026-01-01T00:00:00Z', messages: [textMessage('user', 'hello')] }));
    add(
      index,
      makeSession('body-hit', {
        title: 'Unrelated work',
        updatedAt: '2026-03-01T00:00:00Z',
        messages: [
          textMessage('user', 'start'),
          textMessage('assistant', 'the merge step calls parseVizierDocument', [
            { type: 'tool_call', callId: 'toolu_01XyZabc', name: 'Edit', input: { file_path: '/src/merge/tie-break.ts' } },
          ]),
        ],
        project: { path: '/home/dev/orbit', name: 'orbit', branch: 'fix/tiebreak', headCommit: null },
        outcome: { status: 'accepted', summary: 'Tie-break fixed', commitSha: null },
        usage: { input: 5000, output: 1000, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
        cost: { usd: 3.2, estimated: false },
      }),
    );
    add(
      index,
      makeSession('other', {
        format: 'codex',
        key: 'codex:other',
        title: 'Docs',
        updatedAt: '2026-02-01T00:00:00Z',
        messages: [textMessage('user', 'write the readme')],
        model: { provider: 'openai', name: 'gpt-5-codex', parameters: {} },
        status: 'active',
        usage: { input: 10, output: 10, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
        cost: { usd: 0.01, estimated: true },
      }),
    );
  });

  it('ranks a title match above a body match, and by date when asked', () => {
    expect(keys(index, 'merge')).toEqual(['vizier:title-hit', 'vizier:body-hit']);
    expect(keys(index, 'merge', 'date')).toEqual(['vizier:body-hit', 'vizier:title-hit']);
    expect(keys(index, 'merge sort:date')).toEqual(['vizier:body-hit', 'vizier:title-hit']);
  });

  it('matches phrases exactly, prefixes, and excludes words', () => {
    expect(keys(index, '"merge step"')).toEqual(['vizier:body-hit']);
    expect(keys(index, '"step merge"')).toEqual([]);
    expect(keys(index, 'pars*')).toEqual(['vizier:title-hit', 'vizier:body-hit']);
    expect(keys(index, 'merge -hello')).toEqual(['vizier:body-hit']);
  });

  it('finds substrings inside identifiers, tool-use ids and paths', () => {
    expect(keys(index, 'VizierDoc')).toEqual(['vizier:body-hit']);
    expect(keys(index, 'toolu_01XyZ')).toEqual(['vizier:body-hit']);
    expect(keys(index, 'merge/tie-bre')).toEqual(['vizier:body-hit']);
  });

  it('returns a highlighted snippet and the matching message', () => {
    const [hit] = searchIndex(index, 'parseVizierDocument').hits;
    expect(hit?.messageIndex).toBe(1);
    expect(hit?.snippet).toContainEqual({ text: 'parseVizierDocument', hit: true });
  });

  it('text packed by the scan worker (UTF-8 bytes, stored as such) is found by words, phrases, prefixes and substrings, with a decoded snippet', () => {
    const session = makeSession('packed', {
      title: 'Résumé of the Übersicht',
      messages: [textMessage('user', 'first message'), textMessage('assistant', 'Le café naïve: loadLedgerSnapshot7 broke 日本語 tests')],
    });
    const { result } = readResult(session);
    index.put('/roots/packed.json', 100, 1, session.key, result, extractPackedIndexText(session));
    for (const q of ['cafe', '"café naïve"', 'resume', 'Über*', 'LedgerSnap', '日本語']) expect(keys(index, q), q).toContain('vizier:packed');
    const [hit] = searchIndex(index, 'LedgerSnap').hits;
    expect(hit?.messageIndex).toBe(1);
    expect(hit?.snippet.map((p) => p.text).join('')).toContain('Le café naïve: loadLedgerSnapshot7');
    expect(storedText(index, hit!.id)).toMatchObject({ title: 'Résumé of the Übersicht', body: expect.stringContaining('日本語') });
  });

  it('applies every indexed filter', () => {
    expect(keys(index, 'source:codex')).toEqual(['codex:other']);
    expect(keys(index, 'project:orbit')).toEqual(['vizier:body-hit']);
    expect(keys(index, 'branch:fix/*')).toEqual(['vizier:body-hit']);
    expect(keys(index, 'branch:main', 'date')).toEqual(['codex:other', 'vizier:title-hit']);
    expect(keys(index, 'status:active')).toEqual(['codex:other']);
    expect(keys(index, 'outcome:accepted')).toEqual(['vizier:body-hit']);
    expect(keys(index, 'model:gpt-5')).toEqual(['codex:other']);
    expect(keys(index, 'has:summary')).toEqual(['vizier:body-hit']);
    expect(keys(index, 'after:2026-02-01')).toEqual(['vizier:body-hit', 'codex:other']);
    expect(keys(index, 'before:2026-01-31')).toEqual(['vizier:title-hit']);
    expect(keys(index, 'after:2026-01-15 before:2026-02')).toEqual(['codex:other']);
    expect(keys(index, 'tokens>1000')).toEqual(['vizier:body-hit']);
    expect(keys(index, 'cost<1')).toEqual(['codex:other']);
    expect(keys(index, 'write source:vizier')).toEqual([]);
  });

  it('lets the caller drop hits it knows more about (stars, tags) and pages the rest', () => {
    const page = searchIndex(index, 'sort:date', { accept: (h) => h.key !== 'codex:other', limit: 1 });
    expect(page.total).toBe(2);
    expect(page.hits.map((h) => h.key)).toEqual(['vizier:body-hit']);
    expect(searchIndex(index, 'sort:date', { offset: 1, limit: 1 }).hits.map((h) => h.key)).toEqual(['codex:other']);
  });

  it('answers a query of only punctuation or a lone quote without an error', () => {
    // A lone quote is an empty query: everything, newest first.
    expect(keys(index, '"')).toEqual(['vizier:body-hit', 'codex:other', 'vizier:title-hit']);
    expect(searchIndex(index, '->').total).toBe(0);
    expect(searchIndex(index, 'a"b*').total).toBe(0);
  });
});
