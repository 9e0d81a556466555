// Companion files a reader opens beside a session file: used only when their real path stays inside the session's own folder.
import { realpath } from 'node:fs/promises';
import { isWithin } from '../roots/paths.ts';

/**
 * True when `path` exists and its real path (every link followed) lies inside the real path of `folder`, the
 * session's own place on disk; a companion linked to a file elsewhere is treated as absent.
 */
export async function companionInside(path: string, folder: string): Promise<boolean> {
  try {
    const [realFolder, real] = await Promise.all([realpath(folder), realpath(path)]);
    return isWithin(realFolder, real);
  } catch {
    return false;
  }
}
