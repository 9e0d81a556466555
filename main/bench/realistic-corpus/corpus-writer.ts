// Writes the realistic corpus's files (JSONL line by line, JSON documents whole) and counts what was written: files, bytes, records per type.
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** What one format's files hold, as the bench prints it. */
export interface FormatProfile {
  files: number;
  bytes: number;
  /** Records (JSONL lines, or a document's messages) per type. */
  records: Record<string, number>;
}

export type CorpusProfile = Record<string, FormatProfile>;

/** A written file: where, which format, how big. */
export interface WrittenFile {
  path: string;
  format: string;
  bytes: number;
}

const FLUSH_AT = 1 << 20;

/** A file beside a session that is no session itself (a sub-agent's meta), and the session file it belongs to. */
export interface CompanionFile {
  path: string;
  owner: string;
}

export class CorpusWriter {
  readonly profile: CorpusProfile = {};
  readonly files: WrittenFile[] = [];
  readonly companions: CompanionFile[] = [];

  private formatProfile(format: string): FormatProfile {
    let p = this.profile[format];
    if (!p) p = this.profile[format] = { files: 0, bytes: 0, records: {} };
    return p;
  }

  count(format: string, type: string, n = 1): void {
    const records = this.formatProfile(format).records;
    records[type] = (records[type] ?? 0) + n;
  }

  /** A JSONL file: records go out a megabyte at a time; `bytes` says how much so far. */
  jsonl(path: string, format: string): JsonlFile {
    return new JsonlFile(path, format, this);
  }

  /** A whole JSON document (`types`: its records, counted by the caller's labels). */
  document(path: string, format: string, value: unknown, types: string[], pretty = false): number {
    mkdirSync(dirname(path), { recursive: true });
    const text = pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value);
    writeFileSync(path, text);
    const bytes = Buffer.byteLength(text);
    for (const t of types) this.count(format, t);
    this.finished(path, format, bytes);
    return bytes;
  }

  /** A small companion file of session file `owner` (a sub-agent's meta): counted as bytes of its format, not as a session. */
  companion(path: string, format: string, value: unknown, owner: string): void {
    mkdirSync(dirname(path), { recursive: true });
    const text = JSON.stringify(value);
    writeFileSync(path, text);
    this.formatProfile(format).bytes += Buffer.byteLength(text);
    this.count(format, 'companion file');
    this.companions.push({ path, owner });
  }

  finished(path: string, format: string, bytes: number): void {
    const p = this.formatProfile(format);
    p.files++;
    p.bytes += bytes;
    this.files.push({ path, format, bytes });
  }
}

export class JsonlFile {
  readonly path: string;
  private readonly format: string;
  private readonly writer: CorpusWriter;
  private readonly fd: number;
  private pending: string[] = [];
  private pendingChars = 0;
  bytes = 0;

  constructor(path: string, format: string, writer: CorpusWriter) {
    mkdirSync(dirname(path), { recursive: true });
    this.path = path;
    this.format = format;
    this.writer = writer;
    this.fd = openSync(path, 'w');
  }

  /** One record as one line; `type` is what the profile counts it as. */
  add(record: unknown, type: string): void {
    const line = `${JSON.stringify(record)}\n`;
    this.pending.push(line);
    this.pendingChars += line.length;
    this.bytes += Buffer.byteLength(line);
    this.writer.count(this.format, type);
    if (this.pendingChars >= FLUSH_AT) this.flush();
  }

  private flush(): void {
    if (!this.pending.length) return;
    writeSync(this.fd, this.pending.join(''));
    this.pending = [];
    this.pendingChars = 0;
  }

  close(): number {
    this.flush();
    closeSync(this.fd);
    this.writer.finished(this.path, this.format, this.bytes);
    return this.bytes;
  }
}
