// A store holding many sessions (OpenCode's SQLite database) is listed as many sessions: scanned, watched through its WAL, and restored after a restart without reading unchanged ones.
import { afterEach, describe, expect, it } from 'vitest';
import { chmod, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { waitUntil } from '../test-support/wait-for.ts';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { containedPath } from '../catalogue/contained-sessions.ts';
import type { RootRecord } from '../roots/root-store.ts';
import { IndexProgressTracker } from '../search-index/index-progress.ts';
import { IndexedCatalogue } from '../search-index/indexed-catalogue.ts';
import { SessionIndex } from '../search-index/index-store.ts';
import { appendTurn, createOpenCodeStore, writeSession } from '../sources/opencode/opencode-test-store.ts';
import { testTempDir } from '../test-support/temp-dir.ts';
import { ReadPool } from '../workers/read-pool.ts';
import { LibrarySync } from './library-sync.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const turn = (prompt: string) => ({ prompt, answer: `answered ${prompt}`, tools: [{ tool: 'bash', input: { command: 'ls' }, output: 'src\ntest' }] });

/** A folder with `.local/share/opencode/opencode.db` holding `count` sessions, its writer kept open (as OpenCode keeps it). */
async function storeWith(count: number): Promise<{ root: string; store: string; writer: DatabaseSync }> {
  const root = testTempDir('sv-contained-');
  const dir = join(root, '.local', 'share', 'opencode');
  await mkdir(dir, { recursive: true });
  const store = join(dir, 'opencode.db');
  const writer = createOpenCodeStore(store);
  cleanups.push(() => writer.close());
  for (let i = 1; i <= count; i++)
    writeSession(writer, {
      id: `ses_${i}`,
      title: `Session ${i}`,
      directory: '/home/dev/harbor-api',
      startMs: 1767225600000 + i * 3_600_000,
      turns: [turn(`first question ${i}`)],
    });
  return { root, store, writer };
}

interface Harness {
  sync: LibrarySync;
  catalogue: IndexedCatalogue;
  index: SessionIndex;
  /** Every path a worker was asked to summarize, in order. */
  reads: string[];
  changed: string[];
  removed: string[];
  /** What the sync reported to the user (onProblem). */
  problems: string[];
}

/** A batch of a store's sessions read in one task counts as a read of each of them. */
function countBatches(pool: ReadPool, reads: string[]): void {
  const summarizeMany = pool.summarizeMany.bind(pool);
  pool.summarizeMany = (store, ids, ...rest) => (reads.push(...ids.map((id) => containedPath(store, id))), summarizeMany(store, ids, ...rest));
}

function harness(root: string, index: SessionIndex, watch: boolean): Harness {
  const catalogue = new IndexedCatalogue(index);
  const livePool = new ReadPool(1);
  const sessionPool = new ReadPool(1);
  const reads: string[] = [];
  const summarize = livePool.summarize.bind(livePool);
  livePool.summarize = (path, ...rest) => (reads.push(path), summarize(path, ...rest));
  countBatches(livePool, reads);
  const changed: string[] = [];
  const removed: string[] = [];
  const problems: string[] = [];
  const record: RootRecord = { id: 'r1', path: root, kind: 'user', format: null };
  const sync = new LibrarySync({
    catalogue,
    index,
    roots: () => [record],
    vaultRoots: () => [],
    livePool,
    sessionPool,
    pricingFile: join(root, 'pricing.json'),
    progress: new IndexProgressTracker(() => undefined),
    watch,
    onChange: (c, r) => {
      changed.push(...c);
      removed.push(...r);
    },
    onRootsChanged: () => undefined,
    onProblem: (message) => problems.push(message),
  });
  // The scan pool is the sync's own: count what it reads too.
  const scanPool = (sync as unknown as { scanPool: ReadPool }).scanPool;
  const scanSummarize = scanPool.summarize.bind(scanPool);
  scanPool.summarize = (path, ...rest) => (reads.push(path), scanSummarize(path, ...rest));
  countBatches(scanPool, reads);
  cleanups.push(
    () => sessionPool.close(),
    () => livePool.close(),
    () => sync.stop(),
  );
  return { sync, catalogue, index, reads, changed, removed, problems };
}

const keys = (h: Harness) => [...h.catalogue.entries()].map((e) => e.key).sort();

describe('a store that holds many sessions', () => {
  it('lists each of its 3 sessions under its own key, named by the store, and reads each once', async () => {
    const { root, store } = await storeWith(3);
    const index = new SessionIndex(':memory:');
    cleanups.push(() => index.close());
    const h = harness(root, index, false);
    await h.sync.firstScan();
    expect(keys(h)).toEqual(['opencode:ses_1', 'opencode:ses_2', 'opencode:ses_3']);
    const entry = h.catalogue.byKey('opencode:ses_2');
    expect(entry?.path).toBe(containedPath(store, 'ses_2'));
    expect(entry?.summary.primaryPath).toBe(store);
    expect(entry?.summary.title).toBe('Session 2');
    expect(entry?.summary.messageCount).toBe(2);
    expect(h.reads.sort()).toEqual([1, 2, 3].map((i) => containedPath(store, `ses_${i}`)));
    // A rescan of an unchanged store reads nothing.
    await h.sync.scanAll([{ id: 'r1', path: root, kind: 'user', format: null }]);
    expect(h.reads).toHaveLength(3);
  });

  it('notices a write that is still only in the WAL (the writer open) and re-reads that session alone', async () => {
    const { root, store, writer } = await storeWith(3);
    const index = new SessionIndex(':memory:');
    cleanups.push(() => index.close());
    const h = harness(root, index, true);
    await h.sync.firstScan();
    await h.sync.whenScanned();
    h.reads.length = 0;
    h.changed.length = 0;
    const storeBefore = await stat(store);
    appendTurn(writer, 'ses_2', turn('a follow-up'), 1767240000000, '/home/dev/harbor-api');
    await expect.poll(() => h.catalogue.byKey('opencode:ses_2')?.summary.messageCount, { timeout: 10_000 }).toBe(4);
    // The write sits in the WAL: the store file itself is as it was.
    expect((await stat(store)).mtimeMs).toBe(storeBefore.mtimeMs);
    expect(h.reads).toEqual([containedPath(store, 'ses_2')]);
    expect(h.changed).toContain('opencode:ses_2');
    expect(h.changed).not.toContain('opencode:ses_1');
  });

  it('lists every session when a batch leaves some unread (its text budget reached), asking for those again', async () => {
    const { root } = await storeWith(3);
    const index = new SessionIndex(':memory:');
    cleanups.push(() => index.close());
    const h = harness(root, index, false);
    // The first batch answers as a batch past its budget does (contained-summaries.ts): its last session unread.
    const scanPool = (h.sync as unknown as { scanPool: ReadPool }).scanPool;
    const summarizeMany = scanPool.summarizeMany.bind(scanPool);
    let batches = 0;
    scanPool.summarizeMany = async (...args) => {
      const response = await summarizeMany(...args);
      if (batches++ === 0 && response.ok) response.results[response.results.length - 1] = null;
      return response;
    };
    await h.sync.firstScan();
    expect(keys(h)).toEqual(['opencode:ses_1', 'opencode:ses_2', 'opencode:ses_3']);
    expect(h.catalogue.byKey('opencode:ses_3')?.summary.title).toBe('Session 3');
    expect(batches).toBe(2);
  });

  it('is not listed again when a watch event finds it as its last listing found it, its WAL empty (a reader opened it)', async () => {
    const { root, store, writer } = await storeWith(3);
    // Every write of the agent moved from the WAL into the store, the WAL emptied.
    writer.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    const index = new SessionIndex(':memory:');
    cleanups.push(() => index.close());
    const h = harness(root, index, true);
    const livePool = (h.sync as unknown as { o: { livePool: ReadPool } }).o.livePool;
    let liveLists = 0;
    const list = livePool.list.bind(livePool);
    livePool.list = (...args) => (liveLists++, list(...args));
    await h.sync.firstScan();
    await h.sync.whenScanned();
    // Touching the empty WAL and the store (as a reader's open does) is no write.
    const wal = await stat(`${store}-wal`);
    expect(wal.size).toBe(0);
    await chmod(`${store}-wal`, wal.mode);
    await chmod(store, (await stat(store)).mode);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(liveLists).toBe(0);
    expect(keys(h)).toEqual(['opencode:ses_1', 'opencode:ses_2', 'opencode:ses_3']);
  });

  it('keeps its sessions and says so when a watched change cannot be listed (its worker gone), instead of ending the process', async () => {
    const { root, writer } = await storeWith(3);
    const index = new SessionIndex(':memory:');
    cleanups.push(() => index.close());
    const h = harness(root, index, true);
    await h.sync.firstScan();
    await h.sync.whenScanned();
    // The live pool's listing fails as a crashed worker's, or a pool closed by a quit, fails it.
    const livePool = (h.sync as unknown as { o: { livePool: ReadPool } }).o.livePool;
    livePool.list = () => Promise.reject(new Error('read worker exited with code 1'));
    appendTurn(writer, 'ses_2', turn('a follow-up'), 1767240000000, '/home/dev/harbor-api');
    // (The write, and the store's own WAL events after it, may each be a batch that fails the same way.)
    await expect.poll(() => h.problems.length, { timeout: 10_000 }).toBeGreaterThan(0);
    for (const problem of h.problems) expect(problem).toMatch(/opencode\.db could not be listed: read worker exited with code 1$/);
    expect(keys(h)).toEqual(['opencode:ses_1', 'opencode:ses_2', 'opencode:ses_3']);
  });

  it('drops a session whose row was deleted, and keeps the others', async () => {
    const { root, writer } = await storeWith(3);
    const index = new SessionIndex(':memory:');
    cleanups.push(() => index.close());
    const h = harness(root, index, true);
    await h.sync.firstScan();
    writer.exec("DELETE FROM part WHERE session_id = 'ses_3'; DELETE FROM message WHERE session_id = 'ses_3'; DELETE FROM session WHERE id = 'ses_3';");
    await expect.poll(() => keys(h), { timeout: 10_000 }).toEqual(['opencode:ses_1', 'opencode:ses_2']);
    expect(h.removed).toEqual(['opencode:ses_3']);
  });

  it('is read while its writer keeps writing: no write of the agent waits for a lock or fails', async () => {
    const { root, store, writer } = await storeWith(40);
    // The agent's connection never waits: a lock held by the reader would fail its write at once.
    writer.exec('PRAGMA busy_timeout = 0');
    const index = new SessionIndex(':memory:');
    cleanups.push(() => index.close());
    const h = harness(root, index, false);
    const scan = h.sync.firstScan();
    let writes = 0;
    const failures: string[] = [];
    while (h.reads.length < 40) {
      try {
        appendTurn(writer, 'ses_1', turn(`while reading ${writes}`), 1767300000000 + writes * 60_000, '/home/dev/harbor-api');
        writes++;
      } catch (err) {
        failures.push((err as Error).message);
      }
      // The next write goes in once the scan has read one more session.
      const read = h.reads.length;
      await waitUntil(() => h.reads.length > read, 20_000, 'the scan to read another session');
    }
    await scan;
    expect(failures).toEqual([]);
    expect(writes).toBeGreaterThan(0);
    expect(keys(h)).toHaveLength(40);
    expect(h.catalogue.byKey('opencode:ses_1')?.path).toBe(containedPath(store, 'ses_1'));
  });

  it('comes back after a restart from the index, reading only the session that changed meanwhile', async () => {
    const { root, store, writer } = await storeWith(3);
    const file = join(root, 'index.sqlite');
    const first = new SessionIndex(file);
    const before = harness(root, first, false);
    await before.sync.firstScan();
    await before.sync.stop();
    first.close();

    appendTurn(writer, 'ses_3', turn('while the app was closed'), 1767250000000, '/home/dev/harbor-api');
    const second = new SessionIndex(file);
    cleanups.push(() => second.close());
    const after = harness(root, second, false);
    await after.catalogue.restore(() => true);
    expect(keys(after)).toEqual(['opencode:ses_1', 'opencode:ses_2', 'opencode:ses_3']);
    await after.sync.firstScan();
    expect(after.reads).toEqual([containedPath(store, 'ses_3')]);
    expect(after.catalogue.byKey('opencode:ses_3')?.summary.messageCount).toBe(4);
    expect(after.catalogue.byKey('opencode:ses_1')?.summary.title).toBe('Session 1');
  });

  it('lists a damaged store as unreadable with the reason, and its sessions once it is a store again', async () => {
    const root = testTempDir('sv-contained-');
    const dir = join(root, '.local', 'share', 'opencode');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'opencode.db'), 'not a database at all, just text');
    const index = new SessionIndex(':memory:');
    cleanups.push(() => index.close());
    const h = harness(root, index, false);
    await h.sync.firstScan();
    const entries = [...h.catalogue.entries()];
    expect(entries.map((e) => [e.key, e.summary.unreadable?.code])).toEqual([['opencode:opencode', 'wrong_shape']]);
    expect(entries[0]?.summary.unreadable?.message).toMatch(/SQLite store/);

    await rm(join(dir, 'opencode.db'));
    const writer = createOpenCodeStore(join(dir, 'opencode.db'));
    cleanups.push(() => writer.close());
    writeSession(writer, { id: 'ses_back', title: 'A store again', directory: '/home/dev/harbor-api', startMs: 1767225600000, turns: [turn('hello')] });
    await h.sync.scanAll([{ id: 'r1', path: root, kind: 'user', format: null }]);
    expect(keys(h)).toEqual(['opencode:ses_back']);
  });
});
