// Codex rollouts compressed by Codex into `.jsonl.zst`: a scan lists each session once while the plain file and its compressed twin both exist, the watcher hands the session from one to the other under the same key, and a scan weighs a compressed file by what it decompresses to.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zstdCompressSync } from 'node:zlib';
import { SessionIndex } from '../search-index/index-store.ts';
import type { WatchBatch } from '../watch/root-watcher.ts';
import { ReadPool } from '../workers/read-pool.ts';
import { syncOverRoot, type SyncOptions } from '../test-support/sync-over-root.ts';

const fixtures = fileURLToPath(new URL('../sources/codex/fixtures/.codex/sessions/2026/02/14/', import.meta.url));
const PARENT = '0194f3a2-7c1d-7e00-9a5b-3c4d5e6f7a01';
const CHILD = '0194f3a5-1e2f-7a00-8b1c-2d3e4f5a6b02';
const parentName = `rollout-2026-02-14T10-30-00-${PARENT}.jsonl`;
const childName = `rollout-2026-02-14T10-33-05-${CHILD}.jsonl`;

let base = '';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  if (base) await rm(base, { recursive: true, force: true });
});

/** A Codex day folder under a fresh root, and a LibrarySync over that root (not watching: batches are applied by the test). */
async function setUp(extra: SyncOptions = {}) {
  base = await mkdtemp(join(tmpdir(), 'sv-zst-'));
  const day = join(base, 'root', '.codex', 'sessions', '2026', '02', '14');
  await mkdir(day, { recursive: true });
  const index = new SessionIndex(':memory:');
  const changes: Array<{ changed: string[]; removed: string[] }> = [];
  const livePool = new ReadPool(1);
  const { sync, catalogue } = syncOverRoot(base, index, livePool, cleanups, {
    onChange: (changed, removed) => changes.push({ changed, removed }),
    ...extra,
  });
  const apply = (...files: string[]) => (sync as unknown as { applyBatch(batch: WatchBatch): Promise<void> }).applyBatch({ files, removedDirs: [] });
  /** The catalogue's entries as `file name -> key` (a damaged file: its reason). */
  const listed = () =>
    Object.fromEntries(
      [...catalogue.entries()].map((e) => {
        const why = e.summary.unreadable;
        return [e.path.slice(day.length + 1), why ? `${why.code}: ${why.message}` : e.key];
      }),
    );
  return { day, sync, catalogue, livePool, changes, apply, listed };
}

/** Writes a fixture rollout into `day`, plain or as Codex compresses it. */
async function rollout(day: string, name: string, as: 'plain' | 'zst'): Promise<string> {
  const bytes = await readFile(join(fixtures, name));
  const path = join(day, as === 'plain' ? name : `${name}.zst`);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, as === 'plain' ? bytes : zstdCompressSync(bytes));
  return path;
}

describe('compressed Codex rollouts in a scan', () => {
  it('lists a compressed rollout, a damaged one with its reason, and a session whose plain file is still there once, from the plain file', async () => {
    const { day, sync, catalogue, listed } = await setUp();
    await rollout(day, parentName, 'plain');
    await rollout(day, parentName, 'zst');
    await rollout(day, childName, 'zst');
    await writeFile(join(day, 'rollout-2026-02-14T11-00-00-0194f3a9-0000-7000-8000-000000000009.jsonl.zst'), 'not zstd at all\n');
    await sync.firstScan();
    expect(listed()).toEqual({
      [parentName]: `codex:${PARENT}`,
      [`${childName}.zst`]: `codex:${CHILD}`,
      'rollout-2026-02-14T11-00-00-0194f3a9-0000-7000-8000-000000000009.jsonl.zst':
        'invalid_encoding: Cannot decompress this zstd file: Unknown frame descriptor',
    });
    // The child is read from its compressed file and listed under its parent, as its plain file would be.
    expect(catalogue.list({}).sessions.map((s) => [s.key, s.childCount])).toEqual([
      [`codex:${PARENT}`, 1],
      [expect.stringMatching(/^codex:/), 0],
    ]);
  });

  it('hands the session to the compressed file when Codex deletes the plain one, and back when Codex resumes it, under one key', async () => {
    const { day, sync, changes, apply, listed } = await setUp();
    const plain = await rollout(day, parentName, 'plain');
    await sync.firstScan();
    expect(listed()).toEqual({ [parentName]: `codex:${PARENT}` });

    // Codex writes the .zst beside the plain file (its event finds the plain file there), then deletes the plain file.
    const zst = await rollout(day, parentName, 'zst');
    await apply(zst);
    expect(listed()).toEqual({ [parentName]: `codex:${PARENT}` });
    await unlink(plain);
    changes.length = 0;
    await apply(plain);
    expect(listed()).toEqual({ [`${parentName}.zst`]: `codex:${PARENT}` });
    // The session changed file, it did not leave the list.
    expect(changes).toEqual([{ changed: [`codex:${PARENT}`], removed: [] }]);

    // A resumed session: Codex writes the plain file again, then deletes the .zst.
    await rollout(day, parentName, 'plain');
    changes.length = 0;
    await apply(plain);
    expect(listed()).toEqual({ [parentName]: `codex:${PARENT}` });
    await unlink(zst);
    await apply(zst);
    expect(listed()).toEqual({ [parentName]: `codex:${PARENT}` });
    expect(changes).toEqual([{ changed: [`codex:${PARENT}`], removed: [] }]);
  });

  it('gives a rescan’s plain file (a session resumed while nothing watched) the key its compressed file had', async () => {
    const { day, sync, listed } = await setUp();
    const zst = await rollout(day, parentName, 'zst');
    await sync.firstScan();
    expect(listed()).toEqual({ [`${parentName}.zst`]: `codex:${PARENT}` });
    await rollout(day, parentName, 'plain');
    await sync.scanAll([{ id: 'r1', path: join(base, 'root'), kind: 'user', format: null }]);
    expect(listed()).toEqual({ [parentName]: `codex:${PARENT}` });
    await unlink(zst);
    await sync.scanAll([{ id: 'r1', path: join(base, 'root'), kind: 'user', format: null }]);
    expect(listed()).toEqual({ [parentName]: `codex:${PARENT}` });
  });

  it('takes both events of one batch (the .zst written, the plain file deleted) as one change of file', async () => {
    const { day, sync, changes, apply, listed } = await setUp();
    const plain = await rollout(day, parentName, 'plain');
    await sync.firstScan();
    const zst = await rollout(day, parentName, 'zst');
    await unlink(plain);
    changes.length = 0;
    await apply(zst, plain);
    expect(listed()).toEqual({ [`${parentName}.zst`]: `codex:${PARENT}` });
    expect(changes).toEqual([{ changed: [`codex:${PARENT}`], removed: [] }]);
  });

  it('reads a compressed file that decompresses to more than 8 MB in the large files’ lane, by the size it comes to', async () => {
    const { day, sync, livePool, listed } = await setUp({ textLater: true });
    // Random text compresses about 2 times: about 1 MB on disk, read as 10 MB.
    const lines = (await readFile(join(fixtures, parentName), 'utf8')).trimEnd().split('\n');
    const reply = {
      timestamp: '2026-02-14T09:36:00.000Z',
      type: 'response_item',
      payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: randomBytes(1024 * 1024).toString('hex') }] },
    };
    await writeFile(join(day, `${parentName}.zst`), zstdCompressSync(`${[...lines, JSON.stringify(reply)].join('\n')}\n`));
    const asked: string[] = [];
    const summarize = livePool.summarize.bind(livePool);
    livePool.summarize = (path, ...rest) => (asked.push(path.slice(day.length + 1)), summarize(path, ...rest));
    await sync.firstScan();
    expect(listed()).toEqual({ [`${parentName}.zst`]: `codex:${PARENT}` });
    expect(asked).toEqual([`${parentName}.zst`]);
  });
});
