// Start-up sweep: temp files a crash left in the app's own folders (never in the tools' folders), older than a minute.
import { rm, stat } from 'node:fs/promises';
import { folderEntries } from '../fs/folder-entries.ts';
import { join } from 'node:path';

/** Our writers' temp names: `session.json.tmp` (the session writer) and `.name.<pid>.<hex>.tmp` (atomic writes). */
const TEMP = /\.tmp$/;

export async function sweepTempFiles(dirs: string[], olderThanMs = 60_000, now = Date.now(), maxDepth = 40): Promise<number> {
  let removed = 0;
  const visit = async (dir: string, depth: number): Promise<void> => {
    for await (const entry of folderEntries(dir)) {
      const path = join(dir, entry.name);
      // Kept copies hold the user's files byte-for-byte: whatever is in source/ is theirs, not ours.
      if (entry.isDirectory() && entry.name !== 'source' && depth < maxDepth) await visit(path, depth + 1);
      else if (entry.isFile() && TEMP.test(entry.name)) {
        try {
          if (now - (await stat(path)).mtimeMs > olderThanMs) {
            await rm(path, { force: true });
            removed++;
          }
        } catch {
          // gone meanwhile
        }
      }
    }
  };
  for (const dir of dirs) await visit(dir, 0);
  return removed;
}
