// Whole-file reads for an export: the file's bytes exactly, in buffers that are reused once given back and never outgrow the pool's limit.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BufferPool, readWhole, unmap } from './read-whole.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-read-whole-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

describe('readWhole', () => {
  it('reads a file byte-for-byte, an empty one too, and reuses a returned buffer for the next file of a similar size', async () => {
    const pool = new BufferPool(8 * 1024 * 1024);
    const a = randomBytes(1_500_000);
    const b = randomBytes(1_200_000);
    await writeFile(join(dir, 'a'), a);
    await writeFile(join(dir, 'b'), b);
    await writeFile(join(dir, 'empty'), '');
    const first = await readWhole(join(dir, 'a'), pool);
    expect(first.equals(a)).toBe(true);
    pool.give(first);
    expect(pool.heldBytes).toBe(2 * 1024 * 1024);
    const second = await readWhole(join(dir, 'b'), pool);
    expect(second.equals(b)).toBe(true);
    // The same memory as the first: nothing new was mapped for it.
    expect(second.buffer).toBe(first.buffer);
    expect(pool.heldBytes).toBe(0);
    expect((await readWhole(join(dir, 'empty'), pool)).length).toBe(0);
  });

  it('keeps no more than its limit of returned buffers', () => {
    const pool = new BufferPool(3 * 1024 * 1024);
    const taken = [pool.take(1024 * 1024), pool.take(1024 * 1024), pool.take(2 * 1024 * 1024)];
    for (const t of taken) pool.give(t);
    expect(pool.heldBytes).toBe(2 * 1024 * 1024);
    // The one it did not keep was unmapped there and then, not left for the collector.
    expect(taken.map((t) => t.buffer.byteLength)).toEqual([1024 * 1024, 1024 * 1024, 0]);
  });

  it("unmap gives a mapped buffer's memory back at once and leaves a malloc'd one alone", () => {
    const mapped = new BufferPool(0).take(1024 * 1024);
    unmap(mapped);
    expect(mapped.buffer.byteLength).toBe(0);
    const plain = Buffer.alloc(1024 * 1024);
    unmap(plain);
    expect(plain.length).toBe(1024 * 1024);
  });

  it("fails with the file system's error for a missing file, and stops when cancelled", async () => {
    const pool = new BufferPool(1024 * 1024);
    await expect(readWhole(join(dir, 'missing'), pool)).rejects.toMatchObject({ code: 'ENOENT' });
    await writeFile(join(dir, 'a'), 'text');
    await expect(readWhole(join(dir, 'a'), pool, AbortSignal.abort())).rejects.toThrow();
  });
});
