// A folder's entries, or none when it cannot be opened or read (gone or unreadable): the walks treat both alike.
import type { Dirent } from 'node:fs';
import { opendir } from 'node:fs/promises';

export async function* folderEntries(dir: string): AsyncGenerator<Dirent> {
  let handle;
  try {
    handle = await opendir(dir);
  } catch {
    return;
  }
  // Reading can fail after the open succeeded (EACCES inside /proc, a folder on a dropped network share):
  // the entries read so far stand, the rest are skipped like an unreadable folder's. The loop closes the handle.
  try {
    for await (const entry of handle) yield entry;
  } catch {
    return;
  }
}
