// The session worker's use of page tables: windows of a big session read from its table, and a table written after a session's first full read.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Session } from '../../shared/session.ts';
import { buildPageTable } from './page-table-build.ts';
import { pageParserFor } from './page-parsers.ts';
import { loadPageTable, pageTableFile, savePageTable, stillMatches, sweepPageTables, type PageTable } from './page-table.ts';
import { pagedWindow } from './paged-window.ts';

/** Where tables live and which sessions get one. */
export interface Paging {
  /** `<data dir>/pages`. */
  dir: string;
  /** Sessions whose file is at least this large (smaller ones parse faster than a table pays back). */
  minBytes: number;
  /** Messages per page (tests use a few). */
  pageMessages?: number;
}

/** A session file this large gets a page table: a 16 MB transcript parses in ~0.15 s, a 200 MB one in over a second. */
export const PAGED_MIN_BYTES = 16 * 1024 * 1024;

/** The app's paging: tables in `<data dir>/pages`, for sessions of PAGED_MIN_BYTES and more. */
export function pagingIn(dataDir: string): Paging {
  return { dir: join(dataDir, 'pages'), minBytes: PAGED_MIN_BYTES };
}

/** Tables loaded recently, by path, so scrolling does not re-read a table; each use re-checks the file. */
const loaded = new Map<string, PageTable>();
const LOADED_MAX = 3;
/** Files (by path, size and mtime) a table was built or tried for in this worker: each is tried once. */
const tried = new Set<string>();

/**
 * A window of a big session from its page table; null when the session has no table for its file as it is now
 * (never read whole, changed since, or the table is missing or damaged), and it is then read whole.
 */
export async function windowFromTable(
  paging: Paging,
  path: string,
  offset: number,
  limit: number,
): Promise<{ session: Session; messagesTotal: number } | null> {
  let table = loaded.get(path) ?? null;
  loaded.delete(path);
  if (table && !(await stillMatches(table))) table = null;
  table ??= await loadPageTable(paging.dir, path);
  // A running session's status changes with the clock alone (tables are written for stopped ones; see below).
  if (!table || table.header.status === 'active') return null;
  const window = await pagedWindow(table, offset, limit);
  if (!window) {
    // Its pages no longer read back (the file was changed in the middle, keeping its size, ends and mtime): it goes,
    // and the full read that follows writes a new one.
    await rm(pageTableFile(paging.dir, path), { force: true });
    return null;
  }
  loaded.set(path, table);
  while (loaded.size > LOADED_MAX) loaded.delete(loaded.keys().next().value as string);
  return window;
}

/**
 * The work of writing a table for a session just read whole, to run once its window has been answered; null when
 * it needs none (small, not paged, or tried already for this version of the file).
 */
export function pageTableWork(paging: Paging, path: string, session: Session): (() => Promise<void>) | null {
  const primary = session.sourceFiles[0];
  if (!primary || primary.path !== path || primary.size < paging.minBytes || !pageParserFor(session.format, path)) return null;
  // A running session is shown as running until its file has been still for a while: the table waits until it stops.
  if (session.status === 'active') return null;
  const version = `${path}\n${primary.size}\n${primary.mtimeMs}`;
  if (tried.has(version)) return null;
  tried.add(version);
  return async () => {
    if (await loadPageTable(paging.dir, path)) return;
    const table = await buildPageTable(session, path, { pageMessages: paging.pageMessages });
    if (!table) return;
    await savePageTable(paging.dir, table);
    // Tables of sessions that have gone go when a new one is written.
    await sweepPageTables(paging.dir);
  };
}
