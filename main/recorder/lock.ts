// One writer per session: `<id>/.lock` created exclusively (pid, host, time), with stale-lock recovery.
import { link, open, readFile, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { lockTempPath, sweepLockTemps } from './lock-temp.ts';
import { StoreError } from './store-error.ts';

export const LOCK_FILE = '.lock';
/** A lock whose file has not been touched for this long is stale even when its owner cannot be checked. */
export const DEFAULT_STALE_LOCK_MS = 5 * 60_000;
const BREAK_FILE = '.lock.break';
const BREAK_WAIT_MS = 1_000;

export interface LockHolder {
  pid: number;
  host: string;
  created_at: string;
  token: string;
}

interface Seen {
  raw: string;
  holder: LockHolder | null;
  mtimeMs: number;
}

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

/**
 * Creates `path` only if absent, with complete contents: a crash never leaves a half-written lock.
 * The temp file is removed on every path out of here; only a crash in between leaves it, for the sweep.
 */
async function createExclusive(path: string, contents: string): Promise<void> {
  const tmp = lockTempPath(path);
  try {
    await writeFile(tmp, contents, { flag: 'wx' });
    try {
      await link(tmp, path);
      return;
    } catch (err) {
      // File systems without hard links (FAT, some network shares) fall back to O_EXCL.
      if (!['EPERM', 'ENOTSUP', 'ENOSYS', 'EOPNOTSUPP', 'EXDEV'].includes(errno(err) ?? '')) throw err;
    }
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
  const handle = await open(path, 'wx');
  try {
    await handle.writeFile(contents);
  } catch (err) {
    // A lock we could not finish writing is nobody's: leave no torn file behind.
    await handle.close().catch(() => undefined);
    await unlink(path).catch(() => undefined);
    throw err;
  }
  await handle.close();
}

async function readLock(path: string): Promise<Seen | null> {
  try {
    const [raw, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    let holder: LockHolder | null = null;
    try {
      const v = JSON.parse(raw) as Partial<LockHolder>;
      if (typeof v.pid === 'number' && typeof v.host === 'string' && typeof v.token === 'string') {
        holder = { pid: v.pid, host: v.host, created_at: String(v.created_at ?? ''), token: v.token };
      }
    } catch {
      holder = null;
    }
    return { raw, holder, mtimeMs: info.mtimeMs };
  } catch (err) {
    if (errno(err) === 'ENOENT') return null;
    throw err;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return errno(err) === 'EPERM';
  }
}

/** Dead owner on this host, or untouched for longer than the bound (other hosts, reused pids, torn files). */
function isStale(seen: Seen, staleMs: number, now: number): boolean {
  if (now - seen.mtimeMs > staleMs) return true;
  if (!seen.holder) return now - seen.mtimeMs > Math.min(staleMs, 5_000);
  return seen.holder.host === hostname() && !processAlive(seen.holder.pid);
}

function describe(seen: Seen): string {
  if (!seen.holder) return 'an unreadable lock file';
  return `process ${seen.holder.pid} on ${seen.holder.host} since ${seen.holder.created_at}`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Removes a stale lock under a second, short-lived lock so two recoverers cannot both take over. */
async function breakStale(lockPath: string, seen: Seen, staleMs: number): Promise<void> {
  const breakPath = join(lockPath, '..', BREAK_FILE);
  const me = JSON.stringify({ pid: process.pid, host: hostname(), created_at: new Date().toISOString(), token: randomBytes(8).toString('hex') });
  const deadline = Date.now() + BREAK_WAIT_MS;
  for (;;) {
    try {
      await createExclusive(breakPath, me);
      break;
    } catch (err) {
      if (errno(err) !== 'EEXIST') throw err;
      const other = await readLock(breakPath);
      if (other && isStale(other, Math.min(staleMs, 10_000), Date.now())) {
        await unlink(breakPath).catch(() => undefined);
        continue;
      }
      if (Date.now() > deadline) return;
      await sleep(20);
    }
  }
  try {
    const now = await readLock(lockPath);
    if (now && now.raw === seen.raw && now.mtimeMs === seen.mtimeMs) await unlink(lockPath);
  } finally {
    await unlink(breakPath).catch(() => undefined);
  }
}

export class SessionLock {
  readonly path: string;
  readonly holder: LockHolder;
  private timer: NodeJS.Timeout | null = null;

  constructor(path: string, holder: LockHolder, heartbeatMs: number) {
    this.path = path;
    this.holder = holder;
    if (heartbeatMs > 0) {
      // Keeps a long, quiet session's lock fresh; unref so it never holds the process open.
      this.timer = setInterval(() => void utimes(this.path, new Date(), new Date()).catch(() => undefined), heartbeatMs);
      this.timer.unref();
    }
  }

  /** Confirms the lock is still ours (nobody judged it stale and took over) and refreshes its time. */
  async confirm(sessionLabel: string): Promise<void> {
    const seen = await readLock(this.path);
    if (!seen || seen.holder?.token !== this.holder.token) {
      const who = seen ? describe(seen) : 'nobody (the lock file was removed)';
      throw new StoreError('lock_lost', `Lost the lock on session ${sessionLabel}: it is now held by ${who}. Nothing was written.`);
    }
    const now = new Date();
    await utimes(this.path, now, now);
  }

  async release(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const seen = await readLock(this.path);
    if (seen?.holder?.token === this.holder.token) await unlink(this.path).catch(() => undefined);
  }
}

export interface AcquireOptions {
  staleMs?: number;
  /** How often a held lock's time is refreshed; 0 turns the timer off. */
  heartbeatMs?: number;
}

/** Takes `<sessionDir>/.lock` or fails with a message naming who holds it. */
export async function acquireLock(sessionDir: string, sessionLabel: string, options: AcquireOptions = {}): Promise<SessionLock> {
  const staleMs = options.staleMs ?? DEFAULT_STALE_LOCK_MS;
  const heartbeatMs = options.heartbeatMs ?? Math.floor(staleMs / 4);
  const path = join(sessionDir, LOCK_FILE);
  const holder: LockHolder = { pid: process.pid, host: hostname(), created_at: new Date().toISOString(), token: randomBytes(12).toString('hex') };
  let last: Seen | null = null;
  for (let attempt = 0; attempt < 4; attempt++) {
    try {
      await createExclusive(path, `${JSON.stringify(holder)}\n`);
      // Ours now: clear the temp files writers that crashed mid-acquire left here.
      await sweepLockTemps(sessionDir);
      return new SessionLock(path, holder, heartbeatMs);
    } catch (err) {
      if (errno(err) === 'ENOENT') throw new StoreError('session_not_found', `Session folder ${sessionDir} does not exist.`);
      if (errno(err) !== 'EEXIST') throw err;
    }
    last = await readLock(path);
    if (last === null) continue;
    if (!isStale(last, staleMs, Date.now())) break;
    await breakStale(path, last, staleMs);
  }
  const who = last ? describe(last) : 'another writer';
  throw new StoreError(
    'session_locked',
    `Session ${sessionLabel} is being written by ${who}; only one writer may record a session at a time. ` +
      `If that process is gone, the lock (${path}) is recovered automatically once it is older than ${Math.round(staleMs / 1000)} s.`,
  );
}
