// Which sessions' own files carry a summary (ProjectHub's summary_json), read from the index without opening a file.
import type { SessionIndex } from './index-store.ts';

/** The keys among `keys` whose indexed file has a summary of its own (a kept copy or the live file, either counts). */
export function ownSummaryKeys(index: SessionIndex, keys: readonly string[]): Set<string> {
  if (!keys.length) return new Set();
  const rows = index
    .statement('SELECT DISTINCT key FROM files WHERE has_summary = 1 AND key IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(keys)) as Array<{ key: string }>;
  return new Set(rows.map((r) => r.key));
}
