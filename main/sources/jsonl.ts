// Reads JSON Lines files record by record (small ones whole, large ones streamed, compressed ones decompressed), surviving torn lines, NUL padding, BOMs, CRLF and huge lines.
import { isUtf8 } from 'node:buffer';
import type { Readable } from 'node:stream';
import { readFileUpTo } from './file-bytes.ts';
import { compressionOf, decompressError, eachChunk, isTrailingJunk, openStream, zstdWhole } from './compressed.ts';
import { releaseBytes } from '../workers/release-bytes.ts';
import type { Warning } from '../../shared/session.ts';
import { UnreadableError } from './types.ts';
import { WarningList } from './coerce.ts';
import { cannotRead } from './read-failure.ts';

export interface JsonLine {
  value: unknown;
  /** 1-based line number in the file, for the raw record view. */
  line: number;
}

export interface JsonLinesResult {
  /** Lines that parsed, in file order. */
  records: JsonLine[];
  warnings: Warning[];
  /** Bytes read (decompressed for .gz and .zst). */
  bytes: number;
}

const lenientUtf8 = new TextDecoder('utf-8', { fatal: false });

/** Large reads: a transcript is read once, front to back, and small chunks cost time in I/O round trips. */
const READ_CHUNK = 1024 * 1024;
/** A plain file up to this size is read whole in one call instead of streamed (most sessions are far smaller). */
const WHOLE_READ_MAX = 4 * 1024 * 1024;
/**
 * A zstd file up to this size is read whole and decompressed in one call, when it comes to at most WHOLE_READ_MAX
 * (most do: Codex's rollouts compress about 10 times); a larger one, or one that comes to more, is streamed.
 */
const WHOLE_ZSTD_MAX = 256 * 1024;

function isAllNul(bytes: Buffer): boolean {
  for (const b of bytes) if (b !== 0) return false;
  return true;
}

/**
 * Reads every line of a JSONL file (decompressing `.gz` and `.zst`). A line that does not parse is skipped with a
 * warning; a torn final line (no newline: the writer was killed mid-append) gets its own warning.
 * An empty file throws UnreadableError('empty_file'); a file with no parsable line throws 'invalid_json'; a
 * compressed file that does not decompress at all throws 'invalid_encoding'.
 */
/** Feeds every piece of `stream` to `feed`; the error that ended it early, or null. The stream is closed either way. */
async function feedStream(stream: Readable, feed: (chunk: Buffer) => void): Promise<unknown> {
  try {
    await eachChunk(stream, feed);
    return null;
  } catch (err) {
    return err;
  } finally {
    stream.destroy();
  }
}

export interface JsonLinesOptions {
  /**
   * A record the reader ignores, told from the line's raw bytes without parsing it: its stand-in value, or null to parse
   * the line. Claude Code's file-history-snapshot records are a quarter of a realistic transcript's bytes.
   */
  unparsed?: (line: Buffer) => Record<string, unknown> | null;
}

export async function readJsonLines(absPath: string, options: JsonLinesOptions = {}): Promise<JsonLinesResult> {
  const { unparsed } = options;
  const compression = compressionOf(absPath);
  let size: number;
  // A plain file up to WHOLE_READ_MAX comes back whole with its size, a zstd one up to WHOLE_ZSTD_MAX too (then
  // decompressed whole); larger or gzipped ones are streamed below.
  let whole: Buffer | null;
  try {
    ({ size, bytes: whole } = await readFileUpTo(absPath, compression === null ? WHOLE_READ_MAX : compression === 'zstd' ? WHOLE_ZSTD_MAX : 0));
  } catch (err) {
    throw cannotRead(err);
  }
  if (size === 0) throw new UnreadableError('empty_file', 'File is empty (0 bytes).');
  // Decompressed here, or (more than WHOLE_READ_MAX, damaged) streamed below: that shows what comes before the damage.
  if (whole && compression === 'zstd') {
    const compressed = whole;
    whole = zstdWhole(compressed, WHOLE_READ_MAX);
    releaseBytes(compressed);
  }

  const warnings = new WarningList();
  const records: JsonLine[] = [];
  let lineNo = 0;
  let bytes = 0;
  let firstBadLine: { line: number; message: string } | null = null;

  const handleLine = (raw: Buffer, terminated: boolean) => {
    lineNo++;
    let body = raw.length && raw[raw.length - 1] === 0x0d ? raw.subarray(0, raw.length - 1) : raw;
    if (lineNo === 1 && body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) {
      warnings.add('bom', 'File starts with a UTF-8 byte-order mark (ignored).');
      body = body.subarray(3);
    }
    if (body.length === 0) return;
    if (isAllNul(body)) {
      warnings.add('nul_padding', 'File contains runs of NUL bytes (space preallocated before a crash); they were skipped.');
      return;
    }
    const standIn = terminated && unparsed ? unparsed(body) : null;
    if (standIn) {
      records.push({ value: standIn, line: lineNo });
      return;
    }
    let text: string;
    // isUtf8 is a native check; toString is the fast decoder, but silently replaces bad bytes.
    if (isUtf8(body)) {
      text = body.toString('utf8');
    } else {
      warnings.add('invalid_utf8', 'Some lines contain bytes that are not valid UTF-8; they are shown as \uFFFD.');
      text = lenientUtf8.decode(body);
    }
    if (text.trim() === '') return;
    try {
      records.push({ value: JSON.parse(text), line: lineNo });
    } catch (err) {
      const message = (err as Error).message;
      firstBadLine ??= { line: lineNo, message };
      if (!terminated) {
        warnings.add('torn_line', `The last line (${lineNo}) is incomplete: the file was probably being written or the writer was killed. It was skipped.`);
      } else {
        warnings.add('invalid_line', `Line ${lineNo} is not valid JSON and was skipped (${message.slice(0, 120)}).`);
      }
    }
  };

  let pending: Buffer[] = [];
  const feed = (chunk: Buffer) => {
    bytes += chunk.length;
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl === -1) break;
      const piece = chunk.subarray(start, nl);
      handleLine(pending.length ? Buffer.concat([...pending, piece]) : piece, true);
      pending = [];
      start = nl + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  };

  if (whole) {
    feed(whole);
  } else {
    let failure = await feedStream(openStream(absPath, compression, READ_CHUNK), feed);
    // Node 24.22's zstd decoder reports bytes after the last frame before it hands over the frame's last output: read
    // again without the check, past what was fed, so that the junk costs none of the lines before it.
    if (failure !== null && isTrailingJunk(failure)) {
      const fed = bytes;
      let seen = 0;
      const rest = await feedStream(openStream(absPath, compression, READ_CHUNK, undefined, true), (chunk) => {
        const from = Math.max(0, fed - seen);
        seen += chunk.length;
        if (from < chunk.length) feed(from ? chunk.subarray(from) : chunk);
      });
      failure = rest ?? failure;
    }
    if (failure !== null) {
      const message = decompressError(failure);
      if (!records.length && !pending.length) {
        throw new UnreadableError('invalid_encoding', `Cannot decompress${compression === 'zstd' ? ' this zstd file' : ''}: ${message}`);
      }
      warnings.add('truncated_stream', `The file ends abruptly or is damaged (${message}); everything before that point is shown.`);
    }
  }
  if (pending.length) handleLine(Buffer.concat(pending), false);
  // Every line is parsed into values of its own: a whole-read file's bytes can go now.
  if (whole) releaseBytes(whole);

  if (!records.length) {
    if (lineNo === 0 || !firstBadLine) throw new UnreadableError('empty_file', 'File contains no records (only blank lines, whitespace or NUL bytes).');
    const bad = firstBadLine as { line: number; message: string };
    throw new UnreadableError('invalid_json', `No line of this file is valid JSON (line ${bad.line}: ${bad.message}).`);
  }
  return { records, warnings: warnings.list(), bytes };
}
