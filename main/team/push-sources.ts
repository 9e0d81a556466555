// A pushed session's source files as a bundle carries them (scanned and redacted by Share's scanner), cut into parts; only parts the store does not have are kept to send.
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { scanner, type SessionPlan } from '../bundle/bundle-entries.ts';
import type { Finding } from '../bundle/finding.ts';
import type { ScanContext } from '../bundle/secret-scan.ts';
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
 * A Writable that cuts what it is given into parts of `partBytes`, hashes each and the whole, and keeps only the
 * parts whose hash differs from the stored one at the same place (a file that grew keeps its earlier parts).
 */
class PartCutter extends Writable {
  readonly whole = createHash('sha256');
  readonly changed: FileWrite['changed'] = [];
  size = 0;
  parts = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private readonly stored: string[];
  private readonly partBytes: number;

  constructor(stored: string[], partBytes: number) {
    super();
    this.stored = stored;
    this.partBytes = partBytes;
  }

  private cut(bytes: Buffer): void {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (this.stored[this.parts] !== sha256) this.changed.push({ part: this.parts, sha256, bytes });
    this.parts++;
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    this.whole.update(chunk);
    this.size += chunk.length;
    let rest = chunk;
    while (rest.length) {
      const take = Math.min(rest.length, this.partBytes - this.pendingBytes);
      this.pending.push(rest.subarray(0, take));
      this.pendingBytes += take;
      rest = rest.subarray(take);
      if (this.pendingBytes === this.partBytes) this.flushPart();
    }
    done();
  }

  private flushPart(): void {
    // A copy: the scanner may hand on views of buffers it reuses.
    this.cut(Buffer.concat(this.pending, this.pendingBytes));
    this.pending = [];
    this.pendingBytes = 0;
  }

  override _final(done: (err?: Error | null) => void): void {
    if (this.pendingBytes > 0 || this.parts === 0) this.flushPart();
    done();
  }
}

/**
 * Reads each source file of `plan` as the bundle would (a gzip source decompressed), through Share's scanner with
 * the session's scan context (its session.json's secrets already known to it), and cuts the redacted bytes into
 * parts. Without a context nothing is redacted (the caller's choice, never the push command's).
 */
export async function sourceWrites(plan: SessionPlan, ctx: ScanContext | null, stored: StoredFiles, partBytes = FILE_PART_BYTES): Promise<SourceWrites> {
  const out: SourceWrites = { files: [], findings: [], bytes: 0 };
  for (const entry of plan.sources) {
    const cutter = new PartCutter(stored.get(entry.originalPath) ?? [], partBytes);
    const scan = ctx ? scanner(ctx, entry, true) : null;
    if (scan) await pipeline(entry.open(), scan, cutter);
    else await pipeline(entry.open(), cutter);
    if (scan) out.findings.push(...scan.findings);
    out.bytes += cutter.changed.reduce((n, p) => n + p.bytes.length, 0);
    out.files.push({
      key: plan.prepared.head.key,
      path: entry.originalPath,
      role: entry.role ?? 'primary',
      size: cutter.size,
      mtimeMs: entry.mtimeMs,
      sha256: cutter.whole.digest('hex'),
      parts: cutter.parts,
      changed: cutter.changed,
    });
  }
  return out;
}
