// What the index file keeps of each listed file, read back at start: its stored read result, or only its facts (no summary parsed).
import type { DatabaseSync } from 'node:sqlite';
import type { SummaryResponse } from '../workers/read-protocol.ts';

/** What a restart needs to list a file without reading it again. */
export interface StoredEntry {
  path: string;
  key: string;
  size: number;
  mtimeMs: number;
  result: SummaryResponse;
}

/** What a start needs to list a file without reading it or parsing its stored summary. */
export interface StoredFacts {
  path: string;
  size: number;
  mtimeMs: number;
  key: string;
  parentKey: string | null;
  unreadable: boolean;
  closed: boolean;
  companions: string[];
}

/** A stored read result, or null for a damaged one (the file is read again by the next scan). */
export function parseStoredResult(text: string): SummaryResponse | null {
  try {
    return JSON.parse(text) as SummaryResponse;
  } catch {
    return null;
  }
}

/** Every stored file with its read result, in the order they were first stored (damaged rows left out). */
export function* storedEntries(db: DatabaseSync): Generator<StoredEntry> {
  for (const row of db
    .prepare(
      'SELECT f.path AS path, f.key AS key, f.size AS size, f.mtime_ms AS mtime_ms, r.result AS result FROM files f JOIN results r ON r.id = f.id ORDER BY f.id',
    )
    .iterate() as Iterable<{ path: string; key: string; size: number; mtime_ms: number; result: string }>) {
    const result = parseStoredResult(row.result);
    if (result) yield { path: row.path, key: row.key, size: row.size, mtimeMs: row.mtime_ms, result };
  }
}

/** Every stored file's facts, no summary parsed. */
export function* storedFactsOf(db: DatabaseSync): Generator<StoredFacts> {
  // Rows as arrays, a few thousand at a time by id: a third of the time of row objects, and little garbage at once.
  const page = db.prepare('SELECT id, path, key, size, mtime_ms, parent_key, readable, status, companions FROM files WHERE id > ? ORDER BY id LIMIT 4096');
  page.setReturnArrays(true);
  let after = 0;
  for (;;) {
    const rows = page.all(after) as unknown as Array<[number, string, string, number, number, string | null, number, string | null, string | null]>;
    for (const [, path, key, size, mtimeMs, parentKey, readable, status, companionsJson] of rows) {
      let companions: string[] = [];
      if (companionsJson) {
        try {
          companions = JSON.parse(companionsJson) as string[];
        } catch {
          // without them a change to a companion is not noticed until the file itself changes
        }
      }
      yield { path, size, mtimeMs, key, parentKey, unreadable: readable === 0, closed: status === 'closed', companions };
    }
    if (rows.length < 4096) return;
    after = rows[rows.length - 1]?.[0] ?? after;
  }
}
