// The library's scan: every file lands in the catalogue, and each large file is parsed by a worker of its own.
import { afterEach, describe, expect, it } from 'vitest';
import { copyFile, mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { IndexProgressTracker } from '../search-index/index-progress.ts';
import { SessionIndex } from '../search-index/index-store.ts';
import { textSinceTidy } from '../search-index/index-tidy.ts';
import { searchIndex } from '../search-index/index-search.ts';
import { jidoSession } from '../test-support/session-files.ts';
import { samplesDir } from '../test-support/samples.ts';
import { ReadPool } from '../workers/read-pool.ts';
import { syncOverRoot, type SyncOptions } from '../test-support/sync-over-root.ts';

let base = '';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  if (base) await rm(base, { recursive: true, force: true });
});

/** A JidoCode session of about `mb` megabytes (one long assistant message). */
function largeJido(id: string, mb: number): string {
  const doc = JSON.parse(jidoSession(id, `big-${id}`)) as { conversation: Array<Record<string, unknown>> };
  doc.conversation.push({
    id: 'a3',
    role: 'assistant',
    content: 'log line of a long build\n'.repeat(Math.ceil((mb * 1024 * 1024) / 25)),
    timestamp: '2026-01-02T09:00:10.000000Z',
  });
  return JSON.stringify(doc);
}

/** A LibrarySync over one root under `base`, with pools and index closed after the test. */
function syncOver(index: SessionIndex, livePool: ReadPool, extra: SyncOptions = {}) {
  return syncOverRoot(base, index, livePool, cleanups, extra);
}

describe('LibrarySync', () => {
  /** A scan of one small, two 9 MB and one 33 MB file; what the live pool and the scan pool's limit were asked, in order. */
  async function scanLargeFiles(textLater: boolean): Promise<string[]> {
    base = await mkdtemp(join(tmpdir(), 'sv-sync-'));
    const dir = join(base, 'root', '.jido_code', 'sessions');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'small.json'), jidoSession('small', 'small'));
    await writeFile(join(dir, 'big-1.json'), largeJido('big-1', 9));
    await writeFile(join(dir, 'big-2.json'), largeJido('big-2', 9));
    await writeFile(join(dir, 'huge.json'), largeJido('huge', 33));

    const index = new SessionIndex(':memory:');
    const livePool = new ReadPool(1);
    const calls: string[] = [];
    const summarize = livePool.summarize.bind(livePool);
    livePool.summarize = (path, ...rest) => (calls.push(`summarize ${path.slice(dir.length + 1)}`), summarize(path, ...rest));
    const release = livePool.release.bind(livePool);
    livePool.release = () => (calls.push('release'), release());
    const { sync, catalogue } = syncOver(index, livePool, {
      onProblem: (message) => calls.push(`problem ${message}`),
      collectGarbage: () => calls.push('collect'),
      collectEvery: 2,
      textLater,
    });
    const scanPool = (sync as unknown as { scanPool: ReadPool }).scanPool;
    const limit = scanPool.limit.bind(scanPool);
    scanPool.limit = (workers) => (calls.push(workers === undefined ? 'scan pool whole' : 'scan pool narrowed'), limit(workers));

    await sync.firstScan();
    // Every second file read had the main thread's old garbage collected (4,000 in the app).
    expect(calls.filter((c) => c === 'collect')).toEqual(['collect', 'collect']);
    expect([...catalogue.entries()].map((e) => e.key).sort()).toEqual(['jido-code:big-1', 'jido-code:big-2', 'jido-code:huge', 'jido-code:small']);
    expect(catalogue.byKey('jido-code:big-2')?.summary.unreadable ?? null).toBeNull();
    expect(catalogue.byKey('jido-code:huge')?.summary.unreadable ?? null).toBeNull();
    const large = calls.filter((c) => c.startsWith('summarize') || c === 'release' || c.startsWith('scan pool'));
    // Every large file is read in the live pool; the 33 MB one with the scan pool a worker short, then its worker ends.
    expect(large.filter((c) => c.startsWith('summarize')).sort()).toEqual(['summarize big-1.json', 'summarize big-2.json', 'summarize huge.json']);
    const huge = large.indexOf('summarize huge.json');
    expect(large.slice(huge - 1, huge + 2)).toEqual(['scan pool narrowed', 'summarize huge.json', 'release']);
    // And whole again once the lane moves on to a smaller file or runs out.
    expect(large.filter((c) => c.startsWith('scan pool'))).toEqual(['scan pool narrowed', 'scan pool whole']);
    return large.filter((c) => c.startsWith('summarize'));
  }

  it('lists a file over 32 MB in the app after every other file: its writer takes the listed text on the core the scan leaves', async () => {
    const order = await scanLargeFiles(false);
    expect(order.at(-1)).toBe('summarize huge.json');
  });

  it('lists the large files of a command that only lists in their own lane beside the others, over 32 MB with one scan worker fewer', async () => {
    const order = await scanLargeFiles(true);
    expect(order).toHaveLength(3);
  });

  it('has the index merge its full-text tables once a scan has written enough text', async () => {
    base = await mkdtemp(join(tmpdir(), 'sv-sync-'));
    const dir = join(base, 'root', '.jido_code', 'sessions');
    await mkdir(dir, { recursive: true });
    for (let i = 0; i < 4; i++) await writeFile(join(dir, `s${i}.json`), jidoSession(`s${i}`, `session ${i}`));
    // Any amount of text is enough here (32 MB, and a fifth of the index, in the app).
    const index = new SessionIndex(join(base, 'index.sqlite'), null, { minBytes: 1 });
    const { sync, catalogue } = syncOver(index, new ReadPool(1));
    const since = () => {
      const db = new DatabaseSync(join(base, 'index.sqlite'), { readOnly: true });
      try {
        return textSinceTidy(db);
      } finally {
        db.close();
      }
    };

    await sync.firstScan();
    await index.whenTidied();
    // The pass ran to its end: the text it merged no longer counts.
    expect(since()).toBe(0);
    expect([...catalogue.entries()]).toHaveLength(4);
  });

  it('lists every file before the full-text tables take its text: the app catches up at once, a command that only lists never waits', async () => {
    base = await mkdtemp(join(tmpdir(), 'sv-sync-'));
    const dir = join(base, 'root', '.jido_code', 'sessions');
    await mkdir(dir, { recursive: true });
    // Half a megabyte each: a scan's batches go to the writer thread.
    for (let i = 0; i < 3; i++) {
      const doc = JSON.parse(jidoSession(`w${i}`, `walrus ${i}`)) as { conversation: Array<Record<string, unknown>> };
      doc.conversation.push({
        id: 'a9',
        role: 'assistant',
        content: `${'a long build log line\n'.repeat(25_000)} tusked${i}`,
        timestamp: '2026-01-02T09:00:10.000000Z',
      });
      await writeFile(join(dir, `w${i}.json`), JSON.stringify(doc));
    }
    const found = (index: SessionIndex, word: string) => searchIndex(index, word).hits.map((h) => h.key);

    // A one-shot command (no watching): listed, and its text left for whoever searches.
    const cli = new SessionIndex(join(base, 'cli.sqlite'));
    const { sync: oneShot, catalogue } = syncOver(cli, new ReadPool(1));
    await oneShot.firstScan();
    expect([...catalogue.entries()]).toHaveLength(3);
    expect(found(cli, 'tusked1')).toEqual([]);
    await cli.whenCaughtUp();
    expect(found(cli, 'tusked1')).toEqual(['jido-code:w1']);

    // The app: the catch-up follows the scan, and the status line says so until it is over.
    const reports: Array<{ searchPending?: number }> = [];
    const app = new SessionIndex(join(base, 'app.sqlite'));
    const { sync } = syncOver(app, new ReadPool(1), { watch: true, progress: new IndexProgressTracker((p) => reports.push(p), { intervalMs: 0 }) });
    await sync.firstScan();
    await app.whenSearchable();
    expect(found(app, 'tusked2')).toEqual(['jido-code:w2']);
    expect(reports.some((r) => (r.searchPending ?? 0) > 0)).toBe(true);
    await expect.poll(() => reports.at(-1)?.searchPending ?? 0).toBe(0);
  });

  it('lists loose session files by their content, in a scan and as they appear while watching; never a file that is no session', async () => {
    base = await mkdtemp(join(tmpdir(), 'sv-sync-'));
    const root = join(base, 'root');
    await mkdir(root, { recursive: true });
    await copyFile(join(samplesDir, 'loose', 'rollout.jsonl'), join(root, 'rollout.jsonl'));
    await writeFile(join(root, 'package.json'), '{"name":"x"}');
    const changed: string[] = [];
    const { sync, catalogue } = syncOver(new SessionIndex(':memory:'), new ReadPool(1), { watch: true, onChange: (keys) => changed.push(...keys) });
    await sync.firstScan();
    const formats = () => [...catalogue.entries()].map((e) => `${e.summary.format} ${e.path.slice(root.length + 1)}`).sort();
    expect(formats()).toEqual(['codex rollout.jsonl']);

    await copyFile(join(samplesDir, 'loose', 'chat.json'), join(root, 'sent to me.json'));
    await writeFile(join(root, 'events.jsonl'), '{"level":"info"}\n');
    await expect.poll(formats, { timeout: 10_000 }).toEqual(['codex rollout.jsonl', 'gemini sent to me.json']);
    // A rescan keeps the recognised files and still leaves out the rest.
    await sync.scanAll([{ id: 'r1', path: root, kind: 'user', format: null }]);
    expect(formats()).toEqual(['codex rollout.jsonl', 'gemini sent to me.json']);
  });
});
