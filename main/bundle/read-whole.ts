// Whole source files read into a few large buffers reused from file to file, mapped for themselves rather than taken from glibc's heap.
import { open } from 'node:fs/promises';

/** Capacities are whole mebibytes, so files of similar sizes reuse each other's buffers. */
const STEP = 1024 * 1024;

/**
 * A buffer of `size` bytes whose memory V8 maps for it alone (a resizable ArrayBuffer is reserved and
 * committed page by page) and unmaps when it is collected. A plain Buffer of 16 MB comes from malloc, and
 * once one such block has been freed glibc serves the next ones from its heap, which it keeps: an export
 * reading a 16 MB transcript after another grew the process by tens of megabytes that way.
 */
function mappedBuffer(size: number): Buffer {
  const store = new ArrayBuffer(size, { maxByteLength: Math.max(size, 1) });
  return Buffer.from(store, 0, size);
}

/**
 * Gives a mapped buffer's memory back to the system now (a resizable ArrayBuffer shrunk to nothing), rather
 * than when the collector next runs: the main thread's heap is small, so that may be many megabytes later.
 * Every view on it reads as empty after. A buffer from malloc is left to the collector.
 */
export function unmap(view: Uint8Array): void {
  const store = view.buffer;
  if (store instanceof ArrayBuffer && store.resizable) store.resize(0);
}

/**
 * Hands out buffers of at least the size asked for and takes them back once their bytes are no longer
 * needed; up to `keepBytes` of returned buffers are kept for the next request, the rest are let go.
 * Reusing them spares a fresh mapping (and its page faults) per file.
 */
export class BufferPool {
  private readonly keepBytes: number;
  private free: Buffer[] = [];
  private freeBytes = 0;

  constructor(keepBytes: number) {
    this.keepBytes = keepBytes;
  }

  /** A buffer of exactly `size` bytes, a view on a pooled (or new) one; its contents are whatever was there. */
  take(size: number): Buffer {
    let best = -1;
    for (let i = 0; i < this.free.length; i++) {
      const capacity = (this.free[i] as Buffer).length;
      if (capacity >= size && (best === -1 || capacity < (this.free[best] as Buffer).length)) best = i;
    }
    if (best === -1) return mappedBuffer(Math.max(STEP, Math.ceil(size / STEP) * STEP)).subarray(0, size);
    const [whole] = this.free.splice(best, 1) as [Buffer];
    this.freeBytes -= whole.length;
    return whole.subarray(0, size);
  }

  /** Takes back a buffer from `take` (any view on it); its bytes must not be used after. */
  give(view: Buffer): void {
    const whole = Buffer.from(view.buffer, 0, view.buffer.byteLength);
    if (whole.length + this.freeBytes > this.keepBytes) return unmap(whole);
    this.free.push(whole);
    this.freeBytes += whole.length;
  }

  /** Bytes held for reuse. */
  get heldBytes(): number {
    return this.freeBytes;
  }
}

/**
 * Reads a whole file into a buffer from `pool`: its size when opened, read to that size (a file that grows
 * meanwhile is read as it was when opened; one that shrinks, as far as it goes).
 */
export async function readWhole(path: string, pool: BufferPool, signal?: AbortSignal): Promise<Buffer> {
  signal?.throwIfAborted();
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const buffer = pool.take(size);
    let at = 0;
    try {
      while (at < size) {
        signal?.throwIfAborted();
        const { bytesRead } = await handle.read(buffer, at, Math.min(size - at, 8 * 1024 * 1024), at);
        if (bytesRead === 0) break;
        at += bytesRead;
      }
    } catch (err) {
      pool.give(buffer);
      throw err;
    }
    return at === size ? buffer : buffer.subarray(0, at);
  } finally {
    await handle.close();
  }
}
