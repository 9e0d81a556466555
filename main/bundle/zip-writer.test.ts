// The zip writer mixes whole entries (deflated in parallel) and streamed ones, keeps their order, and never lets whole entries pile up past its budget.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import zlib, { crc32 } from 'node:zlib';
import { eachEntry, entryName, openEntry, openZip, type ZipEntry } from './read-zip.ts';
import { useNativeCrc32, ZipWriter } from './zip-writer.ts';
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import { collector } from '../env/idle-memory.ts';
import { waitUntil } from '../test-support/wait-for.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-zip-writer-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

async function readBack(path: string): Promise<Array<[string, Buffer, number]>> {
  const zip = await openZip(path);
  const entries: Array<[string, ZipEntry]> = [];
  await eachEntry(zip, (e) => void entries.push([entryName(e), e]));
  const out: Array<[string, Buffer, number]> = [];
  for (const [name, e] of entries) {
    const chunks: Buffer[] = [];
    for await (const c of await openEntry(zip, e)) chunks.push(c as Buffer);
    out.push([name, Buffer.concat(chunks), e.crc32]);
  }
  zip.close();
  return out;
}

/** Half random (incompressible, so deflating takes a while), half text. */
function content(kb: number): Buffer {
  return Buffer.concat([randomBytes(kb * 512), Buffer.from('session text '.repeat(Math.ceil((kb * 512) / 13))).subarray(0, kb * 512)]);
}

describe('ZipWriter', () => {
  it("has yazl checksum with zlib's native crc32 once a writer exists (the patch of yazl 3.3.1's buffer-crc32 takes)", async () => {
    const sink = new PassThrough();
    sink.resume();
    await new ZipWriter(sink).finish();
    const fromYazl = createRequire(createRequire(import.meta.url).resolve('yazl'));
    const lib = fromYazl('buffer-crc32') as { unsigned: ((data: Buffer) => number) & { native?: true } };
    expect(lib.unsigned.native).toBe(true);
    const probe = randomBytes(4096);
    expect(lib.unsigned(probe)).toBe(crc32(probe));
    expect(useNativeCrc32()).toBe(true);
  });

  it('writes whole and streamed entries in the order they were added, each byte-for-byte with its right CRC-32, stored or deflated', async () => {
    const path = join(dir, 'mixed.zip');
    const zip = new ZipWriter(createWriteStream(path));
    const expected: Array<[string, Buffer]> = [];
    const opts = { mtime: new Date('2026-01-01T00:00:00Z'), mode: 0o100644 };
    for (let i = 0; i < 6; i++) {
      const data = content(64 + i * 32);
      if (i % 2) {
        await zip.room(data.length);
        zip.add(`whole-${i}.txt`, data, { ...opts, level: i === 3 ? 0 : 6 });
      } else {
        zip.begin(`streamed-${i}.txt`, { ...opts, level: 1 });
        for (let at = 0; at < data.length; at += 10_000) await zip.data(data.subarray(at, at + 10_000));
        await zip.end();
      }
      expected.push([i % 2 ? `whole-${i}.txt` : `streamed-${i}.txt`, data]);
    }
    zip.add('empty.txt', Buffer.alloc(0), { ...opts, level: 6 });
    expected.push(['empty.txt', Buffer.alloc(0)]);
    await zip.finish();
    const back = await readBack(path);
    expect(back.map(([name]) => name)).toEqual(expected.map(([name]) => name));
    for (const [i, [name, data, crc]] of back.entries()) {
      expect(data.equals((expected[i] as [string, Buffer])[1]), name).toBe(true);
      // Any zip tool checks it: the central directory's CRC-32 is that of the bytes.
      expect(crc, name).toBe(crc32(data));
    }
  });

  it('waits before a whole entry while those not yet written hold its budget, and lets one through when none wait', async () => {
    const path = join(dir, 'budget.zip');
    const budget = 1024 * 1024;
    const zip = new ZipWriter(createWriteStream(path), undefined, budget);
    const opts = { mtime: new Date(), mode: 0o100644, level: 6 };
    let most = 0;
    for (let i = 0; i < 12; i++) {
      const data = content(400);
      await zip.room(data.length);
      expect(zip.pendingBytes === 0 || zip.pendingBytes + data.length <= budget).toBe(true);
      zip.add(`part-${i}.bin`, data, opts);
      most = Math.max(most, zip.pendingBytes);
    }
    // Larger than the whole budget: it goes alone.
    const big = content(1500);
    await zip.room(big.length);
    expect(zip.pendingBytes).toBe(0);
    zip.add('big.bin', big, opts);
    await zip.finish();
    expect(most).toBeLessThanOrEqual(budget);
    expect((await readBack(path)).length).toBe(13);
  });

  it("lets go of a whole entry's bytes once they are written, before the zip ends (a 1 GB export must not hold them all)", async () => {
    const gc = collector() as () => void;
    const zip = new ZipWriter(createWriteStream(join(dir, 'release.zip')));
    const opts = { mtime: new Date(), mode: 0o100644, level: 0 };
    // Stored entries: the bytes yazl writes are the very buffers given, so a WeakRef can watch them go.
    // Added from a function of their own, so no variable of this test's frame still holds the last one.
    const addStored = (i: number) => {
      const data = content(256);
      zip.add(`stored-${i}.bin`, data, opts);
      return new WeakRef(data);
    };
    const refs: Array<WeakRef<Buffer>> = [];
    for (let i = 0; i < 4; i++) {
      await zip.room(256 * 1024);
      refs.push(addStored(i));
    }
    // A streamed entry after them: once it is taken, the ones before are in the output.
    zip.begin('last.txt', { ...opts, level: 6 });
    await zip.data(Buffer.from('the end'));
    await zip.end();
    // The output stream may still be writing them to disk for a moment; after that nothing should hold them.
    await waitUntil(
      () => {
        gc();
        return refs.every((r) => r.deref() === undefined);
      },
      5000,
      'the written entries to be collected',
    );
    await zip.finish();
    expect((await readBack(join(dir, 'release.zip'))).length).toBe(5);
  });

  it("gives a whole entry's bytes back once deflated, while it still waits its turn behind an entry being streamed", async () => {
    const path = join(dir, 'deflated.zip');
    const budget = 1024 * 1024;
    const zip = new ZipWriter(createWriteStream(path), undefined, budget);
    const opts = { mtime: new Date(), mode: 0o100644, level: 6 };
    // An entry still streaming holds up every entry after it: none of them can be written yet.
    zip.begin('streaming.txt', opts);
    await zip.data(Buffer.from('first part\n'));
    const text = Buffer.from('{"type":"assistant","message":"a transcript line"}\n'.repeat(16_000));
    let released = false;
    zip.add('deflated.jsonl', text, opts, true, () => (released = true));
    expect(zip.pendingBytes).toBe(text.length);
    await expect.poll(() => released, { timeout: 5000 }).toBe(true);
    // What still waits is the compressed copy, a small part of the text.
    expect(zip.pendingBytes).toBeGreaterThan(0);
    expect(zip.pendingBytes).toBeLessThan(text.length / 20);
    // So the budget has room again before anything was written. (The timer only bounds a wait that would never end:
    // the streamed entry is still open, so nothing can be written until the test goes on.)
    const roomed = await Promise.race([zip.room(text.length).then(() => true), new Promise((r) => setTimeout(() => r(false), 2000))]);
    expect(roomed).toBe(true);
    await zip.data(Buffer.from('second part\n'));
    await zip.end();
    await zip.finish();
    expect(zip.pendingBytes).toBe(0);
    const back = await readBack(path);
    expect(back.map(([name]) => name)).toEqual(['streaming.txt', 'deflated.jsonl']);
    expect(back[0]?.[1].toString()).toBe('first part\nsecond part\n');
    expect(back[1]?.[1].equals(text)).toBe(true);
  });

  it('deflates a whole entry in large output chunks, so this thread is not needed every 16 KB, and puts zlib back as it was', async () => {
    const path = join(dir, 'chunks.zip');
    const zip = new ZipWriter(createWriteStream(path));
    const seen: Array<number | undefined> = [];
    const real = zlib.deflateRaw;
    const spy = ((buffer: zlib.InputType, options: zlib.ZlibOptions, callback: zlib.CompressCallback) => {
      seen.push(options.chunkSize);
      return real(buffer, options, callback);
    }) as typeof zlib.deflateRaw;
    zlib.deflateRaw = spy;
    try {
      const big = content(4096);
      const small = content(8);
      const opts = { mtime: new Date(), mode: 0o100644, level: 6 };
      zip.add('big.bin', big, opts);
      zip.add('small.bin', small, opts);
      // Only the call made inside add is changed.
      expect(zlib.deflateRaw).toBe(spy);
      await zip.finish();
      expect(seen).toEqual([1024 * 1024, 16 * 1024]);
      const back = await readBack(path);
      expect(back[0]?.[1].equals(big)).toBe(true);
      expect(back[1]?.[1].equals(small)).toBe(true);
    } finally {
      zlib.deflateRaw = real;
    }
  });

  it('a cancel while waiting for room rejects instead of hanging', async () => {
    const controller = new AbortController();
    const zip = new ZipWriter(createWriteStream(join(dir, 'cancel.zip')), controller.signal, 256 * 1024);
    const opts = { mtime: new Date(), mode: 0o100644, level: 9 };
    zip.add('a.bin', content(2048), opts);
    const waiting = zip.room(200 * 1024);
    controller.abort();
    await expect(waiting).rejects.toThrow();
  });
});
