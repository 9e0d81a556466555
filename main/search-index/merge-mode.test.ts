// Bulk merge mode: a scan's batches are written unmerged and merged once afterwards, with nothing lost meanwhile.
import { describe, expect, it } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import type { SessionIndex } from './index-store.ts';
import { indexFilePerTest } from './index-file-per-test.ts';
import { searchIndex } from './index-search.ts';
import { tidyNeeded, type TidyLimits } from './index-tidy.ts';
import { mergeModeOf, setMergeMode, type MergeMode } from './merge-mode.ts';
import { makeSession, readResult, textMessage } from './test-sessions.ts';

const at = indexFilePerTest('sv-merge-mode-');
/** A full tidy is never due here unless a test asks: what is merged is what bulk mode left. */
const openIndex = (limits: TidyLimits = { minBytes: 2 ** 40 }) => at.open(limits);

const WORDS = ['quokka', 'wombat', 'numbat', 'bilby', 'dingo', 'echidna'];

/**
 * Ten batches, each committed on its own (one more segment per full-text table each). The first carries 300 KB of
 * text, as a scan's batches do, so it goes to the writer thread; the rest follow it there while the thread runs.
 */
function writeScan(index: SessionIndex): void {
  for (let b = 0; b < 10; b++) {
    const filler = b === 0 ? ` ${'marsupial '.repeat(30_000)}` : '';
    const id = `s${b}`;
    const session = makeSession(id, {
      title: `Run ${b} of ${WORDS[b % WORDS.length]}`,
      messages: [textMessage('user', `${WORDS[b % WORDS.length]} looked at parseLedgerEntry${b}${filler}`)],
    });
    const { result, text } = readResult(session);
    index.put(`/roots/${id}.json`, 100, 1, session.key, result, text);
    index.flush();
  }
}

function inFile<T>(read: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(at.file, { readOnly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

const mode = (): MergeMode => inFile(mergeModeOf);
const docSegments = () => inFile((db) => (db.prepare('SELECT count(DISTINCT segid) AS n FROM docs_idx').get() as { n: number }).n);

const QUERIES = ['quokka', '"looked at"', 'numb*', 'LedgerEntry3', 'marsupial'];
const answers = (index: SessionIndex) =>
  QUERIES.map((q) =>
    searchIndex(index, q, { limit: 100, sort: 'date' })
      .hits.map((h) => h.key)
      .sort(),
  );

describe('bulk merge mode', () => {
  it('leaves a scan’s batches unmerged but searchable, and the pass after the scan merges them and returns to steady mode', async () => {
    const index = openIndex();
    writeScan(index);
    // In steady mode FTS5 would have merged the first 8 of these 10 segments.
    expect(mode()).toBe('bulk');
    expect(docSegments()).toBe(10);
    const before = answers(index);
    const keys = (...ids: number[]) => ids.map((i) => `vizier:s${i}`);
    expect(before).toEqual([keys(0, 6), keys(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), keys(2, 8), keys(3), keys(0)]);

    index.tidy();
    await index.whenTidied();

    expect(mode()).toBe('steady');
    // Merged until no size has 4 segments: the rest of an index is not rewritten for one scan's batches.
    expect(docSegments()).toBeLessThan(4);
    expect(answers(index)).toEqual(before);
    expect(index.problem).toBeNull();
  });

  it('has an idle writer thread merge its bulk batches before it is retired', async () => {
    const index = openIndex();
    writeScan(index);
    expect(mode()).toBe('bulk');
    index.rest();
    await index.whenTidied();
    expect(mode()).toBe('steady');
    expect(docSegments()).toBeLessThan(4);
  });

  it('retires an idle writer thread whose merge failed, instead of asking it again every few seconds', async () => {
    const index = openIndex();
    writeScan(index);
    // Damage the word index's pages so that merging them fails.
    const db = new DatabaseSync(at.file, { defensive: false });
    db.exec('UPDATE docs_data SET block = zeroblob(length(block)) WHERE id > 10');
    db.close();
    index.rest();
    await index.whenTidied();
    expect(index.problem).toMatch(/^Merging the search index stopped: /);
    // Left in bulk mode: the next start's scan asks again.
    expect(mode()).toBe('bulk');
    expect(index.writerThreadRunning).toBe(true);
    index.rest();
    expect(index.writerThreadRunning).toBe(false);
  });

  it('merges what a quit in the middle of a scan left, after the next start’s scan', async () => {
    const first = openIndex();
    writeScan(first);
    first.close();
    expect(mode()).toBe('bulk');

    const second = openIndex();
    const before = answers(second);
    second.tidy();
    await second.whenTidied();
    expect(mode()).toBe('steady');
    expect(docSegments()).toBeLessThan(4);
    expect(answers(second)).toEqual(before);
  });

  it('ends a full tidy in steady mode too', async () => {
    const index = openIndex({ minBytes: 1 });
    writeScan(index);
    expect(inFile((db) => tidyNeeded(db, { minBytes: 1 }))).toBe('full');
    index.tidy();
    await index.whenTidied();
    expect(mode()).toBe('steady');
    expect(docSegments()).toBe(1);
  });

  it('asks for a pass only when one is needed', () => {
    const index = openIndex();
    index.close();
    const db = new DatabaseSync(at.file);
    try {
      expect(mergeModeOf(db)).toBe('steady');
      expect(tidyNeeded(db)).toBeNull();
      setMergeMode(db, 'bulk');
      expect(tidyNeeded(db)).toBe('settle');
    } finally {
      db.close();
    }
  });
});
