// The normalized session.json as a stream of pieces: the same text as JSON.stringify(session, null, 2), one message at a time.
import type { Session } from '../../shared/session.ts';

/** Indents a pretty-printed value for its depth; JSON text never holds a raw line break inside a string. */
function nested(value: unknown, indent: string): string {
  return (JSON.stringify(value, null, 2) ?? 'null').replace(/\n/g, `\n${indent}`);
}

/**
 * Yields session.json piece by piece, so a session with a million messages never becomes one string.
 * The result is byte-for-byte `${JSON.stringify(session, null, 2)}\n`, what the vault writes for a kept copy.
 */
export function* sessionJsonPieces(session: Session): Generator<string> {
  const entries = Object.entries(session).filter(([, v]) => v !== undefined && typeof v !== 'function');
  yield '{';
  for (let i = 0; i < entries.length; i++) {
    const [key, value] = entries[i] as [string, unknown];
    const head = `${i ? ',' : ''}\n  ${JSON.stringify(key)}: `;
    if (Array.isArray(value) && value.length > 0) {
      yield `${head}[`;
      for (let j = 0; j < value.length; j++) yield `${j ? ',' : ''}\n    ${nested(value[j] === undefined ? null : value[j], '    ')}`;
      yield '\n  ]';
    } else {
      yield `${head}${nested(value, '  ')}`;
    }
  }
  yield entries.length ? '\n}\n' : '}\n';
}

/** session.json's pieces joined into Buffers of about `chunkChars` characters, so per-chunk costs downstream (hashing, scanning, deflate) stay small. */
export function* sessionJsonChunks(session: Session, chunkChars = 256 * 1024): Generator<Buffer> {
  let parts: string[] = [];
  let length = 0;
  for (const piece of sessionJsonPieces(session)) {
    parts.push(piece);
    length += piece.length;
    if (length >= chunkChars) {
      yield Buffer.from(parts.join(''), 'utf8');
      parts = [];
      length = 0;
    }
  }
  if (length) yield Buffer.from(parts.join(''), 'utf8');
}

/** yazl takes a whole entry of at most this many bytes; session.json cannot be larger. */
const MAX_BYTES = 0x3fffffff;

/**
 * Bytes appended into one buffer that grows in place (a resizable ArrayBuffer: address space reserved
 * once, memory committed as it fills), so neither a list of chunks nor a final copy is ever held beside it.
 */
export class GrowingBuffer {
  private readonly store = new ArrayBuffer(0, { maxByteLength: MAX_BYTES });
  private length = 0;

  append(chunk: Uint8Array): void {
    const need = this.length + chunk.length;
    if (need > MAX_BYTES) throw new RangeError(`session.json would exceed ${MAX_BYTES} bytes, the most a bundle entry can hold`);
    if (need > this.store.byteLength) this.store.resize(Math.min(MAX_BYTES, Math.max(need, Math.ceil((this.store.byteLength * 1.25) / 65536) * 65536)));
    new Uint8Array(this.store, this.length, chunk.length).set(chunk);
    this.length = need;
  }

  /**
   * The bytes: a Buffer over the whole of its own ArrayBuffer (still resizable; transferable as it is), safe
   * to transfer. Not transferToFixedLength, which copies. The GrowingBuffer is spent.
   */
  finish(): Buffer {
    this.store.resize(this.length);
    return Buffer.from(this.store, 0, this.length);
  }
}
