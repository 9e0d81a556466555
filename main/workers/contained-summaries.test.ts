// A scan's batch of a store's sessions, read in a worker: each session's answer is the one its own summary read gives, in one message, whatever the reader.
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { containedPath } from '../catalogue/contained-sessions.ts';
import { createOpenCodeStore, writeSession } from '../sources/opencode/opencode-test-store.ts';
import { samplesDir } from '../test-support/samples.ts';
import { testTempDir } from '../test-support/temp-dir.ts';
import type { SummaryResponse } from './read-protocol.ts';
import { ReadPool } from './read-pool.ts';

let pool: ReadPool | null = null;
afterEach(async () => {
  await pool?.close();
  pool = null;
});

/** An answer without its task id (a batch's answers carry the batch's). */
const withoutId = ({ id: _id, ...rest }: SummaryResponse) => rest;

/** Every session of a batch answered (none left for a later batch). */
function answered(results: Array<SummaryResponse | null>): SummaryResponse[] {
  return results.map((r) => {
    if (!r) throw new Error('A session of the batch was left unread.');
    return r;
  });
}

async function compareWithAlone(store: string, ids: string[]): Promise<SummaryResponse[]> {
  pool = new ReadPool(1);
  const batch = await pool.summarizeMany(store, ids);
  if (!batch.ok) throw new Error(batch.unreadable.message);
  const results = answered(batch.results);
  expect(results).toHaveLength(ids.length);
  const alone = await Promise.all(ids.map((id) => pool!.summarize(containedPath(store, id))));
  expect(results.map(withoutId)).toEqual(alone.map(withoutId));
  return results;
}

describe('a batch of a store’s sessions in the scan worker', () => {
  it('answers each OpenCode session, and an id the store lacks, as its own summary read does', async () => {
    const store = join(testTempDir('sv-batch-'), 'opencode.db');
    const db = createOpenCodeStore(store);
    for (let i = 0; i < 6; i++)
      writeSession(db, {
        id: `ses_${i}`,
        title: `Batch ${i}`,
        directory: '/home/dev/app',
        startMs: 1767225600000 + i * 60_000,
        turns: [{ prompt: `find the parser bug ${i}`, answer: 'found it', tokens: { input: 100, output: 20, reasoning: 0, cache: { read: 0, write: 0 } } }],
      });
    db.close();
    const results = await compareWithAlone(store, ['ses_3', 'ses_0', 'ses_gone', 'ses_5']);
    expect(results.map((r) => (r.ok ? r.summary.title : r.unreadable.code))).toEqual(['Batch 3', 'Batch 0', 'wrong_shape', 'Batch 5']);
    // The index text came across too (a moved buffer per session).
    const first = results[0]!;
    expect(first.ok && first.text && 'packed' in first.text && first.text.packed.byteLength).toBeGreaterThan(0);
  });

  it('leaves the sessions after its index text reaches 16 MB unread, to be asked again', async () => {
    const store = join(testTempDir('sv-batch-big-'), 'opencode.db');
    const db = createOpenCodeStore(store);
    // Four sessions of 6 MB of distinct words each (their index text as long): the third takes the batch past its budget.
    const words = Array.from({ length: (6 * 1024 * 1024) / 8 }, (_, i) => `w${i.toString(36).padStart(6, '0')}`).join(' ');
    for (let i = 0; i < 4; i++)
      writeSession(db, {
        id: `ses_big${i}`,
        title: `Big ${i}`,
        directory: '/home/dev/app',
        startMs: 1767225600000 + i * 60_000,
        turns: [{ prompt: `${i} ${words}`, answer: 'ok' }],
      });
    db.close();
    pool = new ReadPool(1);
    const ids = ['ses_big0', 'ses_big1', 'ses_big2', 'ses_big3'];
    const batch = await pool.summarizeMany(store, ids);
    if (!batch.ok) throw new Error(batch.unreadable.message);
    expect(batch.results.map((r) => (r === null ? 'unread' : r.ok ? r.summary.title : r.unreadable.code))).toEqual(['Big 0', 'Big 1', 'Big 2', 'unread']);
    // What was answered is each session's own summary, index text included.
    const texts = answered(batch.results.slice(0, 3)).map((r) => (r.ok && r.text && 'packed' in r.text ? r.text.packed.byteLength : 0));
    for (const bytes of texts) expect(bytes).toBeGreaterThan(6 * 1024 * 1024);
  });

  it('reads each session alone for a reader that has no batch read (aider)', async () => {
    const file = join(samplesDir, 'aider', 'myrepo', '.aider.chat.history.md');
    pool = new ReadPool(1);
    const listed = await pool.list(file);
    if (!listed.ok) throw new Error(listed.unreadable.message);
    await pool.close();
    expect(listed.sessions.length).toBeGreaterThan(0);
    const results = await compareWithAlone(
      file,
      listed.sessions.map((s) => s.id),
    );
    expect(results.every((r) => r.ok)).toBe(true);
  });

  it('fails the batch with the reason when the file is no store any reader lists', async () => {
    pool = new ReadPool(1);
    const batch = await pool.summarizeMany(join(testTempDir('sv-batch-none-'), 'notes.txt'), ['a']);
    expect(batch.ok).toBe(false);
    if (!batch.ok) expect(batch.unreadable.message).toMatch(/No reader lists sessions/);
  });
});
