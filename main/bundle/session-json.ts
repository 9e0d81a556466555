// The normalized session.json as a stream of pieces: the same text as JSON.stringify(session, null, 2), one message at a time.
import type { Session } from '../../shared/session.ts';

/**
 * A value pretty-printed as it stands `depth` levels deep: stringified inside `depth` arrays, which indent it
 * as JSON.stringify would there, and cut out of them (no second pass over the text to indent it).
 */
function nested(value: unknown, depth: number): string {
  let wrapped = value;
  for (let d = 0; d < depth; d++) wrapped = [wrapped];
  const text = JSON.stringify(wrapped, null, 2);
  // Level k (from 0) opens with "[\n" and 2(k+1) spaces, and closes with "\n", 2k spaces and "]".
  const head = depth * (depth + 3);
  const tail = depth * (depth + 1);
  return text.slice(head, text.length - tail);
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
      for (let j = 0; j < value.length; j++) {
        // Yielded apart, not joined in a template: a joined (cons) string encodes to UTF-8 some 20 times slower.
        yield j ? ',\n    ' : '\n    ';
        yield nested(value[j], 2);
      }
      yield '\n  ]';
    } else {
      yield head;
      yield nested(value, 1);
    }
  }
  yield entries.length ? '\n}\n' : '}\n';
}

/** yazl takes a whole entry of at most this many bytes; session.json cannot be larger. */
const MAX_BYTES = 0x3fffffff;

/** session.json's bytes, written piece by piece into one growing buffer (see GrowingBuffer), in `store` when one is given. */
export function sessionJsonBytes(session: Session, store?: ArrayBuffer): Buffer {
  const out = new GrowingBuffer(store);
  for (const piece of sessionJsonPieces(session)) out.appendText(piece);
  return out.finish();
}

/**
 * Stores whose bytes have been used (a session.json written into the zip), kept for the next GrowingBuffer:
 * memory already mapped is written many times faster than fresh pages (a 16 MB session.json took ~130 ms
 * to write into fresh memory here, most of it page faults). A few, of bounded size; any other is shrunk to nothing at once.
 */
export class StoreShelf {
  private readonly kept: ArrayBuffer[] = [];
  private readonly most: number;
  private readonly largest: number;

  constructor(most = 1, largest = 64 * 1024 * 1024) {
    this.most = most;
    this.largest = largest;
  }

  take(): ArrayBuffer | undefined {
    return this.kept.pop();
  }

  give(store: ArrayBuffer): void {
    if (!store.resizable || store.maxByteLength !== MAX_BYTES) return;
    if (this.kept.length < this.most && store.byteLength <= this.largest) this.kept.push(store);
    else store.resize(0);
  }
}

/**
 * Bytes appended into one buffer that grows in place (a resizable ArrayBuffer: address space reserved
 * once, memory committed as it fills), so neither a list of chunks nor a final copy is ever held beside it.
 */
export class GrowingBuffer {
  private readonly store: ArrayBuffer;
  /** A Buffer over the whole store, made again when it grows: Buffer#write encodes into it many times faster than TextEncoder#encodeInto into a view on a resizable store. */
  private view: Buffer;
  private length = 0;

  /** `store`: a used one to write over (from a StoreShelf), its capacity kept. */
  constructor(store?: ArrayBuffer) {
    this.store = store ?? new ArrayBuffer(0, { maxByteLength: MAX_BYTES });
    this.view = Buffer.from(this.store, 0, this.store.byteLength);
  }

  /** Makes room for `bytes` more (at most; the store grows by a quarter at a time, in 64 KiB steps). */
  private reserve(bytes: number): void {
    const need = this.length + bytes;
    if (need <= this.store.byteLength) return;
    if (need > MAX_BYTES) throw new RangeError(`session.json would exceed ${MAX_BYTES} bytes, the most a bundle entry can hold`);
    this.store.resize(Math.min(MAX_BYTES, Math.max(need, Math.ceil((this.store.byteLength * 1.25) / 65536) * 65536)));
    this.view = Buffer.from(this.store, 0, this.store.byteLength);
  }

  append(chunk: Uint8Array): void {
    this.reserve(chunk.length);
    this.view.set(chunk, this.length);
    this.length += chunk.length;
  }

  /** Appends `text` as UTF-8, encoded straight into the buffer (no Buffer of its own first). */
  appendText(text: string): void {
    this.reserve(text.length * 3); // the most UTF-8 bytes a UTF-16 code unit becomes
    this.length += this.view.write(text, this.length);
  }

  /**
   * The bytes: a Buffer from the start of its own ArrayBuffer (still resizable, its capacity kept for reuse;
   * pages never written take no memory), safe to transfer whole. Not transferToFixedLength, which copies.
   * The GrowingBuffer is spent.
   */
  finish(): Buffer {
    this.view = Buffer.alloc(0);
    return Buffer.from(this.store, 0, this.length);
  }
}
