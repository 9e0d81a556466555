// Reads a window of a session's source file for the raw view (decompressed when the file is gzip or zstd).
import { open, stat } from 'node:fs/promises';
import { compressionOf, eachChunk, openStream, type Compression } from '../sources/compressed.ts';
import type { RawSource } from '../../shared/api.ts';
import { AppError } from '../../shared/result.ts';

async function readPlain(path: string, offset: number, length: number): Promise<{ bytes: Buffer; size: number }> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const want = Math.max(0, Math.min(length, size - offset));
    const bytes = Buffer.alloc(want);
    const { bytesRead } = await handle.read(bytes, 0, want, offset);
    return { bytes: bytes.subarray(0, bytesRead), size };
  } finally {
    await handle.close();
  }
}

/** For compressed files the window is over the decompressed stream; reading stops once it is filled. */
async function readCompressed(path: string, kind: Compression, offset: number, length: number): Promise<{ bytes: Buffer; more: boolean }> {
  const chunks: Buffer[] = [];
  let position = 0;
  let collected = 0;
  // Lenient: bytes after the last zstd frame cost none of the text before them (the session's read warns of them).
  const stream = openStream(path, kind, 64 * 1024, undefined, true);
  try {
    await eachChunk(stream, (chunk) => {
      const start = Math.max(0, offset - position);
      position += chunk.length;
      if (start >= chunk.length) return true;
      const piece = chunk.subarray(start, start + (length - collected));
      chunks.push(piece);
      collected += piece.length;
      return collected < length;
    });
  } catch (err) {
    if (!chunks.length) throw err;
    // A corrupt tail still lets the user see what did decompress.
  } finally {
    stream.destroy();
  }
  return { bytes: Buffer.concat(chunks), more: collected >= length };
}

/** Drops a UTF-8 sequence cut at the window's end, so the next window starts on a character. */
export function completeUtf8Length(bytes: Buffer): number {
  const end = bytes.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const b = bytes[end - back] ?? 0;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? end - back : end;
  }
  return end;
}

export async function readRawWindow(realPath: string, shownPath: string, offset: number, length: number): Promise<RawSource> {
  try {
    const kind = compressionOf(realPath);
    if (kind) {
      const { size } = await stat(realPath);
      const { bytes, more } = await readCompressed(realPath, kind, offset, length);
      const keep = more ? completeUtf8Length(bytes) : bytes.length;
      return { path: shownPath, size, offset, nextOffset: offset + keep, text: bytes.subarray(0, keep).toString('utf8'), truncated: more };
    }
    const { bytes, size } = await readPlain(realPath, offset, length);
    const more = offset + bytes.length < size;
    const keep = more ? completeUtf8Length(bytes) : bytes.length;
    return { path: shownPath, size, offset, nextOffset: offset + keep, text: bytes.subarray(0, keep).toString('utf8'), truncated: more };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') throw new AppError('NOT_FOUND', `The source file no longer exists: ${shownPath}`);
    throw new AppError('IO_ERROR', `Cannot read ${shownPath}: ${e.message}`);
  }
}
