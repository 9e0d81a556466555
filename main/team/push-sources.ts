// A pushed session's source files as a bundle carries them (scanned and redacted by Share's scanner), cut into parts; only parts the store does not have are kept to send.
import { createHash, type Hash } from 'node:crypto';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { scanner, type SessionPlan, type SourceEntry } from '../bundle/bundle-entries.ts';
import type { Finding } from '../bundle/finding.ts';
import type { ScanContext, SecretScanStream } from '../bundle/secret-scan.ts';
import { readWholeFile } from '../sources/file-bytes.ts';
import { FILE_PART_BYTES } from './migrations.ts';
import type { FileWrite } from './write-batch.ts';

/** What the store holds of one session's files: each file's part hashes, by path. */
export type StoredFiles = Map<string, string[]>;

export interface SourceWrites {
  files: FileWrite[];
  findings: Finding[];
  /** Bytes of the parts to send. */
  bytes: number;
}

/**
 * Cuts what it is given into parts of `partBytes`, hashes each and the whole, and keeps only the parts whose hash
 * differs from the stored one at the same place (a file that grew keeps its earlier parts). The whole is hashed
 * from the parts as they are cut, and only from a second part on: a file of one part (most are) is that part,
 * and its hash is the part's.
 */
class PartCutter {
  private whole: Hash | null = null;
  /** The first part and its hash, until a second part begins the whole's hash. */
  private first: { bytes: Buffer; sha256: string } | null = null;
  readonly changed: FileWrite['changed'] = [];
  size = 0;
  parts = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private readonly stored: string[];
  private readonly partBytes: number;
  /** Whether the bytes it is given are views on buffers nobody reuses (a file read whole): a part in one piece is kept as it is. */
  owned = false;

  constructor(stored: string[], partBytes: number) {
    this.stored = stored;
    this.partBytes = partBytes;
  }

  private cut(bytes: Buffer): void {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (this.stored[this.parts] !== sha256) this.changed.push({ part: this.parts, sha256, bytes });
    if (this.parts === 0) this.first = { bytes, sha256 };
    else {
      if (this.first) this.whole = createHash('sha256').update(this.first.bytes);
      this.first = null;
      this.whole?.update(bytes);
    }
    this.parts++;
  }

  add(chunk: Buffer): void {
    this.size += chunk.length;
    let rest = chunk;
    while (rest.length) {
      const take = Math.min(rest.length, this.partBytes - this.pendingBytes);
      this.pending.push(rest.subarray(0, take));
      this.pendingBytes += take;
      rest = rest.subarray(take);
      if (this.pendingBytes === this.partBytes) this.flushPart();
    }
  }

  private flushPart(): void {
    // A copy, unless the bytes are owned: a stream's scanner may hand on views of buffers it reuses.
    const [only] = this.pending;
    this.cut(this.owned && only && this.pending.length === 1 ? only : Buffer.concat(this.pending, this.pendingBytes));
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** Cuts the last part (an empty file is one empty part) and gives the whole's SHA-256. */
  finish(): string {
    if (this.pendingBytes > 0 || this.parts === 0) this.flushPart();
    return this.whole ? this.whole.digest('hex') : (this.first?.sha256 ?? '');
  }

  /** The cutter as the end of a stream pipeline. */
  writable(): Writable {
    return new Writable({
      write: (chunk: Buffer, _enc, done) => {
        this.add(chunk);
        done();
      },
    });
  }
}

/** Source files up to this size are read whole (one blocking read in a worker) and scanned with no stream; larger or compressed ones stream. */
const WHOLE_FILE_MAX = 32 * 1024 * 1024;

/** A source's bytes read whole, when it is small and stored as it is read (not compressed); else null (it streams). */
async function wholeBytes(entry: SourceEntry): Promise<Buffer | null> {
  if (entry.bytes) return entry.bytes;
  if (entry.compressed || entry.size > WHOLE_FILE_MAX) return null;
  return readWholeFile(entry.diskPath);
}

/**
 * One source file through Share's scanner (when `scan`) into `cutter`. A small file is scanned whole, as one
 * chunk (the scanner's windows do not depend on how the bytes come: secret-scan.ts); the rest is streamed.
 */
async function scanInto(entry: SourceEntry, scan: SecretScanStream | null, cutter: PartCutter): Promise<void> {
  const bytes = await wholeBytes(entry);
  // Read whole from disk, the file's bytes are this push's alone, and so are the scan's pieces (views on them, or its
  // markers); bytes that came with the session are another's, and copied.
  cutter.owned = bytes !== null && !entry.bytes;
  if (bytes === null) {
    if (scan) await pipeline(entry.open(), scan, cutter.writable());
    else await pipeline(entry.open(), cutter.writable());
  } else if (scan) await scan.scanWhole(bytes, (piece) => cutter.add(piece));
  else cutter.add(bytes);
}

/**
 * Reads each source file of `plan` as the bundle would (a compressed source decompressed), through Share's scanner with
 * the session's scan context (its session.json's secrets already known to it), and cuts the redacted bytes into
 * parts. Without a context nothing is redacted (the caller's choice, never the push command's).
 */
export async function sourceWrites(plan: SessionPlan, ctx: ScanContext | null, stored: StoredFiles, partBytes = FILE_PART_BYTES): Promise<SourceWrites> {
  const out: SourceWrites = { files: [], findings: [], bytes: 0 };
  for (const entry of plan.sources) {
    const cutter = new PartCutter(stored.get(entry.originalPath) ?? [], partBytes);
    const scan = ctx ? scanner(ctx, entry, true) : null;
    await scanInto(entry, scan, cutter);
    const sha256 = cutter.finish();
    if (scan) out.findings.push(...scan.findings);
    out.bytes += cutter.changed.reduce((n, p) => n + p.bytes.length, 0);
    out.files.push({
      key: plan.prepared.head.key,
      path: entry.originalPath,
      role: entry.role ?? 'primary',
      size: cutter.size,
      mtimeMs: entry.mtimeMs,
      sha256,
      parts: cutter.parts,
      changed: cutter.changed,
    });
  }
  return out;
}
