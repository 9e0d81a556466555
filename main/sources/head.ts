// A file's head: its first 64 KB (of a zstd file, decompressed), read once and bounded, with the first JSONL records and a JSON document's top-level keys.
import { closeSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { isMainThread } from 'node:worker_threads';
import { isRecord } from './coerce.ts';
import { compressionOf, eachChunk, openStream } from './compressed.ts';

/** How much of a file recognition may read: never the whole file. */
export const HEAD_BYTES = 64 * 1024;
/** How many complete JSONL records recognition looks at. */
const HEAD_RECORDS = 8;

const workerBuffer = isMainThread ? Buffer.alloc(0) : Buffer.allocUnsafe(HEAD_BYTES);

/**
 * A file's head: its first `bytes` (at most HEAD_BYTES), read blocking in a worker (see file-bytes.ts) into one
 * reused buffer, asynchronously on the main thread. Of a `.zst` file, its first `bytes` decompressed.
 */
export async function readHead(path: string, bytes: number = HEAD_BYTES): Promise<Head> {
  const want = Math.min(bytes, HEAD_BYTES);
  if (compressionOf(path) === 'zstd') return zstdHead(path, want);
  if (!isMainThread) {
    // Decoded before returning, so the next head read may reuse the buffer.
    const fd = openSync(path, 'r');
    try {
      return Head.fromBytes(workerBuffer.subarray(0, readSync(fd, workerBuffer, 0, want, 0)), want);
    } finally {
      closeSync(fd);
    }
  }
  const buffer = Buffer.allocUnsafe(want);
  const handle = await open(path, 'r');
  try {
    const { bytesRead } = await handle.read(buffer, 0, want, 0);
    return Head.fromBytes(buffer.subarray(0, bytesRead), want);
  } finally {
    await handle.close();
  }
}

/**
 * The first `want` bytes a zstd file decompresses to, decompressing no further than the blocks that hold them (a
 * block is at most 128 KB). A file damaged or cut short gives what came out before the damage.
 */
async function zstdHead(path: string, want: number): Promise<Head> {
  // Lenient: bytes after the frames cost no head (Node 24.22 reports them before the frame's last output).
  const stream = openStream(path, 'zstd', 16 * 1024, want, true);
  const chunks: Buffer[] = [];
  let got = 0;
  try {
    await eachChunk(stream, (chunk) => {
      chunks.push(chunk);
      got += chunk.length;
      return got < want;
    });
  } catch (err) {
    if (!got) throw err;
  } finally {
    stream.destroy();
  }
  return Head.fromBytes(Buffer.concat(chunks).subarray(0, want), want);
}

export class Head {
  readonly text: string;
  /** True when the head could be JSON or JSONL at all (every format recognised by content is). */
  get startsLikeJson(): boolean {
    return /^\s*\{/.test(this.text);
  }

  /** True when the head is the whole file. */
  readonly complete: boolean;
  private readonly parsed: Record<string, unknown>[] = [];
  /** Where the next line to parse starts; -1 once the head has no more whole lines. */
  private cursor = 0;
  private parsedDocument: Record<string, unknown> | null | undefined = undefined;

  constructor(text: string, complete: boolean) {
    // A BOM and NUL padding (seen in real files) are not content.
    this.text = text.replace(/^\uFEFF/, '').replace(/^\0+/, '');
    this.complete = complete;
  }

  /** `asked`: how many bytes were asked for; fewer came back only when the file ended first (the head is the whole file). */
  static fromBytes(bytes: Buffer, asked: number = HEAD_BYTES): Head {
    return new Head(bytes.toString('utf8'), bytes.length < asked);
  }

  /** The first `max` (at most 8) lines that are whole JSON objects, parsed only as far as asked (a cut or torn line is skipped). */
  records(max = HEAD_RECORDS): Record<string, unknown>[] {
    const want = Math.min(max, HEAD_RECORDS);
    while (this.parsed.length < want && this.cursor >= 0) {
      const end = this.text.indexOf('\n', this.cursor);
      if (end < 0 && !this.complete) break; // the last line is cut at HEAD_BYTES
      const line = this.text.slice(this.cursor, end < 0 ? undefined : end).trim();
      this.cursor = end < 0 ? -1 : end + 1;
      if (!line.startsWith('{') || !line.endsWith('}')) continue; // a pretty-printed document's lines are no records
      try {
        const value: unknown = JSON.parse(line);
        if (isRecord(value)) this.parsed.push(value);
      } catch {
        // torn or cut line: the next one may be whole
      }
    }
    return this.parsed.slice(0, want);
  }

  /**
   * A JSON document's top-level object: parsed whole when the head is the file; for a longer file, the
   * top-level keys with the values that are scalars, found by a scan of the head (values cut off are left out).
   */
  document(): Record<string, unknown> | null {
    if (this.parsedDocument !== undefined) return this.parsedDocument;
    // Two whole records on lines of their own: JSONL, not one document.
    if (this.records(2).length >= 2) this.parsedDocument = null;
    else this.parsedDocument = this.complete ? wholeDocument(this.text) : topLevelScalars(this.text);
    return this.parsedDocument;
  }
}

function wholeDocument(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : null;
  } catch {
    return topLevelScalars(text);
  }
}

/** Top-level keys of a (possibly cut) JSON object; scalar values kept, a nested one as an empty array or object. */
export function topLevelScalars(text: string): Record<string, unknown> | null {
  const start = text.search(/\S/);
  if (start < 0 || text[start] !== '{') return null;
  const out: Record<string, unknown> = {};
  const key = /\s*"((?:[^"\\]|\\.)*)"\s*:\s*/y;
  const scalar = /("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/y;
  let i = start + 1;
  while (i < text.length) {
    key.lastIndex = i;
    const k = key.exec(text);
    if (!k) return Object.keys(out).length ? out : null;
    i = key.lastIndex;
    scalar.lastIndex = i;
    const s = scalar.exec(text);
    let name: string;
    let value: unknown;
    try {
      name = JSON.parse(`"${k[1]}"`) as string;
      // A string the file breaks off in (a line cut mid-write) can run on to the next quote, over raw newlines.
      value = s ? (JSON.parse(s[1]!) as unknown) : undefined;
    } catch {
      return out;
    }
    if (s) {
      out[name] = value;
      i = scalar.lastIndex;
    } else {
      out[name] = text[i] === '[' ? [] : {};
      i = skipValue(text, i);
      if (i < 0) return out;
    }
    const sep = /\s*([,}])/y;
    sep.lastIndex = i;
    const m = sep.exec(text);
    if (!m || m[1] === '}') return out;
    i = sep.lastIndex;
  }
  return out;
}

/** The index after a nested object or array starting at `i`, or -1 when the head ends inside it. */
function skipValue(text: string, i: number): number {
  let depth = 0;
  let inString = false;
  for (; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}
