// Reads a small file whole: in one blocking call off the main thread (a worker has nothing else to do meanwhile), asynchronously on it.
import { readFileSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
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

export async function fileSize(path: string): Promise<number> {
  return isMainThread ? (await stat(path)).size : statSync(path).size;
}
