// Gives a dead buffer's memory back at once, instead of when its thread next runs a full collection.

/**
 * Detaches the ArrayBuffer under `bytes` when `bytes` is its only view (never a slice of Node's shared pool),
 * which frees its memory now; the caller must hold no other view of it. A buffer that outlives a few young
 * collections (a file being parsed, a batch being written) is freed only by a full collection, which a thread
 * that makes little garbage of its own runs rarely: during a cold index of 100,000 sessions the scan worker
 * held up to 80 MB of files it had finished with, and the index writer up to 96 MB of written batches.
 * Returns whether it freed anything.
 */
export function releaseBytes(bytes: Uint8Array): boolean {
  const buffer = bytes.buffer;
  if (!(buffer instanceof ArrayBuffer) || buffer.detached) return false;
  if (bytes.byteOffset !== 0 || bytes.byteLength !== buffer.byteLength || buffer.byteLength === 0) return false;
  buffer.transfer(0);
  return true;
}
