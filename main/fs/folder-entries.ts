// A folder's entries, or none when it cannot be opened (gone or unreadable): the walks treat both alike.
import type { Dirent } from 'node:fs';
import { opendir } from 'node:fs/promises';

export async function* folderEntries(dir: string): AsyncGenerator<Dirent> {
  let handle;
  try {
    handle = await opendir(dir);
  } catch {
    return;
  }
  yield* handle;
}
