// A file's lines by byte position: numbered and parsed exactly as the JSONL reader numbers and parses them.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readJsonLines } from '../sources/jsonl.ts';
import { lineStarts, readRange, recordsOf } from './page-lines.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-page-lines-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

// A BOM, CRLF endings, a blank line, NUL padding, a line that is not JSON, a multi-byte character and a torn last line.
const LINES = [
  '\uFEFF{"type":"a","n":1}\r',
  '{"type":"token_count","n":2}',
  '',
  '\u0000\u0000\u0000',
  '{"type":"b","text":"caf\u00e9 \u{1F600}"}',
  'not json',
  '{"type":"token_count","n":7}\r',
  '{"type":"c","n":8}',
  '{"type":"d","n":9',
];

it('slices read back as the records the whole read gives for those lines, with their line numbers', async () => {
  const path = join(dir, 'f.jsonl');
  await writeFile(path, LINES.join('\n'));
  const whole = (await readJsonLines(path)).records;
  const wanted = [1, 2, 5, 7, 8, 9];
  const { starts, marked } = await lineStarts(path, wanted, '"token_count"');
  const size = Buffer.byteLength(LINES.join('\n'));
  const pieces = [];
  for (let k = 0; k < wanted.length; k++) {
    const bytes = await readRange(path, starts[k] as number, k + 1 < wanted.length ? (starts[k + 1] as number) : size);
    pieces.push(...recordsOf(bytes, wanted[k] as number));
  }
  expect(pieces).toEqual(whole);
  // The last marked line before each wanted line: none before line 2, line 2 up to line 7, then line 7 itself.
  const markedLines = marked.map((range) => (range ? recordsOf(Buffer.from(LINES.join('\n')).subarray(range[0], range[1]), 1)[0]?.value : null));
  expect(markedLines).toEqual([
    null,
    null,
    { type: 'token_count', n: 2 },
    { type: 'token_count', n: 2 },
    { type: 'token_count', n: 7 },
    { type: 'token_count', n: 7 },
  ]);
});

it('says so when the file has fewer lines than asked for', async () => {
  const path = join(dir, 'short.jsonl');
  await writeFile(path, '{"a":1}\n{"a":2}\n');
  await expect(lineStarts(path, [1, 5])).rejects.toThrow(/fewer lines than line 5/);
});
