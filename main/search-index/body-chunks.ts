// A session's indexed transcript text stored in 32 KB pieces, so a snippet reads the piece holding its match, not megabytes.
import { MESSAGE_SEPARATOR } from './index-text.ts';

/** Bytes per piece (cut back to a character boundary). A snippet of a match deep in a 2 MB body reads one or two. */
export const CHUNK_BYTES = 32 * 1024;
/**
 * Row ids of a file's pieces: fileId * CHUNK_SLOTS + n, so one rowid range reads them in order. The body is capped
 * at BODY_CAP (2 M UTF-16 units, at most 6 MB of UTF-8), far below CHUNK_SLOTS pieces.
 */
export const CHUNK_SLOTS = 1024;

export const firstChunkRowid = (fileId: number) => fileId * CHUNK_SLOTS;

export interface BodyChunk {
  n: number;
  /** Index of the message this piece starts in (messages are joined by MESSAGE_SEPARATOR). */
  firstMessage: number;
  bytes: Uint8Array;
}

const SEPARATOR_BYTE = MESSAGE_SEPARATOR.charCodeAt(0);
const encoder = new TextEncoder();

/** Cuts the body's UTF-8 bytes into pieces of at most CHUNK_BYTES, never inside a character; views, not copies. */
export function bodyChunks(body: string | Uint8Array): BodyChunk[] {
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  const chunks: BodyChunk[] = [];
  let message = 0;
  for (let start = 0, n = 0; start < bytes.length && n < CHUNK_SLOTS; n++) {
    let end = Math.min(bytes.length, start + CHUNK_BYTES);
    // Back off continuation bytes (10xxxxxx) so the next piece starts a character.
    while (end < bytes.length && end > start + 1 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
    const piece = bytes.subarray(start, end);
    chunks.push({ n, firstMessage: message, bytes: piece });
    start = end;
    // Only a next piece needs the count: most sessions are one piece, whose separators were counted for nothing
    // (10,000 OpenCode sessions, 10,320 pieces: ~60-90 ms of the writer thread's CPU).
    if (start >= bytes.length || n + 1 >= CHUNK_SLOTS) break;
    for (let i = piece.indexOf(SEPARATOR_BYTE); i !== -1; i = piece.indexOf(SEPARATOR_BYTE, i + 1)) message++;
  }
  return chunks;
}
