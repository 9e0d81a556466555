// The interface every on-disk format reader implements, and the error that marks a file unreadable.
import type { Session, SourceFormat, Unreadable } from '../../shared/session.ts';

export interface SourceReader {
  readonly format: SourceFormat;
  /** Human name shown in the UI ("Vizier", "JidoCode"). */
  readonly label: string;
  /**
   * True when this absolute path is a session file of this format. The scanner and the watcher
   * ask every reader; temp files (`*.tmp`, `*.tmp-<pid>-<ms>`) must never be claimed.
   */
  claims(absPath: string): boolean;
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
