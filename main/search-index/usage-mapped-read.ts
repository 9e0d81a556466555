// Reads the index through a memory map while the dashboard adds up, unmapped once no dashboard call came for a few seconds, so the pages it read do not stay in the app's resident memory.
import type { SessionIndex } from './index-store.ts';

/**
 * Bytes of the index file mapped while the dashboard adds up: more than an index of 100,000 sessions (~0.95 GB); SQLite
 * caps it at its own limit (2 GB less 64 KB), and reads any part of a larger file as before.
 */
export const DASHBOARD_MAP_BYTES = 2 ** 31;
/**
 * How long the map is kept after a dashboard call: the next one (a query typed, the breakdown switched) reads the pages
 * the last one touched without faulting them in again (100,000 sessions, CPU: `after:30d` 128 ms remapped each call,
 * 100 ms kept mapped), and a while after the last one the app's resident memory is what it was.
 */
export const UNMAP_AFTER_MS = 10_000;

type Connection = Pick<SessionIndex, 'prepared'>;

/** The connection's map size; null for a database in memory (no file to map: SQLite returns no row). */
const mapSize = (index: Connection): number | null => (index.prepared('PRAGMA mmap_size').get() as { mmap_size: number } | undefined)?.mmap_size ?? null;
/** Per connection mapped by whileMapped: its map size before, and the timer that puts it back. */
const mapped = new WeakMap<Connection, { before: number; timer: ReturnType<typeof setTimeout> | null }>();

/** Puts the connection's map size back to what it was before whileMapped (a closed connection has no map to drop). */
export function unmapNow(index: Connection): void {
  const state = mapped.get(index);
  if (!state) return;
  if (state.timer) clearTimeout(state.timer);
  mapped.delete(index);
  try {
    index.prepared(`PRAGMA mmap_size = ${state.before}`).get();
  } catch {
    // The index was closed: its map went with it.
  }
}

/**
 * Runs `read` with the index file mapped into memory, and unmaps it UNMAP_AFTER_MS after the last such call. The
 * dashboard's row lookups (by row id, from an index of hours, the packs) then read their pages in place instead of
 * copying each 16 KB page into the connection's 2 MB page cache (100,000 sessions, CPU p50, interleaved: a word in
 * most files by model 162 -> 142 ms, by project 206 -> 173 ms; `after:30d` 115 -> 99 ms). Left mapped, the pages
 * read would count in the app's resident memory as long as it runs (+550 MB after every bench query). The map is
 * safe while the writer works on its own connection: SQLite maps the database file only, never the WAL, and nothing
 * truncates the index file (no VACUUM, no auto-vacuum). A database in memory has no file to map: `read` just runs.
 */
export function whileMapped<T>(index: Connection, read: () => T): T {
  let state = mapped.get(index);
  if (state?.timer) clearTimeout(state.timer);
  if (!state) {
    const before = mapSize(index);
    if (before === null) return read();
    state = { before, timer: null };
    mapped.set(index, state);
    index.prepared(`PRAGMA mmap_size = ${DASHBOARD_MAP_BYTES}`).get();
  }
  try {
    return read();
  } finally {
    state.timer = setTimeout(() => unmapNow(index), UNMAP_AFTER_MS);
    // A pending unmap does not keep the process alive (closing the index drops the map anyway).
    state.timer.unref?.();
  }
}
