// Builds David Fifield's "better zip bomb" (quoted overlap) for the tests: every entry's deflate data runs on into the next entry's.
import { deflateRawSync } from 'node:zlib';
import { localHeaderOf, type RawEntry } from './test-zip.ts';

/** A non-final deflate block that stores the next `length` bytes as they are (BFINAL 0, BTYPE 00, LEN, NLEN). */
function storedBlockHead(length: number): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt16LE(length, 1);
  head.writeUInt16LE(~length & 0xffff, 3);
  return head;
}

/**
 * Entries to write one after another: the last holds `kernel` deflated; each earlier one holds only a stored block
 * head quoting the next entry's local header, and declares a compressed size reaching to the kernel's end. So every
 * entry inflates to the next entries' headers and the whole kernel, with true sizes and CRCs: n entries expand to
 * about n times the kernel from one copy of it. Each entry's own ratio looks modest (its compressed size counts the
 * bytes it shares), which is what lets the construction slip past a per-entry ratio limit.
 */
export function quotedOverlapBomb(names: string[], kernel: Buffer): RawEntry[] {
  const last = names.at(-1);
  if (last === undefined) return [];
  const entries: RawEntry[] = [{ name: last, data: kernel, method: 8, body: deflateRawSync(kernel) }];
  for (const name of names.slice(0, -1).reverse()) {
    const next = entries[0] as RawEntry;
    const quoted = localHeaderOf(next);
    const nextCompressed = next.compressedSize ?? (next.body as Buffer).length;
    const body = storedBlockHead(quoted.length);
    entries.unshift({ name, data: Buffer.concat([quoted, next.data]), method: 8, body, compressedSize: body.length + quoted.length + nextCompressed });
  }
  return entries;
}
