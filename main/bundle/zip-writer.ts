// The bundle's zip output over yazl: whole entries deflated in parallel (within a memory budget), or streamed chunk by chunk with backpressure.
import { DEFLATE_CHUNK_MAX_BYTES } from '../env/tuning.ts';
import { createRequire } from 'node:module';
import { PassThrough, Transform, type Writable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import zlib, { crc32 } from 'node:zlib';
import yazl from 'yazl';

type Crc32 = (data: unknown, previous?: unknown) => number;

/**
 * yazl checksums every byte it writes with buffer-crc32's `unsigned`, a table loop in JavaScript on the main
 * thread (about 70 ms for 16 MB here, a tenth of deflating it); zlib's native crc32 gives the same number in
 * 7 ms. This points that one function at zlib for the Buffer-and-number calls yazl makes, after checking on
 * a probe that both agree; anything else goes to the original. When yazl or buffer-crc32 cannot be found
 * this way (a bundle that inlined them), nothing changes but the speed.
 */
let crc32Patched: boolean | null = null;

/** Patches buffer-crc32 for yazl once (a ZipWriter asks before its first entry); true when zlib's crc32 is in use. */
export function useNativeCrc32(): boolean {
  crc32Patched ??= patchCrc32();
  return crc32Patched;
}

/**
 * Relies on yazl 3.3.1's internals (it requires buffer-crc32 and calls its `unsigned`): package.json pins yazl
 * exactly, and zip-writer.test.ts checks the patch takes, so an upgrade that changes them is noticed.
 */
function patchCrc32(): boolean {
  try {
    const fromYazl = createRequire(createRequire(import.meta.url).resolve('yazl'));
    const lib = fromYazl('buffer-crc32') as { unsigned: Crc32 & { native?: true } };
    if (lib.unsigned.native) return true;
    const original = lib.unsigned;
    const probe = Buffer.from('session-vault bundle \u00e9\u4e2d');
    if (original(probe) !== crc32(probe) || original(probe, 0x1234abcd) !== crc32(probe, 0x1234abcd)) return false;
    const native = Object.assign(
      (data: unknown, previous?: unknown) =>
        Buffer.isBuffer(data) && (previous === undefined || typeof previous === 'number') ? crc32(data, previous ?? 0) : original(data, previous),
      { native: true as const },
    );
    lib.unsigned = native;
    return true;
  } catch {
    return false;
  }
}

/**
 * Node's zlib.deflateRaw(buffer, callback) deflates on libuv's thread pool one output chunk at a time (16 KB
 * by default), each next chunk started from a callback on this thread. yazl calls deflateRaw with only a level;
 * for the call it makes inside `addBuffer`, the chunk is a quarter of the entry, from zlib's 16 KB up to
 * DEFLATE_CHUNK_MAX_BYTES, so a transcript deflates in one or two steps (env/tuning.ts has the measurements).
 */
function outputChunkFor(bytes: number): number {
  return Math.min(DEFLATE_CHUNK_MAX_BYTES, Math.max(16 * 1024, bytes >>> 2));
}

/** Runs `add` (a yazl addBuffer call) with zlib.deflateRaw deflating in chunks of `chunkSize`; restored before it returns. */
function withDeflateChunk(chunkSize: number, add: () => void): void {
  const original = zlib.deflateRaw;
  const larger = (buffer: zlib.InputType, options: zlib.ZlibOptions | zlib.CompressCallback, callback?: zlib.CompressCallback) =>
    typeof options === 'function' ? original(buffer, { chunkSize }, options) : original(buffer, { ...options, chunkSize }, callback as zlib.CompressCallback);
  zlib.deflateRaw = larger as typeof zlib.deflateRaw;
  try {
    add();
  } finally {
    zlib.deflateRaw = original;
  }
}

export interface ZipEntryOptions {
  mtime: Date;
  mode: number;
  /** 0 stores the bytes as they are (sources that are already gzip); 1–9 deflates at that level. */
  level: number;
}

/**
 * yazl's Entry as far as this file looks at it. A whole entry is deflated on libuv's thread pool; when that is
 * done yazl calls the entry's setFileDataPumpFunction with a function that writes the compressed bytes (its
 * state becomes READY_TO_PUMP_FILE_DATA, 1, and compressedSize is known), and its state reaches FILE_DATA_DONE
 * (3) once they are in the output. yazl keeps every entry until the zip ends (the central directory needs
 * them), and that pump function closes over the compressed bytes, so without help every deflated entry stays
 * in memory to the end.
 */
interface YazlEntry {
  state: number;
  compressedSize: number | null;
  doFileDataPump?: (() => void) | null;
  setFileDataPumpFunction(pump: () => void): void;
}
const FILE_DATA_DONE = 3;

/**
 * Entries go into the zip in the order they are added. A streamed entry (begin, data…, end) is deflated
 * as it is read, one at a time, so at most a stream buffer of it is in memory. A whole entry (`add`) is
 * deflated by yazl at once on libuv's thread pool, beside whatever else is being deflated: that is where
 * the export uses more than one core. Whole entries wait in memory, raw until deflated and then compressed
 * until their turn to be written, so `add` first waits until those already waiting hold less than `budget` bytes.
 */
export class ZipWriter {
  private readonly zip = new yazl.ZipFile();
  private readonly written: Promise<void>;
  private current: PassThrough | null = null;
  private readonly budget: number;
  /** Whole entries not yet in the output, oldest first, and the bytes each holds: as given until deflated, then compressed. */
  private readonly waiting: Array<{ entry: YazlEntry; bytes: number }> = [];
  private waitingBytes = 0;
  /** Stored entries' `onReleased`, run once the whole zip is out. */
  private readonly afterFinish: Array<() => void> = [];
  private wakers: Array<() => void> = [];

  constructor(out: Writable, signal?: AbortSignal, budget = 48 * 1024 * 1024) {
    useNativeCrc32();
    this.budget = budget;
    // Output is the sign that whole entries went out. yazl marks an entry done just after writing its
    // bytes, in the same turn, so the check runs once that turn is over.
    const watch = new Transform({
      transform: (chunk: Buffer, _enc, done) => {
        if (this.waiting.length) setImmediate(() => this.settle());
        done(null, chunk);
      },
    });
    this.written = pipeline(this.zip.outputStream, watch, out, signal ? { signal } : {});
    // A failure surfaces from finish() (or from the call that is waiting); never as an unhandled rejection.
    this.written.catch(() => undefined);
  }

  /** Bytes held by whole entries not yet written: as given until deflated (uncounted ones: none), then compressed. */
  get pendingBytes(): number {
    return this.waitingBytes;
  }

  /** Resolves when an entry of `bytes` may be added without the waiting entries exceeding the budget (always when none take any). */
  async room(bytes: number): Promise<void> {
    while (this.waitingBytes > 0 && this.waitingBytes + bytes > this.budget) {
      await Promise.race([new Promise<void>((resolve) => this.wakers.push(resolve)), this.written]);
    }
  }

  /**
   * Adds a whole entry; yazl deflates it now, in the background, and writes it in its turn. `counted`: false
   * for bytes the caller holds anyway (a session.json already in memory), which take no budget until they are
   * deflated. `onReleased` runs once `data` is no longer read, so its memory may be reused: as soon as it is
   * deflated (the compressed copy waits for its turn without it), or, for a stored entry (level 0), whose very
   * bytes yazl queues for the output stream, once the zip is finished.
   */
  add(name: string, data: Buffer, options: ZipEntryOptions, counted = true, onReleased?: () => void): void {
    withDeflateChunk(outputChunkFor(data.length), () => this.zip.addBuffer(data, name, this.entryOptions(options)));
    const entries = (this.zip as unknown as { entries: YazlEntry[] }).entries;
    const entry = entries[entries.length - 1];
    if (!entry || typeof entry.state !== 'number' || typeof entry.setFileDataPumpFunction !== 'function') {
      throw new Error('yazl no longer exposes its entries; the zip writer needs updating');
    }
    const waiting = { entry, bytes: counted ? data.length : 0 };
    this.waiting.push(waiting);
    this.waitingBytes += waiting.bytes;
    if (options.level === 0) {
      if (onReleased) this.afterFinish.push(onReleased);
      return;
    }
    // yazl hands over the compressed bytes' pump once deflateRaw is done; from then on only they are held.
    const setPump = entry.setFileDataPumpFunction;
    entry.setFileDataPumpFunction = (pump) => {
      setPump.call(entry, pump);
      const compressed = entry.compressedSize ?? 0;
      this.waitingBytes += compressed - waiting.bytes;
      waiting.bytes = compressed;
      onReleased?.();
      this.wake();
    };
  }

  begin(name: string, options: ZipEntryOptions): void {
    const stream = new PassThrough({ highWaterMark: 1024 * 1024 });
    this.current = stream;
    this.zip.addReadStream(stream, name, this.entryOptions(options));
  }

  async data(chunk: Buffer): Promise<void> {
    const stream = this.current;
    if (!stream) throw new Error('zip entry not begun');
    if (!stream.write(chunk)) await Promise.race([new Promise((resolve) => stream.once('drain', resolve)), this.written]);
  }

  /** Resolves once yazl has taken the whole entry. */
  async end(): Promise<void> {
    const stream = this.current;
    if (!stream) return;
    this.current = null;
    stream.end();
    await Promise.race([finished(stream), this.written]);
  }

  async finish(): Promise<void> {
    this.zip.end();
    await this.written;
    for (const release of this.afterFinish.splice(0)) release();
  }

  private entryOptions(options: ZipEntryOptions) {
    return { mtime: options.mtime, mode: options.mode, compress: options.level > 0, ...(options.level > 0 ? { compressionLevel: options.level } : {}) };
  }

  private settle(): void {
    let freed = false;
    while (this.waiting.length && (this.waiting[0]?.entry.state ?? 0) >= FILE_DATA_DONE) {
      const done = this.waiting.shift() as { entry: YazlEntry; bytes: number };
      // Written: let go of its bytes (yazl never pumps an entry twice).
      done.entry.doFileDataPump = null;
      this.waitingBytes -= done.bytes;
      freed = true;
    }
    if (freed) this.wake();
  }

  private wake(): void {
    if (!this.wakers.length) return;
    const wakers = this.wakers;
    this.wakers = [];
    for (const wake of wakers) wake();
  }
}
