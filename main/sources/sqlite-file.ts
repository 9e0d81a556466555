// Opens an agent's SQLite store read-only for one short read: WAL-aware, waiting briefly on a writer's lock, never writing to it.
import { statSync } from 'node:fs';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { UnreadableError } from './types.ts';
import { readAllowingBigIntegers } from './sqlite-big-integers.ts';

/** How long a read waits for a writer's lock before it gives up (the agent keeps writing meanwhile). */
const BUSY_WAIT_MS = 2000;

function describe(err: unknown): string {
  const e = err as { code?: string; errstr?: string; message?: string };
  return e.errstr && e.message ? e.message : String(e.message ?? err);
}

/** A read-only connection a read worker keeps between reads (holdStoresOpen), with the file it was opened on. */
interface Held {
  db: DatabaseSync;
  dev: number;
  ino: number;
  timer: NodeJS.Timeout | null;
}

const held = new Map<string, Held>();
let holdMs = 0;

/**
 * A read worker reads a store's sessions one by one, thousands in a scan: opening the store for each costs about as
 * much as reading the session (0.5 ms: the file, its WAL index, its schema). With `ms` > 0 each store's read-only
 * connection stays open between reads until it has been idle that long. It holds no lock between reads (each read is
 * a statement of its own, so the agent's writes and checkpoints go on), and a store replaced on disk is opened anew.
 */
export function holdStoresOpen(ms: number): void {
  holdMs = ms;
  if (ms <= 0) closeHeldStores();
}

export function closeHeldStores(): void {
  for (const path of [...held.keys()]) drop(path);
}

function drop(path: string): void {
  const h = held.get(path);
  if (!h) return;
  held.delete(path);
  if (h.timer) clearTimeout(h.timer);
  h.db.close();
}

/** The held connection to this file, while the path still names the file it was opened on. */
function heldFor(absPath: string): Held | null {
  const h = held.get(absPath);
  if (!h) return null;
  const now = statSync(absPath, { throwIfNoEntry: false });
  if (now && now.dev === h.dev && now.ino === h.ino) return h;
  drop(absPath);
  return null;
}

function openHeld(absPath: string): Held {
  const db = new DatabaseSync(absPath, { readOnly: true, timeout: BUSY_WAIT_MS });
  const file = statSync(absPath, { throwIfNoEntry: false });
  if (!file) {
    db.close();
    throw new Error('unable to open database file');
  }
  const h: Held = { db, dev: file.dev, ino: file.ino, timer: null };
  held.set(absPath, h);
  return h;
}

function rearm(absPath: string, h: Held): void {
  if (h.timer) clearTimeout(h.timer);
  h.timer = setTimeout(() => drop(absPath), holdMs);
  h.timer.unref();
}

/** A failure of `use` as the error the caller sees, or a private copy read where SQLite cannot make the WAL index. */
function afterFailure<T>(absPath: string, use: (db: DatabaseSync) => T, err: unknown): Promise<T> {
  if (err instanceof UnreadableError) throw err;
  const text = describe(err);
  // The WAL index could not be created beside a store in a folder this process cannot write.
  if (/unable to open|readonly|read-only|attempt to write/i.test(text)) return readFromCopy(absPath, use, text);
  throw new UnreadableError(/busy|locked/i.test(text) ? 'io_error' : 'wrong_shape', `Cannot read the SQLite store: ${text}`);
}

/**
 * Runs `use` on the store opened read-only, then closes it (or keeps it open for the next read, see holdStoresOpen).
 * A store in a folder this process cannot write (so SQLite cannot create the WAL index beside it) is read from a
 * private copy of the file and its WAL instead. Every failure is an UnreadableError saying what the file is and why.
 */
export async function withReadOnlyStore<T>(absPath: string, use: (db: DatabaseSync) => T): Promise<T> {
  let db: DatabaseSync;
  let kept: Held | null = null;
  try {
    if (holdMs > 0) {
      kept = heldFor(absPath) ?? openHeld(absPath);
      db = kept.db;
    } else db = new DatabaseSync(absPath, { readOnly: true, timeout: BUSY_WAIT_MS });
  } catch (err) {
    const text = describe(err);
    if (/unable to open|readonly|read-only/i.test(text)) return readFromCopy(absPath, use, text);
    throw new UnreadableError('io_error', `Cannot open the SQLite store: ${text}`);
  }
  try {
    const result = readAllowingBigIntegers(db, use);
    if (kept) rearm(absPath, kept);
    return result;
  } catch (err) {
    // A connection that failed is not kept: the next read opens the store again.
    if (kept) drop(absPath);
    return afterFailure(absPath, use, err);
  } finally {
    if (!kept) db.close();
  }
}

/**
 * Runs `use` on the store opened read-only, at once and without waiting for a writer's lock, for a path rule that
 * must answer synchronously (opencode-migrated.ts). Null when the store cannot be opened or read right now: the
 * caller answers as if it had no store.
 */
export function readStoreNow<T>(absPath: string, use: (db: DatabaseSync) => T): T | null {
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(absPath, { readOnly: true, timeout: 0 });
  } catch {
    return null;
  }
  try {
    return readAllowingBigIntegers(db, use);
  } catch {
    return null;
  } finally {
    db.close();
  }
}

/** Reads a private copy of the store and its WAL (used where SQLite cannot create the WAL index beside the store). */
export async function readFromCopy<T>(absPath: string, use: (db: DatabaseSync) => T, firstError: string): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'session-vault-store-'));
  try {
    const copy = join(dir, basename(absPath));
    try {
      await copyFile(absPath, copy);
    } catch {
      throw new UnreadableError('io_error', `Cannot read the SQLite store: ${firstError}`);
    }
    await copyFile(`${absPath}-wal`, `${copy}-wal`).catch(() => undefined); // no WAL: the file is the whole store
    let db: DatabaseSync;
    try {
      db = new DatabaseSync(copy, { readOnly: false, timeout: BUSY_WAIT_MS });
    } catch (err) {
      throw new UnreadableError('io_error', `Cannot read the SQLite store: ${describe(err)}`);
    }
    try {
      return readAllowingBigIntegers(db, use);
    } catch (err) {
      if (err instanceof UnreadableError) throw err;
      throw new UnreadableError('wrong_shape', `Cannot read the SQLite store: ${describe(err)}`);
    } finally {
      db.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** True when the store has every one of these tables: how a reader tells its own schema from another tool's. */
export function hasTables(db: DatabaseSync, tables: readonly string[]): boolean {
  const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
  const names = new Set(rows.map((r) => r.name));
  return tables.every((t) => names.has(t));
}
