// The read pool parses files in worker threads, lets interactive reads jump the queue, and reports bad files.
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { ReadPool } from './read-pool.ts';
import { WORKER_YOUNG_MB } from '../env/tuning.ts';
import { jidoSession } from '../test-support/session-files.ts';

let dir: string;
let pool: ReadPool | null = null;

beforeAll(async () => {
  dir = join(await mkdtemp(join(tmpdir(), 'sv-pool-')), '.jido_code', 'sessions');
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < 12; i++) await writeFile(join(dir, `s-${i}.json`), jidoSession(`s-${i}`, `project-${i}`));
  await writeFile(join(dir, 'bad.json'), '<html>502 Bad Gateway</html>');
});
afterEach(async () => {
  await pool?.close();
  pool = null;
});
afterAll(async () => rm(join(dir, '..', '..'), { recursive: true, force: true }));

describe('ReadPool', () => {
  it('returns the parsed session from a worker thread', async () => {
    pool = new ReadPool(1);
    const result = await pool.read(join(dir, 's-0.json'));
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.session).toMatchObject({ key: 'jido-code:s-0', title: 'project-0' });
  });

  it('summarize posts back only the list summary, not the transcript', async () => {
    pool = new ReadPool(1);
    const result = await pool.summarize(join(dir, 's-1.json'));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.summary).toMatchObject({ key: 'jido-code:s-1', title: 'project-1', messageCount: 2 });
    expect(result).not.toHaveProperty('session');
  });

  it('window answers slices of an opened session and notices when the file changes', async () => {
    pool = new ReadPool(1);
    const file = join(dir, 's-2.json');
    const first = await pool.window(file, 0, 1);
    expect(first.ok && [first.session.messages.map((m) => m.role), first.messagesTotal]).toEqual([['user'], 2]);
    const second = await pool.window(file, 1, 10);
    expect(second.ok && second.session.messages.map((m) => m.role)).toEqual(['assistant']);
    await writeFile(file, jidoSession('s-2', 'renamed-2'));
    const after = await pool.window(file, 0, 1);
    expect(after.ok && after.session.title).toBe('renamed-2');
  });

  it('returns an unreadable reason instead of throwing for a file that is not JSON', async () => {
    pool = new ReadPool(1);
    const result = await pool.read(join(dir, 'bad.json'));
    expect(result).toMatchObject({ ok: false, format: 'jido-code', unreadable: { code: 'invalid_json' } });
    if (!result.ok) expect(result.unreadable.message).toContain('HTML');
  });

  it('serves an interactive read before the background queue behind it', async () => {
    pool = new ReadPool(1);
    const order: string[] = [];
    const background = Array.from({ length: 10 }, (_, i) => pool!.read(join(dir, `s-${i}.json`)).then(() => order.push(`bg-${i}`)));
    const interactive = pool.read(join(dir, 's-11.json'), 'interactive').then(() => order.push('interactive'));
    await Promise.all([...background, interactive]);
    // The first background read was already running; the interactive one comes straight after it.
    expect(order.indexOf('interactive')).toBeLessThanOrEqual(1);
  });

  it('queues a summary in a busy worker behind the one it runs, and answers every caller with its own file', async () => {
    pool = new ReadPool(1);
    const files = [0, 1, 3, 4, 5, 6, 7, 8, 9, 10]; // s-2 is renamed by the window test
    const results = files.map((i) => pool!.summarize(join(dir, `s-${i}.json`)));
    const slots = (pool as unknown as { slots: Array<{ tasks: unknown[] }> }).slots;
    expect(slots.map((s) => s.tasks.length)).toEqual([2]);
    expect(pool.pending).toBe(10);
    const titles = (await Promise.all(results)).map((r) => (r.ok ? r.summary.title : r.unreadable.message));
    expect(titles).toEqual(files.map((i) => `project-${i}`));
    expect(pool.pending).toBe(0);
  });

  it('does not queue full reads in a busy worker', async () => {
    pool = new ReadPool(1);
    const reads = [pool.read(join(dir, 's-0.json')), pool.read(join(dir, 's-1.json'))];
    expect((pool as unknown as { slots: Array<{ tasks: unknown[] }> }).slots.map((s) => s.tasks.length)).toEqual([1]);
    expect((await Promise.all(reads)).every((r) => r.ok)).toBe(true);
  });

  it('fails only the running file when its worker dies; the one queued behind it is read by a fresh worker', async () => {
    pool = new ReadPool(1);
    const first = pool.summarize(join(dir, 's-5.json'));
    const second = pool.summarize(join(dir, 's-6.json'));
    const slots = (pool as unknown as { slots: Array<{ worker: Worker }> }).slots;
    await slots[0]?.worker.terminate();
    await expect(first).rejects.toThrow('read worker exited');
    const after = await second;
    expect(after.ok && after.summary.title).toBe('project-6');
  });

  it('refuses work after close', async () => {
    const closing = new ReadPool(1);
    await closing.close();
    await expect(closing.read(join(dir, 's-0.json'))).rejects.toThrow('closed');
  });

  it('runs its workers with a small young generation, beside any old-generation cap the caller sets', async () => {
    pool = new ReadPool(1, { resourceLimits: { maxOldGenerationSizeMb: 96 } });
    expect((await pool.summarize(join(dir, 's-4.json'))).ok).toBe(true);
    const workers = (pool as unknown as { slots: Array<{ worker: Worker }> }).slots.map((s) => s.worker.resourceLimits);
    expect(workers).toEqual([expect.objectContaining({ maxYoungGenerationSizeMb: WORKER_YOUNG_MB, maxOldGenerationSizeMb: 96 })]);
  });

  it('ends idle workers on release and starts a fresh one for the next read', async () => {
    pool = new ReadPool(1);
    expect((await pool.summarize(join(dir, 's-2.json'))).ok).toBe(true);
    await pool.release();
    const again = await pool.summarize(join(dir, 's-3.json'));
    expect(again.ok && again.summary.title).toBe('project-3');
  });

  it('runs at most the limit of workers, ends the one above it once it is idle, and grows again when the limit is lifted', async () => {
    pool = new ReadPool(2);
    const slots = () => (pool as unknown as { slots: Array<{ tasks: unknown[] }> }).slots;
    const files = [0, 1, 3, 4, 5, 6].map((i) => join(dir, `s-${i}.json`));
    // Both workers busy, then limited to one: the other finishes what it holds, then ends.
    const first = files.map((f) => pool!.summarize(f));
    expect(slots().length).toBe(2);
    pool.limit(1);
    const titles = (await Promise.all(first)).map((r) => (r.ok ? r.summary.title : r.unreadable.message));
    expect(titles).toEqual(['project-0', 'project-1', 'project-3', 'project-4', 'project-5', 'project-6']);
    expect(slots().length).toBe(1);
    // Under the limit, new work waits for the one worker (two tasks at most in it) instead of starting a second.
    const limited = files.map((f) => pool!.summarize(f));
    expect(slots().map((s) => s.tasks.length)).toEqual([2]);
    await Promise.all(limited);
    pool.limit();
    const lifted = files.map((f) => pool!.summarize(f));
    expect(slots().length).toBe(2);
    expect((await Promise.all(lifted)).every((r) => r.ok)).toBe(true);
  });

  it('moves the index text across as a buffer of its own', async () => {
    pool = new ReadPool(1);
    const result = await pool.summarize(join(dir, 's-4.json'));
    expect(result.ok && result.text && 'packed' in result.text && result.text.packed.byteLength).toBeGreaterThan(0);
  });
});
