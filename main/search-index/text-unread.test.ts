// Files listed without their text (a one-shot command that only lists): listed, never searchable half-done, marked for the next scan that reads text, and whole once it has.
import { describe, expect, it } from 'vitest';
import type { Session } from '../../shared/session.ts';
import type { SessionIndex } from './index-store.ts';
import { indexFilePerTest } from './index-file-per-test.ts';
import { searchIndex } from './index-search.ts';
import { makeSession, readResult, textMessage } from './test-sessions.ts';

const at = indexFilePerTest('sv-unread-');

const pathOf = (session: Session) => `/roots/${session.id}.json`;

/** As a scan that reads no text puts a file: its summary and usage, no text, `textLater`. */
function listOnly(index: SessionIndex, session: Session, mtimeMs = 1): void {
  const { result } = readResult(session);
  index.put(pathOf(session), 100, mtimeMs, session.key, result, null, undefined, true);
}

/** As a scan that reads text puts it. */
function withText(index: SessionIndex, session: Session, mtimeMs = 1): void {
  const { result, text } = readResult(session);
  index.put(pathOf(session), 100, mtimeMs, session.key, result, text);
}

const keys = (index: SessionIndex, query: string) =>
  searchIndex(index, query)
    .hits.map((h) => h.key)
    .sort();
const waiting = (index: SessionIndex) =>
  index.statement('SELECT (SELECT count(*) FROM fts_pending) AS words, (SELECT count(*) FROM idents_pending) AS idents').get();

const walrus = (id: string, word: string) => makeSession(id, { title: `Session ${id}`, messages: [textMessage('user', `the walrus said ${word}`)] });

describe('files listed without their text', () => {
  it('are listed, marked unread across a restart, and not half-searchable (no title-only match)', async () => {
    const first = at.open();
    first.beginListing();
    listOnly(first, walrus('a', 'tusked'));
    listOnly(first, walrus('b', 'flippers'));
    first.endListing();
    expect(first.count).toBe(2);
    expect(searchIndex(first, 'sort:date').total).toBe(2);
    first.close();

    const again = at.open();
    expect([...again.textUnreadPaths()].sort()).toEqual(['/roots/a.json', '/roots/b.json']);
    // Nothing for the catch-up to do: their text was never read, so search does not wait for it.
    expect(again.textPending).toEqual({ words: 0, idents: 0 });
    await again.whenCaughtUp();
    expect(keys(again, 'walrus')).toEqual([]);
    expect(keys(again, 'Session')).toEqual([]);
    expect([...again.textUnreadPaths()].sort()).toEqual(['/roots/a.json', '/roots/b.json']);
  });

  it('become wholly searchable once read again with their text, and leave no mark behind', async () => {
    const index = at.open();
    index.beginListing();
    listOnly(index, walrus('a', 'tusked'));
    listOnly(index, walrus('b', 'flippers'));
    index.endListing();
    index.flush();

    // The next scan that reads text reads them again (library-sync.ts asks textUnreadPaths), as a scan lists.
    index.beginListing();
    withText(index, walrus('a', 'tusked'));
    withText(index, walrus('b', 'flipperCount'));
    index.endListing();
    await index.whenCaughtUp();
    expect(keys(index, 'walrus')).toEqual(['vizier:a', 'vizier:b']);
    expect(keys(index, 'tusked')).toEqual(['vizier:a']);
    // Identifier substrings too.
    expect(keys(index, 'pperCou')).toEqual(['vizier:b']);
    expect(index.textUnreadPaths().size).toBe(0);
    expect(waiting(index)).toEqual({ words: 0, idents: 0 });
    expect(index.problem).toBeNull();
  });

  it('are forgotten cleanly when removed, and replaced cleanly by a read outside a scan', async () => {
    const index = at.open();
    index.beginListing();
    listOnly(index, walrus('a', 'tusked'));
    listOnly(index, walrus('b', 'flippers'));
    index.endListing();
    index.remove(pathOf(walrus('a', '')));
    // A watched edit: written straight into the full-text tables.
    withText(index, walrus('b', 'blubber'), 2);
    await index.whenCaughtUp();
    expect(index.count).toBe(1);
    expect(keys(index, 'walrus')).toEqual(['vizier:b']);
    expect(keys(index, 'blubber')).toEqual(['vizier:b']);
    expect(index.textUnreadPaths().size).toBe(0);
    expect(waiting(index)).toEqual({ words: 0, idents: 0 });
    expect(index.problem).toBeNull();
  });

  it('a file read with its text and then listed without it is marked unread again, its old text gone from search', async () => {
    const index = at.open();
    withText(index, walrus('a', 'tusked'));
    expect(keys(index, 'tusked')).toEqual(['vizier:a']);
    // Changed on disk, and read by a command that only lists.
    listOnly(index, walrus('a', 'narwhal'), 2);
    await index.whenCaughtUp();
    expect(keys(index, 'tusked')).toEqual([]);
    expect([...index.textUnreadPaths()]).toEqual(['/roots/a.json']);
    expect(index.problem).toBeNull();
  });
});
