// Reads a small file whole: in blocking calls off the main thread (a worker has nothing else to do meanwhile), asynchronously on it.
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { isMainThread } from 'node:worker_threads';

/**
 * A scan worker reads thousands of small files, and each asynchronous call (stat, open, read, close) waits for
 * libuv's thread pool: one scan worker reading the 10,000-session bench corpus sat idle 8 s of 28 s. In a worker
 * the blocking calls cost only the system calls; the main thread keeps the asynchronous ones, so it never stalls
 * on a slow disk.
 */
export async function readWholeFile(path: string): Promise<Buffer> {
  return isMainThread ? readFile(path) : readFileSync(path);
}

/**
 * stat(), blocking in a worker. Each asynchronous stat there is a round trip through libuv's thread pool: two
 * cross-thread wake-ups per session file, which on a 2-core VM cost more than the system call itself.
 */
export async function statPath(path: string): Promise<Stats> {
  return isMainThread ? stat(path) : statSync(path);
}

/** A folder's entry names, blocking in a worker (see statPath). */
export async function listFolder(path: string): Promise<string[]> {
  return isMainThread ? readdir(path) : readdirSync(path);
}

/**
 * A file's size and, when it is 1 to `max` bytes, its bytes, from one open: a scan worker used to stat each file
 * by its path and then read it (an open and another stat), a path lookup too many for every small session.
 */
export async function readFileUpTo(path: string, max: number): Promise<{ size: number; bytes: Buffer | null }> {
  const wanted = (size: number) => size > 0 && size <= max;
  if (isMainThread) {
    const handle = await open(path, 'r');
    try {
      const { size } = await handle.stat();
      return { size, bytes: wanted(size) ? await handle.readFile() : null };
    } finally {
      await handle.close();
    }
  }
  const fd = openSync(path, 'r');
  try {
    const { size } = fstatSync(fd);
    return { size, bytes: wanted(size) ? readFileSync(fd) : null };
  } finally {
    closeSync(fd);
  }
}
