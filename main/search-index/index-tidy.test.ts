// Tidying the index: full-text tables merged into one segment each after a large scan, with nothing lost meanwhile.
import { describe, expect, it } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import type { SessionIndex } from './index-store.ts';
import { indexFilePerTest } from './index-file-per-test.ts';
import { searchIndex } from './index-search.ts';
import { IndexTidy, textSinceTidy, tidyDue, type TidyLimits } from './index-tidy.ts';
import { makeSession, readResult, textMessage } from './test-sessions.ts';

const at = indexFilePerTest('sv-tidy-');
const openIndex = (limits: TidyLimits) => at.open(limits);

const WORDS = ['quokka', 'wombat', 'numbat', 'bilby', 'dingo', 'echidna'];

/** Sessions in batches of their own: each batch's commit leaves one more segment in every full-text table. */
function addBatches(index: SessionIndex, batches: number, from = 0): void {
  for (let b = from; b < from + batches; b++) {
    for (let i = 0; i < 3; i++) {
      const id = `s${b}-${i}`;
      const words = `${WORDS[b % WORDS.length]} looked at parseLedgerEntry${b} in src/ledger/file${i}.ts`;
      const session = makeSession(id, {
        title: `Run ${b} of ${WORDS[(b + i) % WORDS.length]}`,
        messages: [textMessage('user', words), textMessage('assistant', `checked ${id} twice`)],
      });
      const { result, text } = readResult(session);
      index.put(`/roots/${id}.json`, 100, 1, session.key, result, text);
    }
    index.flush();
  }
}

/** Segments per full-text table, from FTS5's own page index (one or more rows per segment). */
function segments(): Record<string, number> {
  const db = new DatabaseSync(at.file, { readOnly: true });
  try {
    const count = (t: string) => (db.prepare(`SELECT count(DISTINCT segid) AS n FROM ${t}_idx`).get() as { n: number }).n;
    return { docs: count('docs'), idents: count('idents'), heads: count('heads') };
  } finally {
    db.close();
  }
}

function since(): number {
  const db = new DatabaseSync(at.file, { readOnly: true });
  try {
    return textSinceTidy(db);
  } finally {
    db.close();
  }
}

const QUERIES = ['quokka', '"looked at"', 'numb*', 'LedgerEntry3', 'ledger/file2', 'twice -dingo'];
const answers = (index: SessionIndex) =>
  QUERIES.map((q) =>
    searchIndex(index, q, { limit: 100, sort: 'date' })
      .hits.map((h) => h.key)
      .sort(),
  );

describe('index tidy', () => {
  it('merges every full-text table into one segment after enough new text, with the same matches, and starts counting again', async () => {
    const index = openIndex({ minBytes: 1 });
    addBatches(index, 6);
    expect(segments()).toEqual({ docs: 6, idents: 6, heads: 6 });
    expect(since()).toBeGreaterThan(0);
    const before = answers(index);
    expect(before.every((keys) => keys.length > 0)).toBe(true);

    index.tidy();
    await index.whenTidied();

    expect(segments()).toEqual({ docs: 1, idents: 1, heads: 1 });
    expect(since()).toBe(0);
    expect(answers(index)).toEqual(before);
    expect(index.problem).toBeNull();
  });

  it('takes a step at a time on the calling thread for a one-shot command, starting no writer thread, to the same end', () => {
    const index = openIndex({ minBytes: 1, stepPages: 1 });
    addBatches(index, 6);
    const before = answers(index);
    index.tidyStep();
    expect(index.writerThreadRunning).toBe(false);
    expect(Object.values(segments()).reduce((a, b) => a + b, 0)).toBeLessThan(18);
    // Each command's step goes on where the last stopped, until the pass is over and none is due.
    for (let i = 0; i < 200 && since() > 0; i++) index.tidyStep();
    expect(segments()).toEqual({ docs: 1, idents: 1, heads: 1 });
    expect(since()).toBe(0);
    expect(answers(index)).toEqual(before);
    expect(index.writerThreadRunning).toBe(false);
  });

  it('is not due for a little new text in a larger index, nor under the minimum', async () => {
    const index = openIndex({ minBytes: 1 });
    addBatches(index, 10);
    index.tidy();
    await index.whenTidied();
    addBatches(index, 1, 10);
    const db = new DatabaseSync(at.file, { readOnly: true });
    try {
      // One batch in eleven: under a fifth of the text.
      expect(textSinceTidy(db)).toBeGreaterThan(0);
      expect(tidyDue(db, { minBytes: 1 })).toBe(false);
      expect(tidyDue(db, { minBytes: 1 << 30 })).toBe(false);
    } finally {
      db.close();
    }
    index.tidy();
    await index.whenTidied();
    expect(segments().docs).toBe(2);
  });

  it('applies writes that arrive during a pass at once, and counts them towards the next one', async () => {
    const index = openIndex({ minBytes: 1, stepPages: 1 });
    addBatches(index, 6);
    const quokkas = searchIndex(index, 'quokka', { limit: 100 }).total;
    index.tidy();
    // While the pass runs, a step of one page at a time, new sessions are searchable as soon as they are written.
    addBatches(index, 1, 6);
    expect(searchIndex(index, 'LedgerEntry6').total).toBe(3);
    await index.whenTidied();
    expect(searchIndex(index, 'LedgerEntry6').total).toBe(3);
    // Batch 6 is about quokkas again.
    expect(searchIndex(index, 'quokka', { limit: 100 }).total).toBe(quokkas + 3);
    expect(since()).toBeGreaterThan(0);
  });

  it('goes on at the next start when the app closed during a pass', async () => {
    const first = openIndex({ minBytes: 1 });
    addBatches(first, 6);
    first.close();
    // A pass cut short: two steps of one page, then the app quits.
    const db = new DatabaseSync(at.file);
    const cut = new IndexTidy(db, { minBytes: 1, stepPages: 1 });
    cut.step();
    cut.step();
    expect(cut.done).toBe(false);
    db.close();
    expect(since()).toBeGreaterThan(0);

    const second = openIndex({ minBytes: 1 });
    const before = answers(second);
    second.tidy();
    await second.whenTidied();
    expect(since()).toBe(0);
    expect(segments()).toEqual({ docs: 1, idents: 1, heads: 1 });
    expect(answers(second)).toEqual(before);
  });
});
