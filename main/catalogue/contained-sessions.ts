// Sessions inside a store that holds many (an agent's SQLite database): their place in the catalogue (`<store>#<id>`), their version stamp, and the store behind a WAL file.
import { createHash } from 'node:crypto';
import { findReader } from '../sources/registry.ts';
import type { ContainerReader, SourceReader } from '../sources/types.ts';

/**
 * A contained session is listed under the path `<store>#<id, URI-encoded>` (as agentsview names them): unique per
 * store and session, below the store's folder (so root checks and folder removals apply), and never a file on disk.
 * The store's path is what every file operation uses (roots/session-files.ts checks its real path).
 */
export interface ContainedRef {
  store: string;
  id: string;
  reader: SourceReader;
  container: ContainerReader;
}

export function containedPath(store: string, id: string): string {
  return `${store}#${encodeURIComponent(id)}`;
}

type StoreReader = { reader: SourceReader; container: ContainerReader };

/**
 * Which reader a store path has, remembered: the catalogue asks for every contained session's store (each entry, each
 * summary), and asking every reader's path rule each time was a tenth of a 10,000-session store's first scan.
 */
const readerOfStore = new Map<string, StoreReader>();
const REMEMBERED_STORES = 1024;

/** The reader and its container when `path` is a store file (a container reader claims it as a store). */
export function storeReader(path: string): StoreReader | null {
  const known = readerOfStore.get(path);
  if (known) return known;
  const reader = findReader(path);
  const container = reader?.container;
  if (!reader || !container || (container.isStore && !container.isStore(path))) return null;
  // Only stores are remembered: a scan asks about every file it finds, and those are read once each.
  if (readerOfStore.size >= REMEMBERED_STORES) readerOfStore.clear();
  const found = { reader, container };
  readerOfStore.set(path, found);
  return found;
}

/** The store and session a contained path names; null for every other path (a real file whose name holds `#` too). */
export function containedRef(path: string): ContainedRef | null {
  const at = path.lastIndexOf('#');
  if (at <= 0) return null;
  const encoded = path.slice(at + 1);
  // encodeURIComponent never leaves a separator, so a `#` inside a folder name is not mistaken for one.
  if (!encoded || /[\\/]/.test(encoded)) return null;
  let id: string;
  try {
    id = decodeURIComponent(encoded);
  } catch {
    return null;
  }
  const store = path.slice(0, at);
  const found = storeReader(store);
  return found ? { store, id, ...found } : null;
}

export function isContainedPath(path: string): boolean {
  return path.includes('#') && containedRef(path) !== null;
}

/** The file behind a catalogue path: a contained session's store, or the path itself. */
export function storeOf(path: string): string {
  return path.includes('#') ? (containedRef(path)?.store ?? path) : path;
}

/** The store whose write-ahead log this is (`<store>-wal`), or null: a write lands there first, so the WAL is watched too. */
export function storeOfWal(path: string): string | null {
  if (!path.endsWith('-wal')) return null;
  const store = path.slice(0, -'-wal'.length);
  return storeReader(store) ? store : null;
}

/**
 * A contained session's version as a number the catalogue and the index keep where a file keeps its size (48 bits of
 * its SHA-256: exact in a double, never negative, so the index's "read again" mark, -1, never matches one).
 */
export function versionStamp(version: string): number {
  return Number.parseInt(createHash('sha256').update(version).digest('hex').slice(0, 12), 16);
}
