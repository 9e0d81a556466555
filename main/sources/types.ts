// The reader contract: what every agent's folder under main/sources/ tells the app (where it keeps sessions, which files are its own, how to read and resume them, what it records), and the error that marks a file unreadable.
import type { Session, SourceFormat, Unreadable } from '../../shared/session.ts';
import type { ReaderCapabilities } from '../../shared/source-formats.ts';
import type { Head } from './head.ts';

export type { ReaderCapabilities } from '../../shared/source-formats.ts';

/** What a resume command needs to know about a session. */
export interface ResumeTarget {
  id: string;
  /** A sub-agent's transcript: most tools resume only the parent. */
  isSubAgent: boolean;
}

/** One session inside a file that holds many (a SQLite store), as a cheap listing query sees it. */
export interface ContainedSession {
  /** The session's id inside the store (becomes the key `<format>:<id>`). */
  id: string;
  /**
   * Changes whenever the session's content does (for example its row's update time and message count):
   * the scan reads a session again only when this changed, since a store's file mtime moves with every session.
   */
  version: string;
}

/** One session of a batch read (`ContainerReader.readMany`): its Session, or why it could not be read. */
export type ContainedRead = { id: string; session: Session } | { id: string; error: unknown };

/**
 * A reader whose files each hold many sessions. Every session is addressed by its store and id; the store is
 * opened read-only and never blocks the agent writing it (see sqlite-file.ts).
 */
export interface ContainerReader {
  /** Which of the reader's claimed files are stores (default: every one); the others are read as one file, one session. */
  isStore?(absPath: string): boolean;
  /** Every session in the store, in one cheap query. Throws UnreadableError when the file is no such store. */
  list(absPath: string): Promise<ContainedSession[]>;
  /** One session of the store, in the canonical model. Throws UnreadableError with the exact reason. */
  readOne(absPath: string, id: string): Promise<Session>;
  /**
   * Several sessions of the store in one read, for a scan that reads thousands: `each` is called once per id, in
   * any order, with the Session `readOne` gives for it or the error it would throw. Only one session needs to be
   * held at a time. `each` returning false stops the read: the ids not given yet are left unread. Optional: without
   * it, each session is read with `readOne`.
   */
  readMany?(absPath: string, ids: readonly string[], each: (read: ContainedRead) => boolean | void): Promise<void>;
  /**
   * The session's own rows (its session row, its messages, their parts; never another session's), table by table
   * (store-rows.ts `ownRows` gathers them). The raw view shows them, and a bundle or a kept copy carries them as
   * the session's source instead of the store, which holds every other session's private data. The app renders
   * them as `{ rows: { <table>: { <row id>: row } } }`, so a message's `origin.pointer` is `/rows/<table>/<row id>`.
   * A reader without it: the raw view says so, and export and keep refuse its sessions.
   */
  rows?(absPath: string, id: string): Promise<StoreRows>;
}

/** A value as SQLite stores it (node:sqlite reads BLOBs as Uint8Array). */
export type StoreValue = string | number | bigint | null | Uint8Array;

/** One table's rows that belong to a session: every column of the table, and the rows by their id (primary key, as text). */
export interface StoreTable {
  columns: string[];
  rows: Record<string, Record<string, StoreValue>>;
}

/** A session's own rows in its store, by table name. */
export type StoreRows = Record<string, StoreTable>;

export interface SourceReader {
  readonly format: SourceFormat;
  /** What the format records; the Sources panel and the README's "What it reads" table show it. */
  readonly capabilities: ReaderCapabilities;
  /**
   * The folders where the agent keeps its sessions on this machine, honouring the agent's own override
   * variables (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`, ...). Absolute paths; the app adds the ones that exist.
   */
  defaultRoots(env: NodeJS.ProcessEnv, home: string): string[];
  /** The shell command that resumes a session in its agent (run in its project folder), or null when there is none. */
  resumeCommand(session: ResumeTarget): string | null;
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
  /** Set when claimed files hold many sessions (those `container.isStore` says, or every one); `read` is not used for them. */
  container?: ContainerReader;
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
