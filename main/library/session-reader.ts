// Reads a session by its key: the catalogue's entry, windows of messages from the session worker, whole sessions, and the files behind the raw view.
import { AppError } from '../../shared/result.ts';
import type { Session } from '../../shared/session.ts';
import type { Catalogue, CatalogueEntry } from '../catalogue/catalogue.ts';
import type { ReadPool } from '../workers/read-pool.ts';

export interface SessionReaderDeps {
  catalogue: Catalogue;
  /** Parses many files and keeps nothing (scans, bundles' Markdown and HTML). */
  pool: ReadPool;
  /** One worker that keeps the last few opened sessions parsed, for the first screen and every later page. */
  sessionPool: ReadPool;
}

/** Session paths never come from the UI: the UI sends keys, and they are looked up here. */
export class SessionReader {
  private readonly deps: SessionReaderDeps;

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
    return { path: entry.path, size: entry.size, childKeys: this.deps.catalogue.childrenOf(key) };
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
    const result = await this.deps.sessionPool.window(entry.path, offset, limit);
    if (!result.ok) throw new AppError('UNREADABLE', `${entry.path} cannot be read: ${result.unreadable.message}`);
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
    if (!result.ok) throw new AppError('UNREADABLE', `${entry.path} cannot be read: ${result.unreadable.message}`);
    return { ...result.session, key };
  }

  /** The whole session parsed in a scan worker, with the children the catalogue knows: what Markdown and HTML exports render. */
  async load(key: string): Promise<Session> {
    const entry = this.entryFor(key);
    const result = await this.deps.pool.read(entry.path, 'background');
    if (!result.ok) throw new AppError('UNREADABLE', `${entry.path} cannot be read: ${result.unreadable.message}`);
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
