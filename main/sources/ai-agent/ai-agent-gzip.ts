// Reads a gzipped JSON document (ai-agent snapshots) whole, with an exact reason for every way the gzip or JSON can be broken.
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { MAX_DOCUMENT_BYTES, type DocumentContext } from '../coerce.ts';
import { decodeText, parseJsonText } from '../decode.ts';
import { UnreadableError } from '../types.ts';
import { statPath } from '../file-bytes.ts';
import { cannotRead } from '../read-failure.ts';

const gunzipAsync = promisify(gunzip);
const MIB = 1024 * 1024;

/** Why zlib refused the bytes, in words that say what happened to the file. */
function gzipFailure(err: unknown): UnreadableError {
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError) {
    return new UnreadableError('too_large', `The snapshot decompresses to more than ${MAX_DOCUMENT_BYTES / MIB} MiB; it is not read.`);
  }
  const message = e.message ?? String(err);
  if (/incorrect data check/i.test(message)) {
    return new UnreadableError('invalid_encoding', 'The gzip data is corrupt: its CRC-32 checksum does not match (the file was damaged after it was written).');
  }
  if (/unexpected end of file/i.test(message)) {
    return new UnreadableError('invalid_encoding', 'The gzip stream ends early (unexpected end of file): the file was cut off while being written.');
  }
  return new UnreadableError('invalid_encoding', `The gzip data cannot be decompressed (${message}).`);
}

/**
 * Gunzips `bytes` (every member of a multi-member stream: zlib reads concatenated members) and
 * parses the JSON inside. Throws UnreadableError: empty_file, invalid_encoding, invalid_json, too_large.
 */
export async function parseGzipJson(bytes: Uint8Array): Promise<{ value: unknown; warnings: DocumentContext['warnings'] }> {
  if (bytes.length === 0) throw new UnreadableError('empty_file', 'File is empty (0 bytes): the snapshot was never written (the producer crashed?).');
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) {
    const first = bytes.find((b) => b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09);
    const hint = first === 0x7b ? ' It holds plain, uncompressed JSON under a .json.gz name.' : '';
    throw new UnreadableError('invalid_encoding', `Not gzip data: the file does not start with the gzip signature (1f 8b).${hint}`);
  }
  let plain: Buffer;
  try {
    plain = await gunzipAsync(bytes, { maxOutputLength: MAX_DOCUMENT_BYTES });
  } catch (err) {
    throw gzipFailure(err);
  }
  const { text, warnings } = decodeText(plain);
  return { value: parseJsonText(text), warnings };
}

/** Stats and reads one `.json.gz` document; the context carries size and mtime for sourceFiles and status. */
export async function readGzipDocument(absPath: string): Promise<{ value: unknown; ctx: DocumentContext }> {
  let bytes: Buffer;
  let mtimeMs: number;
  try {
    const info = await statPath(absPath);
    if (!info.isFile()) throw new UnreadableError('io_error', 'Not a regular file.');
    if (info.size > MAX_DOCUMENT_BYTES) {
      throw new UnreadableError('too_large', `File is ${Math.round(info.size / MIB)} MiB; snapshots over ${MAX_DOCUMENT_BYTES / MIB} MiB are not read.`);
    }
    mtimeMs = info.mtimeMs;
    bytes = await readFile(absPath);
  } catch (err) {
    if (err instanceof UnreadableError) throw err;
    throw cannotRead(err);
  }
  const { value, warnings } = await parseGzipJson(bytes);
  return { value, ctx: { path: absPath, size: bytes.length, mtimeMs, warnings } };
}
