// The index file opened read-only, shaped as the search side reads a SessionIndex (prepared statements, stored read results): what the CLI's fast paths query.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { SessionIndex } from '../search-index/index-store.ts';
import type { SummaryResponse } from '../workers/read-protocol.ts';

/** What searchIndex, countFacets, the snippets and the listing read of an index: nothing that writes. */
export type IndexReads = Pick<SessionIndex, 'statement' | 'prepared' | 'storedResults'>;

export function readOnlyIndex(db: DatabaseSync): IndexReads {
  const statements = new Map<string, StatementSync>();
  const prepared = (sql: string): StatementSync => {
    let s = statements.get(sql);
    if (!s) {
      s = db.prepare(sql);
      statements.set(sql, s);
    }
    return s;
  };
  return {
    // No writer here: nothing is queued, so a statement needs no flush first.
    statement: prepared,
    prepared,
    storedResults(paths: readonly string[]): Map<string, SummaryResponse> {
      const out = new Map<string, SummaryResponse>();
      if (!paths.length) return out;
      const rows = prepared(
        'SELECT f.path AS path, r.result AS result FROM json_each(?) j JOIN files f ON f.path = j.value JOIN results r ON r.id = f.id',
      ).iterate(JSON.stringify(paths)) as Iterable<{ path: string; result: string }>;
      for (const row of rows) {
        try {
          out.set(row.path, JSON.parse(row.result) as SummaryResponse);
        } catch {
          // a damaged row: left out here as SessionIndex leaves it out (the next scan reads the file again)
        }
      }
      return out;
    },
  };
}
