// The bundle's zip output over yazl: entries are pushed chunk by chunk (with backpressure) and yazl deflates and frames them.
import { PassThrough, type Writable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import yazl from 'yazl';

export interface ZipEntryOptions {
  mtime: Date;
  mode: number;
  /** 0 stores the bytes as they are (sources that are already gzip); 1–9 deflates at that level. */
  level: number;
}

/**
 * One entry at a time: begin, data…, end; then finish. yazl reads an entry's stream only once the previous
 * entry is written, so awaiting each `data` keeps at most a stream buffer of each entry in memory.
 */
export class ZipWriter {
  private readonly zip = new yazl.ZipFile();
  private readonly written: Promise<void>;
  private current: PassThrough | null = null;

  constructor(out: Writable, signal?: AbortSignal) {
    this.written = pipeline(this.zip.outputStream, out, signal ? { signal } : {});
    // A failure surfaces from finish() (or from the data() that is waiting); never as an unhandled rejection.
    this.written.catch(() => undefined);
  }

  begin(name: string, options: ZipEntryOptions): void {
    const stream = new PassThrough({ highWaterMark: 1024 * 1024 });
    this.current = stream;
    this.zip.addReadStream(stream, name, { mtime: options.mtime, mode: options.mode, compress: options.level > 0, ...(options.level > 0 ? { compressionLevel: options.level } : {}) });
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
  }
}
