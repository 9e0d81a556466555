// Reads a session by its key: the catalogue's entry, windows of messages from the session worker, whole sessions, and the files behind the raw view.
import { existsSync } from 'node:fs';
import { AppError } from '../../shared/result.ts';
import type { Session } from '../../shared/session.ts';
import type { Catalogue, CatalogueEntry } from '../catalogue/catalogue.ts';
import type { ReadPool } from '../workers/read-pool.ts';
import type { RowsText } from '../raw/contained-raw.ts';
import type { Paging } from './paged-sessions.ts';

export interface SessionReaderDeps {
  catalogue: Catalogue;
  /** Parses many files and keeps nothing (scans, bundles' Markdown and HTML). */
  pool: ReadPool;
  /** One worker that keeps the last few opened sessions parsed, for the first screen and every later page. */
  sessionPool: ReadPool;
  /** Where big sessions' page tables are kept (`<data dir>/pages`): their first window after a restart reads a few pages, not the whole file. */
  paging?: Paging;
}

/**
 * Why a read of `entry` failed, as the contract puts it: a file gone since it was listed (the watcher has not said so
 * yet, or nothing watches) is not found; before, it was "unreadable: Cannot read file: ENOENT ENOENT: no such file…".
 */
function readFailure(entry: CatalogueEntry, unreadable: { code: string; message: string }): AppError {
  const file = entry.store ?? entry.path;
  if (unreadable.code === 'io_error' && !existsSync(file))
    return new AppError('NOT_FOUND', `The session's file no longer exists: ${file}. It was moved or deleted after it was listed.`);
  return new AppError('UNREADABLE', `${entry.path} cannot be read: ${unreadable.message}`);
}

/** Session paths never come from the UI: the UI sends keys, and they are looked up here. */
export class SessionReader {
  private readonly deps: SessionReaderDeps;
  /** The last rows document made, by the entry it was made for (the raw view asks for it a window at a time). */
  private lastRows: { path: string; size: number; mtimeMs: number; doc: RowsText } | null = null;

  constructor(deps: SessionReaderDeps) {
    this.deps = deps;
  }

  entryFor(key: string): CatalogueEntry {
    const entry = this.deps.catalogue.byKey(key);
    if (!entry) throw new AppError('NOT_FOUND', `No session with key "${key}" is known. It may have been deleted.`, 'key');
    return entry;
  }

  /** Where a session's file is, its size and its children's keys (what an export needs before reading it). */
  locate(key: string): { path: string; size: number; childKeys: string[] } {
    const entry = this.entryFor(key);
    // A contained session's size is its version stamp; what an export reads of it is its own rows, not the store.
    return { path: entry.path, size: entry.store ? 0 : entry.size, childKeys: this.deps.catalogue.childrenOf(key) };
  }

  /**
   * A contained session's own rows as a rows document (its session row, messages and parts; never the store, which
   * holds every other session): what its raw view shows and a keep stores. Made in the session worker.
   */
  async rowsDocument(key: string): Promise<RowsText & { store: string; mtimeMs: number }> {
    const entry = this.entryFor(key);
    const store = entry.store;
    if (!store) throw new AppError('INVALID_INPUT', `${key} is a session file of its own, not a session inside a store.`, 'key');
    const last = this.lastRows;
    if (last && last.path === entry.path && last.size === entry.size && last.mtimeMs === entry.mtimeMs) return { ...last.doc, store, mtimeMs: entry.mtimeMs };
    const result = await this.deps.sessionPool.rows(entry.path);
    if (!result.ok) throw new AppError('UNREADABLE', `The rows of ${key} in ${store} cannot be read: ${result.unreadable.message}`);
    const doc = { path: result.path, bytes: Buffer.from(result.text, 'utf8') };
    this.lastRows = { path: entry.path, size: entry.size, mtimeMs: entry.mtimeMs, doc };
    return { ...doc, store, mtimeMs: result.mtimeMs };
  }

  /**
   * Opens a window of a session's messages. The session worker keeps recently opened sessions parsed,
   * so the first screen and every later page cost one parse in all, and only a window crosses threads.
   */
  async openWindow(key: string, offset: number, limit: number): Promise<{ session: Session; messagesTotal: number }> {
    const entry = this.entryFor(key);
    if (entry.summary.unreadable) {
      throw new AppError('UNREADABLE', `${entry.path} cannot be read: ${entry.summary.unreadable.message}`);
    }
    const result = await this.deps.sessionPool.window(entry.path, offset, limit, 'interactive', this.deps.paging);
    if (!result.ok) throw readFailure(entry, result.unreadable);
    const session: Session = {
      ...result.session,
      key,
      // The catalogue knows children the parent's own file never mentioned (e.g. a sub-agent folder).
      childKeys: this.withChildren(key, result.session.childKeys),
    };
    return { session, messagesTotal: result.messagesTotal };
  }

  /** The whole session (all messages), parsed in the session worker: what the vault keeps and forks. */
  async readFull(key: string): Promise<Session> {
    const entry = this.entryFor(key);
    const result = await this.deps.sessionPool.read(entry.path, 'interactive');
    if (!result.ok) throw readFailure(entry, result.unreadable);
    return { ...result.session, key };
  }

  /** The whole session parsed in a scan worker, with the children the catalogue knows: what Markdown and HTML exports render. */
  async load(key: string): Promise<Session> {
    const entry = this.entryFor(key);
    const result = await this.deps.pool.read(entry.path, 'background');
    if (!result.ok) throw readFailure(entry, result.unreadable);
    return { ...result.session, key, childKeys: this.withChildren(key, result.session.childKeys) };
  }

  /** The file behind a session's source-file index (0: the session's own file). */
  async sourcePath(key: string, fileIndex: number): Promise<string> {
    const entry = this.entryFor(key);
    if (fileIndex === 0) return entry.path;
    const file = (await this.openWindow(key, 0, 0)).session.sourceFiles[fileIndex];
    if (!file) throw new AppError('NOT_FOUND', `Session has no source file number ${fileIndex}.`, 'fileIndex');
    return file.path;
  }

  private withChildren(key: string, own: readonly string[]): string[] {
    return [...new Set([...own, ...this.deps.catalogue.childrenOf(key)])];
  }
}
