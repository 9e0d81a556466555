// Session files an agent keeps compressed (Codex's idle rollouts as `rollout-*.jsonl.zst`, gzip `.gz` files): how a file is compressed, and the stream that decompresses it (a compressed file's plain twin: catalogue/walk-rules.ts).
import { createReadStream } from 'node:fs';
import { createGunzip, createZstdDecompress, zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import type { Readable, Transform } from 'node:stream';
import { ZSTD_EXPANSION } from '../env/tuning.ts';

export type Compression = 'gzip' | 'zstd';

/** How a session file is compressed, by its name as the agents write it (`.gz`, `.zst`); null for a plain file. */
export function compressionOf(path: string): Compression | null {
  if (path.endsWith('.gz')) return 'gzip';
  if (path.endsWith('.zst')) return 'zstd';
  return null;
}

/**
 * A zstd decompressor's output pieces: a 200 MB rollout comes out in 200 pieces, not the default 12,800 of 16 KB
 * (each one a trip through libuv's thread pool).
 */
const OUT_CHUNK = 1024 * 1024;

/**
 * The stream that decompresses a file of this kind (a zstd one in pieces of `chunkSize`). Node's zstd decoder before
 * 24.22 stops at the end of the first frame and silently drops any that follow (nodejs/node#64741); Codex writes one
 * frame per file, and anything after it (there, concatenated frames; on any Node, trailing bytes that are no frame) is
 * reported as an error instead of lost unsaid.
 */
export function decompressor(kind: Compression, chunkSize = OUT_CHUNK, lenient = false): Transform {
  return kind === 'gzip' ? createGunzip() : createZstdDecompress({ chunkSize, rejectGarbageAfterEnd: !lenient });
}

/** The decompressor found bytes after the file's last frame that are no frame (a `lenient` one reads past them unsaid). */
export const isTrailingJunk = (err: unknown): boolean => (err as NodeJS.ErrnoException | null)?.code === 'ERR_TRAILING_JUNK_AFTER_STREAM_END';

/**
 * A file's bytes as a stream, decompressed when `kind` says (`chunkSize`: the decompressor's pieces; `lenient`: bytes
 * after the last zstd frame are ignored, not an error). A read error of the file fails the stream, and destroying the
 * stream closes the file.
 */
export function openStream(path: string, kind: Compression | null, highWaterMark: number, chunkSize?: number, lenient = false): Readable {
  const source = createReadStream(path, { highWaterMark });
  if (kind === null) return source;
  const stream = decompressor(kind, chunkSize, lenient);
  source.on('error', (err) => stream.destroy(err));
  stream.once('close', () => source.destroy());
  return source.pipe(stream);
}

/**
 * Hands each piece of `stream` to `each` until the stream ends or `each` returns false (then resolves), or the stream
 * fails (then rejects, every piece that came before the failure given). An async iterator would drop the pieces still
 * buffered when the error comes: a decompressor that finds damage right after a frame's last block gives that block
 * and its error together.
 */
export function eachChunk(stream: Readable, each: (chunk: Buffer) => boolean | void): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (err?: unknown) => {
      if (settled) return;
      settled = true;
      stream.off('data', onData);
      if (err === undefined) resolve();
      else reject(err instanceof Error ? err : new Error(String(err)));
    };
    const onData = (chunk: Buffer) => {
      try {
        if (each(chunk) === false) settle();
      } catch (err) {
        settle(err);
      }
    };
    stream.on('data', onData);
    stream.once('end', () => settle());
    stream.once('error', settle);
  });
}

/**
 * A zstd file's bytes decompressed in one call, when they come to at most `max` bytes; null when they would be more,
 * or when they cannot be decompressed whole (damaged, cut short: the stream then shows what comes before the damage).
 */
export function zstdWhole(bytes: Buffer, max: number): Buffer | null {
  try {
    return zstdDecompressSync(bytes, { maxOutputLength: max, rejectGarbageAfterEnd: true });
  } catch {
    return null;
  }
}

/** Whether this Node's zstd decoder reads on past a file's first frame (24.22 and later: nodejs/node#64741). */
export const decodesEveryFrame: boolean = (() => {
  try {
    return zstdDecompressSync(Buffer.concat([zstdCompressSync('a'), zstdCompressSync('b')]), { rejectGarbageAfterEnd: true }).toString() === 'ab';
  } catch {
    return false;
  }
})();

/** Why a decompressor failed, in words: a zstd file with something after its frames says so. */
export function decompressError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (isTrailingJunk(err))
    return decodesEveryFrame
      ? 'bytes that are no zstd frame follow the compressed data'
      : 'bytes follow the end of the first zstd frame (concatenated frames are not read)';
  return e.message;
}

/**
 * What reading a file takes in, for where it is read and how long it is kept parsed: a zstd file's lines (a Codex
 * rollout idle for a week) come to about ZSTD_EXPANSION times its size on disk, any other file's to its size.
 */
export function parseBytes(path: string, size: number): number {
  return compressionOf(path) === 'zstd' ? size * ZSTD_EXPANSION : size;
}
