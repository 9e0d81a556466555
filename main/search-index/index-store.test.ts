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
import { noUsageFacts } from './usage-facts.ts';
import { DROP_USAGE_V8 } from './usage-schema.ts';

/** What versions 7 and 8 added (the usage tables, the parent lookup): dropped to make an older index. */
const DROP_V7_V8 = `${DROP_USAGE_V8} DROP TABLE usage;`;
/** What version 9 added (the text waiting for the full-text tables): dropped to make an older index. */
const DROP_V9 = 'DROP TABLE fts_pending; DROP TABLE idents_pending;';
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
  const filler = 'lorem ipsum dolor '.repeat(20_000);
  /** Five sessions as a scan lists them (their text left for the catch-up), or, `listing` false, as a watched edit. */
  const addBulk = (index: SessionIndex, from: number, listing = true) => {
    if (listing) index.beginListing();
    for (let i = from; i < from + 5; i++) add(index, makeSession(`bulk${i}`, { messages: [textMessage('user', `${filler} needle${i}`)] }), 100 + i, 1);
    if (listing) index.endListing();
  };

  it('writes a batch on its own thread, searchable once written, outside a scan', () => {
    const index = openIndex();
    addBulk(index, 0, false);
    expect(keys(index, 'needle3')).toEqual(['vizier:bulk3']);
    expect(index.count).toBe(5);
    index.close();
    const again = openIndex();
    expect(keys(again, 'needle4')).toEqual(['vizier:bulk4']);
    expect(again.problem).toBeNull();
  });

  it('writes a scan’s batches on its own thread: listed at once, searchable once caught up, and kept after a restart', async () => {
    const index = openIndex();
    addBulk(index, 0);
    // The thread wrote the list's rows; the text waits until something asks for it (a scan's end, a search command).
    expect(keys(index, 'needle3')).toEqual([]);
    expect(index.count).toBe(5);
    expect(searchIndex(index, 'sort:date').total).toBe(5);
    await index.whenCaughtUp();
    expect(keys(index, 'needle3')).toEqual(['vizier:bulk3']);
    expect(index.textPending).toEqual({ words: 0, idents: 0 });
    // Once asked, a later scan's batches are caught up after them.
    addBulk(index, 5);
    await index.whenCaughtUp();
    expect(keys(index, 'needle8')).toEqual(['vizier:bulk8']);
    index.close();
    const again = openIndex();
    expect(keys(again, 'needle4')).toEqual(['vizier:bulk4']);
    expect(again.problem).toBeNull();
  });

  it('catches up, in the next run, the text a closed index left waiting (a one-shot command that only lists)', async () => {
    const index = openIndex();
    addBulk(index, 0);
    expect(index.count).toBe(5);
    index.close();
    const again = openIndex();
    expect(keys(again, 'needle4')).toEqual([]);
    const reports: Array<{ words: number; idents: number }> = [];
    again.onTextPending = (n) => reports.push(n);
    await again.whenSearchable();
    // Searchable by its words first; identifier substrings follow.
    expect(keys(again, 'needle4')).toEqual(['vizier:bulk4']);
    await again.whenCaughtUp();
    expect(keys(again, 'eedle4')).toEqual(['vizier:bulk4']);
    expect(reports.at(0)).toEqual({ words: 5, idents: 5 });
    expect(reports.some((r) => r.words === 0 && r.idents > 0)).toBe(true);
    expect(reports.at(-1)).toEqual({ words: 0, idents: 0 });
    expect(again.problem).toBeNull();
  });

  it('replaces and removes files whose text still waits, leaving no trace in the full-text tables', async () => {
    const index = openIndex();
    addBulk(index, 0);
    index.flush();
    // Re-read with other text, and one gone, before the catch-up.
    index.beginListing();
    add(index, makeSession('bulk1', { messages: [textMessage('user', `${filler} replaced`)] }), 999, 2);
    index.remove('/roots/bulk2.json');
    index.endListing();
    await index.whenCaughtUp();
    expect(keys(index, 'needle1')).toEqual([]);
    expect(keys(index, 'replaced')).toEqual(['vizier:bulk1']);
    expect(keys(index, 'needle2')).toEqual([]);
    expect(keys(index, 'lorem').sort()).toEqual(['vizier:bulk0', 'vizier:bulk1', 'vizier:bulk3', 'vizier:bulk4']);
    expect(index.statement('SELECT (SELECT count(*) FROM fts_pending) + (SELECT count(*) FROM idents_pending) AS n').get()).toEqual({ n: 0 });
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
    const usage = {
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
    const hour = {
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
