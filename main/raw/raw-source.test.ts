// The raw view reads windows of a source file (decompressed for .gz and .zst) that never split a UTF-8 character.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync, zstdCompressSync } from 'node:zlib';
import { readRawWindow } from './raw-source.ts';
import { AppError } from '../../shared/result.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-raw-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('readRawWindow', () => {
  it('returns the whole small file with truncated false', async () => {
    const file = join(dir, 'a.json');
    await writeFile(file, '{"a":1}');
    expect(await readRawWindow(file, file, 0, 1024)).toEqual({ path: file, size: 7, offset: 0, nextOffset: 7, text: '{"a":1}', truncated: false });
  });

  it('pages through a file without splitting multi-byte characters', async () => {
    const file = join(dir, 'utf8.txt');
    const content = 'héllo wörld — ünïcødé '.repeat(50);
    await writeFile(file, content);
    let offset = 0;
    let text = '';
    for (;;) {
      const w = await readRawWindow(file, file, offset, 7);
      expect(w.text).not.toContain('\uFFFD');
      text += w.text;
      offset = w.nextOffset;
      if (!w.truncated) break;
    }
    expect(text).toBe(content);
  });

  it('decompresses .gz files and windows over the decompressed text', async () => {
    const file = join(dir, 's.json.gz');
    await writeFile(file, gzipSync(Buffer.from('0123456789'.repeat(100))));
    const w = await readRawWindow(file, file, 5, 10);
    expect(w.text).toBe('5678901234');
    expect(w.truncated).toBe(true);
  });

  it('decompresses .zst files (Codex’s idle rollouts) and windows over the decompressed text to its end', async () => {
    const file = join(dir, 'rollout.jsonl.zst');
    const text = '{"n":0123456789}\n'.repeat(200);
    await writeFile(file, zstdCompressSync(Buffer.from(text)));
    expect(await readRawWindow(file, 'shown.jsonl.zst', 17, 16)).toMatchObject({ path: 'shown.jsonl.zst', text: '{"n":0123456789}', truncated: true });
    const last = await readRawWindow(file, file, text.length - 10, 1024);
    expect([last.text, last.truncated, last.nextOffset]).toEqual([text.slice(-10), false, text.length]);
  });

  it('reports a vanished file as NOT_FOUND', async () => {
    const err = await readRawWindow(join(dir, 'gone'), 'gone', 0, 10).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('NOT_FOUND');
  });
});
