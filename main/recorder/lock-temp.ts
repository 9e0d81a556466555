// The lock's temp files (`.lock.<hex>.tmp`, `.lock.break.<hex>.tmp`): how they are named, and sweeping the ones a crash left.
import { randomBytes } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** A writer racing for the lock holds its temp file for milliseconds; one older than this was left by a crash. */
export const STALE_LOCK_TEMP_MS = 60_000;

const LOCK_TEMP = /^\.lock(\.break)?\.[0-9a-f]+\.tmp$/;

/** A fresh temp name beside `lockPath`, matched by the sweep below. */
export function lockTempPath(lockPath: string): string {
  return join(dirname(lockPath), `${basename(lockPath)}.${randomBytes(6).toString('hex')}.tmp`);
}

export function isLockTemp(name: string): boolean {
  return LOCK_TEMP.test(name);
}

/** Removes lock temp files in `sessionDir` untouched for `olderThanMs`; returns how many went. Never throws. */
export async function sweepLockTemps(sessionDir: string, olderThanMs = STALE_LOCK_TEMP_MS, now = Date.now()): Promise<number> {
  let names: string[];
  try {
    names = await readdir(sessionDir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names.filter(isLockTemp)) {
    const path = join(sessionDir, name);
    try {
      if (now - (await stat(path)).mtimeMs < olderThanMs) continue;
      await rm(path, { force: true });
      removed++;
    } catch {
      // removed meanwhile by another writer's sweep
    }
  }
  return removed;
}
