// One pass over a root: find claimed files, read the new or changed ones (bounded concurrency), forget the gone.
import { stat } from 'node:fs/promises';
import { walkFiles } from './walk.ts';
import { statFile } from '../fs/stat-file.ts';

export interface ScanHooks {
  claims: (path: string) => boolean;
  isFresh: (path: string, size: number, mtimeMs: number) => boolean;
  /** Reads a file into the catalogue and returns its key. */
  read: (path: string, size: number, mtimeMs: number) => Promise<string | null>;
  /** Called with keys in small batches as they are read, so the list fills while the scan runs. */
  onKeys: (keys: string[]) => void;
  stopped: () => boolean;
}

export interface ScanResult {
  seen: Set<string>;
  error: string | null;
}

const MAX_IN_FLIGHT = 16;

export async function scanRoot(root: string, hooks: ScanHooks, maxDepth?: number): Promise<ScanResult> {
  const seen = new Set<string>();
  try {
    if (!(await stat(root)).isDirectory()) return { seen, error: `Not a folder: ${root}` };
  } catch {
    return { seen, error: `Folder no longer exists: ${root}` };
  }
  const inFlight = new Set<Promise<void>>();
  for await (const path of walkFiles(root, hooks.claims, maxDepth)) {
    if (hooks.stopped()) break;
    seen.add(path);
    const info = await statFile(path);
    if (!info || hooks.isFresh(path, info.size, info.mtimeMs)) continue;
    const job = hooks.read(path, info.size, info.mtimeMs).then((key) => {
      if (key) hooks.onKeys([key]);
    });
    const tracked = job.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
    if (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  return { seen, error: null };
}
