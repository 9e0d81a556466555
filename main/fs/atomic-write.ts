// Crash-safe file replacement: write a temp file, fsync it, rename over the target, fsync the folder.
import { open, readFile, rename, rm, mkdir } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** Makes a rename durable; Windows refuses to open folders and some file systems refuse to sync them. */
export async function fsyncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'ENOTSUP' && code !== 'EISDIR') throw err;
  } finally {
    await handle.close();
  }
}

export interface AtomicWriteOptions {
  /** A fixed temp file (e.g. `session.json.tmp`) for callers that hold a lock; otherwise a unique hidden name. */
  tmpPath?: string;
  /** Checks the bytes read back from the synced temp file; throwing keeps the old target and removes the temp file. */
  verify?: (written: Buffer) => void;
}

export async function writeFileAtomic(target: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const dir = dirname(target);
  await mkdir(dir, { recursive: true });
  const tmp = options.tmpPath ?? join(dir, `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(tmp, 'w', 0o644);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await rm(tmp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    if (options.verify) options.verify(await readFile(tmp));
    await rename(tmp, target);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  await fsyncDirectory(dir);
}
