// The JSONL reader against every kind of damage real transcripts show: torn lines, NULs, BOM, CRLF, huge lines, gzip.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Worker } from 'node:worker_threads';
import { once } from 'node:events';
import { readJsonLines } from './jsonl.ts';
import { UnreadableError } from './types.ts';
import { samplesDir } from '../test-support/samples.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-jsonl-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

async function file(name: string, content: string | Buffer): Promise<string> {
  const p = join(dir, name);
  await writeFile(p, content);
  return p;
}

const codes = (r: { warnings: Array<{ code: string }> }) => r.warnings.map((w) => w.code).sort();

describe('readJsonLines', () => {
  it('reads records with their line numbers, skipping blank lines', async () => {
    const r = await readJsonLines(await file('a.jsonl', '\n{"a":1}\n   \n{"b":2}\n'));
    expect(r.records).toEqual([
      { value: { a: 1 }, line: 2 },
      { value: { b: 2 }, line: 4 },
    ]);
    expect(r.warnings).toEqual([]);
  });

  it('gives a line the reader ignores its stand-in without parsing it, and parses a final line that was cut', async () => {
    const skip = (line: Buffer) => (line.subarray(0, 6).toString() === '{"x":1' ? { x: 'stand-in' } : null);
    const r = await readJsonLines(await file('standin.jsonl', '{"a":1}\n{"x":1, not json at all}\n{"b":2}\n{"x":1'), { unparsed: skip });
    expect(r.records).toEqual([
      { value: { a: 1 }, line: 1 },
      { value: { x: 'stand-in' }, line: 2 },
      { value: { b: 2 }, line: 3 },
    ]);
    expect(codes(r)).toEqual(['torn_line']);
  });

  it('keeps every record before a torn final line and says the last line was cut', async () => {
    const r = await readJsonLines(await file('torn.jsonl', '{"a":1}\n{"b":2}\n{"c":'));
    expect(r.records.map((x) => x.value)).toEqual([{ a: 1 }, { b: 2 }]);
    expect(codes(r)).toEqual(['torn_line']);
    expect(r.warnings[0]?.message).toContain('line (3) is incomplete');
  });

  it('skips one bad line in the middle, not the rest of the file', async () => {
    const r = await readJsonLines(await file('mid.jsonl', '{"a":1}\n{"b":\n{"c":3}\n'));
    expect(r.records.map((x) => x.line)).toEqual([1, 3]);
    expect(codes(r)).toEqual(['invalid_line']);
  });

  it('handles CRLF, a BOM, NUL padding and invalid UTF-8 with warnings', async () => {
    const content = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('{"a":"x"}\r\n{"b":"'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}\r\n'),
      Buffer.alloc(64, 0),
    ]);
    const r = await readJsonLines(await file('mixed.jsonl', content));
    expect(r.records.map((x) => x.value)).toEqual([{ a: 'x' }, { b: '\uFFFD\uFFFD' }]);
    expect(codes(r)).toEqual(['bom', 'invalid_utf8', 'nul_padding']);
  });

  it('reads a 3 MB single line whole', async () => {
    const big = 'y'.repeat(3 * 1024 * 1024);
    const r = await readJsonLines(await file('huge.jsonl', `{"a":1}\n{"big":"${big}"}\n{"c":3}\n`));
    expect(r.records).toHaveLength(3);
    expect((r.records[1]?.value as { big: string }).big.length).toBe(big.length);
  });

  it('streams a file past the whole-read size, lines crossing its 1 MB reads, a torn end included', async () => {
    const line = (i: number) => JSON.stringify({ i, text: 'z'.repeat(i % 7 === 0 ? 1_500_000 : 30_000) });
    const lines = Array.from({ length: 60 }, (_, i) => line(i));
    const content = `${lines.join('\n')}\n{"cut":`;
    expect(Buffer.byteLength(content)).toBeGreaterThan(4 * 1024 * 1024);
    const r = await readJsonLines(await file('long.jsonl', content));
    expect(r.records.map((x) => (x.value as { i: number }).i)).toEqual(lines.map((_, i) => i));
    expect(r.records.map((x) => x.line)).toEqual(lines.map((_, i) => i + 1));
    expect(codes(r)).toEqual(['torn_line']);
    expect(r.bytes).toBe(Buffer.byteLength(content));
  });

  it('reads the same records in a worker thread, where a small file is read in one blocking call', async () => {
    const content = Buffer.concat([Buffer.from('{"a":1}\r\n\n{"b":"'), Buffer.from([0xff]), Buffer.from('"}\n{"c":')]);
    const path = await file('in-worker.jsonl', content);
    const here = await readJsonLines(path);
    const module = join(import.meta.dirname, 'jsonl.ts');
    const code = `
      const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads');
      import(workerData.module).then(async ({ readJsonLines }) => {
        const read = await readJsonLines(workerData.path);
        let missing = null;
        try { await readJsonLines(workerData.path + '.gone'); } catch (err) { missing = err.code + ': ' + err.message; }
        parentPort.postMessage({ read, missing });
      });
    `;
    const worker = new Worker(code, { eval: true, workerData: { module, path } });
    const [there] = (await once(worker, 'message')) as [{ read: unknown; missing: string }];
    await worker.terminate();
    expect(there.read).toEqual(here);
    expect(codes(here)).toEqual(['invalid_utf8', 'torn_line']);
    expect(there.missing).toMatch(/^io_error: Cannot read file/);
  });

  it('gunzips .gz files and keeps what decompressed before a cut stream', async () => {
    const whole = gzipSync(Buffer.from('{"a":1}\n{"b":2}\n'.repeat(2000)));
    expect((await readJsonLines(await file('ok.jsonl.gz', whole))).records).toHaveLength(4000);
    const cut = await readJsonLines(await file('cut.jsonl.gz', whole.subarray(0, Math.floor(whole.length * 0.8))));
    expect(cut.records.length).toBeGreaterThan(0);
    expect(codes(cut)).toContain('truncated_stream');
  });

  it('refuses an empty or all-garbage file with a reason', async () => {
    await expect(readJsonLines(await file('empty.jsonl', ''))).rejects.toMatchObject({ code: 'empty_file' });
    await expect(readJsonLines(await file('blank.jsonl', '\n \n\0\0\n'))).rejects.toMatchObject({ code: 'empty_file' });
    const garbage = await readJsonLines(await file('html.jsonl', '<html>\n<body>oops</body>\n')).catch((e: unknown) => e);
    expect(garbage).toBeInstanceOf(UnreadableError);
    expect((garbage as UnreadableError).message).toContain('No line of this file is valid JSON (line 1');
  });
});

describe('readJsonLines on the shared malformed samples', () => {
  const m = (name: string) => join(samplesDir, 'malformed', name);
  it.each([
    ['torn_last_line__claude_code.jsonl', 2, ['torn_line']],
    ['torn_last_line_then_newline__codex_rollout.jsonl', null, ['invalid_line']],
    ['nul_bytes_padding__codex_rollout.jsonl', 1, ['nul_padding']],
    ['crlf_line_endings__claude_code.jsonl', null, []],
    ['utf8_bom__claude_code.jsonl', null, ['bom']],
    ['blank_lines_between_records__claude_code.jsonl', null, []],
    ['invalid_utf8_bytes__claude_code.jsonl', null, ['invalid_utf8']],
    ['huge_single_line_2MB__codex_rollout.jsonl', 3, []],
    ['torn_tail_last_line__deepseek_harness_v3.jsonl', null, ['torn_line']],
  ] as const)('%s', async (name, count, expected) => {
    const r = await readJsonLines(m(name));
    if (count !== null) expect(r.records).toHaveLength(count);
    expect(r.records.length).toBeGreaterThan(0);
    expect(codes(r)).toEqual([...expected]);
  });

  it('zero_byte__rollout.jsonl is unreadable: empty', async () => {
    await expect(readJsonLines(m('zero_byte__rollout.jsonl'))).rejects.toMatchObject({ code: 'empty_file' });
  });
});
