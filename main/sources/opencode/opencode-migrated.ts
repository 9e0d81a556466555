// Which legacy storage/ session files OpenCode has already migrated into the store beside the tree: those sessions are listed once, from the store.
import { statSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { readStoreNow } from '../sqlite-file.ts';

interface StoreIds {
  /** The store file's and its WAL's size and mtime when the ids were read. */
  stamp: string;
  /** Session ids in the store; null when it could not be read (then no legacy file counts as migrated). */
  ids: ReadonlySet<string> | null;
}

const byStore = new Map<string, StoreIds>();

function stampOf(store: string): string | null {
  const db = statSync(store, { throwIfNoEntry: false });
  if (!db?.isFile()) return null;
  const wal = statSync(`${store}-wal`, { throwIfNoEntry: false });
  return `${db.size}:${db.mtimeMs}:${wal?.size ?? -1}:${wal?.mtimeMs ?? -1}`;
}

function sessionIds(db: DatabaseSync): Set<string> {
  const rows = db.prepare('SELECT id FROM session').all() as Array<{ id: unknown }>;
  return new Set(rows.flatMap((r) => (typeof r.id === 'string' ? [r.id] : [])));
}

/**
 * True when the store at `storePath` holds a session with this id. OpenCode 1.2+ copies every legacy session into
 * its store on first start (ids from the file names) and leaves the JSON tree on disk, frozen: the store's copy is
 * the one that goes on. A session the migration skipped (its project file was missing) stays the tree's. The ids
 * are read once per change of the store (one query), so asking for every file of a large tree costs two stats each.
 */
export function storeHoldsSession(storePath: string, id: string): boolean {
  const stamp = stampOf(storePath);
  if (stamp === null) {
    byStore.delete(storePath);
    return false;
  }
  let known = byStore.get(storePath);
  if (known?.stamp !== stamp) {
    known = { stamp, ids: readStoreNow(storePath, sessionIds) };
    byStore.set(storePath, known);
  }
  return known.ids?.has(id) ?? false;
}
