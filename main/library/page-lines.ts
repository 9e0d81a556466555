// A big JSONL session's lines by byte position: where given lines start, and a slice of the file read back as records.
import { open } from 'node:fs/promises';
import { isUtf8 } from 'node:buffer';
import type { JsonLine } from '../sources/jsonl.ts';

const CHUNK = 1024 * 1024;
const lenientUtf8 = new TextDecoder('utf-8', { fatal: false });

function isAllNul(bytes: Buffer): boolean {
  for (const b of bytes) if (b !== 0) return false;
  return true;
}

/** How far into a line a marker is looked for. */
const HEAD_BYTES = 256;

export interface LineStarts {
  /** The byte offset where each wanted line starts. */
  starts: number[];
  /** For each wanted line, the byte range [start, end) of the last line before it whose head holds the marker, if any. */
  marked: ([number, number] | null)[];
}

/**
 * Where each wanted line starts (1-based line numbers, ascending), counting lines the way `sources/jsonl.ts` does:
 * every `\n` ends one; with `marker`, also the last line before each whose first bytes hold it. One pass over the
 * file, 1 MB at a time (a marker in a head cut by a chunk's end is missed: the page then just reads back differently).
 */
export async function lineStarts(path: string, wanted: readonly number[], marker?: string): Promise<LineStarts> {
  const starts: number[] = [];
  const marked: ([number, number] | null)[] = [];
  if (!wanted.length) return { starts, marked };
  const mark = marker ? Buffer.from(marker) : null;
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK);
    let line = 1;
    let position = 0;
    let next = 0;
    let lastMarked: [number, number] | null = null;
    let markedStart = -1;
    const lineBegins = (at: number, offset: number) => {
      if (line === wanted[next]) {
        starts[next] = position + at;
        marked[next++] = lastMarked;
      }
      if (!mark) return;
      const head = buffer.subarray(at, Math.min(at + HEAD_BYTES, offset));
      const own = head.indexOf(0x0a);
      if ((own === -1 ? head : head.subarray(0, own)).includes(mark)) markedStart = position + at;
    };
    const first = await handle.read(buffer, 0, CHUNK, 0);
    let bytesRead = first.bytesRead;
    if (bytesRead > 0) lineBegins(0, bytesRead);
    while (next < wanted.length && bytesRead > 0) {
      let from = 0;
      for (;;) {
        const nl = buffer.indexOf(0x0a, from);
        if (nl === -1 || nl >= bytesRead) break;
        if (markedStart >= 0) lastMarked = [markedStart, position + nl + 1];
        markedStart = -1;
        line++;
        from = nl + 1;
        if (from < bytesRead) lineBegins(from, bytesRead);
        else if (line === wanted[next]) {
          // The line begins exactly at the chunk's end: its head is in the next chunk (not looked at for the marker).
          starts[next] = position + from;
          marked[next++] = lastMarked;
        }
        if (next === wanted.length) break;
      }
      position += bytesRead;
      if (next < wanted.length) bytesRead = (await handle.read(buffer, 0, CHUNK, position)).bytesRead;
    }
  } finally {
    await handle.close();
  }
  if (starts.length !== wanted.length) throw new Error(`The file has fewer lines than line ${wanted[starts.length]}.`);
  return { starts, marked };
}

/** Reads bytes [start, end) of a file. */
export async function readRange(path: string, start: number, end: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const bytes = Buffer.allocUnsafe(end - start);
    let filled = 0;
    while (filled < bytes.length) {
      const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, start + filled);
      if (bytesRead === 0) throw new Error(`The file ended at byte ${start + filled}, before byte ${end}.`);
      filled += bytesRead;
    }
    return bytes;
  } finally {
    await handle.close();
  }
}

/**
 * A slice of a JSONL file as the records `readJsonLines` would give for those lines (`firstLine`: the number of
 * the slice's first line). Lines that do not parse are skipped, as there; their warnings are the full read's.
 */
export function recordsOf(bytes: Buffer, firstLine: number): JsonLine[] {
  const records: JsonLine[] = [];
  let line = firstLine;
  let start = 0;
  while (start <= bytes.length) {
    const nl = bytes.indexOf(0x0a, start);
    const end = nl === -1 ? bytes.length : nl;
    if (nl === -1 && start === bytes.length) break;
    let body = bytes.subarray(start, end);
    if (body.length && body[body.length - 1] === 0x0d) body = body.subarray(0, body.length - 1);
    if (line === 1 && body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) body = body.subarray(3);
    if (body.length && !isAllNul(body)) {
      const text = isUtf8(body) ? body.toString('utf8') : lenientUtf8.decode(body);
      if (text.trim() !== '') {
        try {
          records.push({ value: JSON.parse(text), line });
        } catch {
          // Skipped, as the full read skips it (and warns once for the session).
        }
      }
    }
    if (nl === -1) break;
    line++;
    start = nl + 1;
  }
  return records;
}
