// The raw record view: one JSONL line or one JSON-pointer target, pretty-printed and bounded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync, zstdCompressSync } from 'node:zlib';
import { readRawRecord, resolvePointer, RAW_RECORD_LIMIT } from './raw-record.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-rec-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('readRawRecord', () => {
  it('returns line N of a JSONL file pretty-printed, and of a gzipped one', async () => {
    const text = '{"type":"user","n":1}\n{"type":"assistant","n":2}\n';
    await writeFile(join(dir, 'a.jsonl'), text);
    await writeFile(join(dir, 'a.jsonl.gz'), gzipSync(text));
    const rec = await readRawRecord(join(dir, 'a.jsonl'), 'a.jsonl', { line: 2 });
    expect(rec).toEqual({ path: 'a.jsonl', text: '{\n  "type": "assistant",\n  "n": 2\n}', truncated: false });
    expect((await readRawRecord(join(dir, 'a.jsonl.gz'), 'a.jsonl.gz', { line: 1 })).text).toContain('"user"');
  });

  it('returns line N of a zstd JSONL file (a compressed Codex rollout), and says why a damaged one cannot be read', async () => {
    await writeFile(join(dir, 'r.jsonl.zst'), zstdCompressSync('{"type":"user","n":1}\n{"type":"assistant","n":2}\n'));
    expect(await readRawRecord(join(dir, 'r.jsonl.zst'), 'r.jsonl.zst', { line: 2 })).toEqual({
      path: 'r.jsonl.zst',
      text: '{\n  "type": "assistant",\n  "n": 2\n}',
      truncated: false,
    });
    await writeFile(join(dir, 'bad.jsonl.zst'), '{"type":"user"}\n');
    await expect(readRawRecord(join(dir, 'bad.jsonl.zst'), 'bad.jsonl.zst', { line: 1 })).rejects.toMatchObject({
      code: 'IO_ERROR',
      message: 'Cannot read bad.jsonl.zst: Unknown frame descriptor',
    });
  });

  it('shows a line that is not JSON as it is', async () => {
    await writeFile(join(dir, 'torn.jsonl'), '{"a":1}\n{"b":');
    expect((await readRawRecord(join(dir, 'torn.jsonl'), 't', { line: 2 })).text).toBe('{"b":');
  });

  it('resolves a JSON pointer, with ~1 and ~0 escapes', async () => {
    await writeFile(join(dir, 'doc.json'), JSON.stringify({ chat: [{ role: 'user' }, { role: 'assistant', 'a/b': { '~k': 7 } }] }));
    expect((await readRawRecord(join(dir, 'doc.json'), 'd', { pointer: '/chat/1/a~1b/~0k' })).text).toBe('7');
    expect(resolvePointer({ x: [1, 2] }, '/x/1')).toBe(2);
  });

  it('answers NOT_FOUND for a line or pointer that is not there', async () => {
    await expect(readRawRecord(join(dir, 'a.jsonl'), 'a', { line: 9 })).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'line' });
    await expect(readRawRecord(join(dir, 'doc.json'), 'd', { pointer: '/chat/5' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(readRawRecord(join(dir, 'doc.json'), 'd', { pointer: '/__proto__' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('cuts a record over the limit and says so', async () => {
    await writeFile(join(dir, 'big.jsonl'), `${JSON.stringify({ s: 'x'.repeat(RAW_RECORD_LIMIT + 10) })}\n`);
    const rec = await readRawRecord(join(dir, 'big.jsonl'), 'b', { line: 1 });
    expect(rec.truncated).toBe(true);
    expect(rec.text.length).toBe(RAW_RECORD_LIMIT);
  });
});
