// The persistent index: survives restarts keyed by (path, size, mtime), searches text and filters, heals itself.
import { beforeEach, describe, expect, it } from 'vitest';
import type { SessionIndex } from './index-store.ts';
import { indexFilePerTest, putSession as add } from './index-file-per-test.ts';
import { searchIndex } from './index-search.ts';
import { storedText } from './stored-snippet.ts';
import { extractPackedIndexText } from './index-text.ts';
import { makeSession, readResult, textMessage } from './test-sessions.ts';

const at = indexFilePerTest('sv-index-');
const openIndex = () => at.open();

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
