// The interface every on-disk format reader implements, and the error that marks a file unreadable.
import type { Session, SourceFormat, Unreadable } from '../../shared/session.ts';
import type { Head } from './head.ts';

export interface SourceReader {
  readonly format: SourceFormat;
  /** Human name shown in the UI ("Vizier", "JidoCode"). */
  readonly label: string;
  /**
   * True when this absolute path is a session file of this format. The scanner and the watcher
   * ask every reader; temp files (`*.tmp`, `*.tmp-<pid>-<ms>`) must never be claimed.
   */
  claims(absPath: string): boolean;
  /**
   * True when a file's head (its first 64 KB: `head.records()`, `head.document()`) is a session of this
   * format, wherever the file lies. Readers whose format cannot be told from its first records leave it out.
   */
  recognizes?(head: Head): boolean;
  /**
   * The path rule also matches other tools' files (Claude Code's `projects/<dir>/*.jsonl`): a path claim is
   * confirmed by the head, and a file another reader recognises (and this one does not) goes to that reader.
   */
  confirmByContent?: boolean;
  /** A file of this tool's own layout that is not a session (a backup, an index): never recognised by content. */
  companion?(absPath: string): boolean;
  /** Parses one claimed file into the canonical model; throws UnreadableError with the exact reason. */
  read(absPath: string): Promise<Session>;
}

/** A file that is claimed by a reader but cannot be turned into a session: listed with this reason. */
export class UnreadableError extends Error {
  readonly code: Unreadable['code'];
  constructor(code: Unreadable['code'], message: string) {
    super(message);
    this.name = 'UnreadableError';
    this.code = code;
  }
  toShape(): Unreadable {
    return { code: this.code, message: this.message };
  }
}
