// stat() that answers null for a missing file instead of throwing.
import { stat } from 'node:fs/promises';

export async function statFile(path: string): Promise<{ size: number; mtimeMs: number } | null> {
  try {
    const info = await stat(path);
    return info.isFile() ? { size: info.size, mtimeMs: info.mtimeMs } : null;
  } catch {
    return null;
  }
}
