// A query's counted files written once into temporary tables, so the dashboard's statements read a list of ids instead of each working the match out again.
import type { SQLInputValue } from 'node:sqlite';
import type { Filters } from './query-parser.ts';
import { withClause } from './search.ts';
import type { UsageScope, UsageSource } from './usage-match.ts';

/** The files counted (every match and its sub-agents) and the sessions counted (the top-level matches), by row id. */
export const FAMILY_TABLE = 'temp.sv_dash_family';
export const PICKED_TABLE = 'temp.sv_dash_picked';

export interface StoredScope {
  /** The same files as the scope it was made from, as conditions on the temporary tables (no CTE to work out again). */
  scope: UsageScope;
  /** How many files, and sessions, it counts. */
  files: number;
  sessions: number;
}

const run = (source: Pick<UsageSource, 'index'>, sql: string, params: SQLInputValue[] = []) => source.index.prepared(sql).run(...params);

/**
 * Writes the scope's files into the connection's temporary tables (private to it; replaced by the next call). The
 * statements are synchronous, so no other dashboard call reads them half written.
 */
export function storeScope(source: Pick<UsageSource, 'index'>, scope: UsageScope): StoredScope {
  run(source, `CREATE TEMP TABLE IF NOT EXISTS sv_dash_family (id INTEGER PRIMARY KEY)`);
  run(source, `CREATE TEMP TABLE IF NOT EXISTS sv_dash_picked (id INTEGER PRIMARY KEY)`);
  run(source, `DELETE FROM ${FAMILY_TABLE}`);
  run(source, `DELETE FROM ${PICKED_TABLE}`);
  const files = scope.any
    ? run(source, `${withClause(scope.ctes)}INSERT INTO ${FAMILY_TABLE} SELECT f.id FROM files f WHERE ${scope.cond('f.id')}`, scope.params)
    : null;
  // The top-level files counted are the sessions counted (a file's sub-agents are part of it).
  const sessions = scope.any
    ? run(source, `INSERT INTO ${PICKED_TABLE} SELECT x.id FROM ${FAMILY_TABLE} x JOIN usage_sessions s ON s.file_id = x.id WHERE s.top_level = 1`)
    : null;
  return {
    files: Number(files?.changes ?? 0),
    sessions: Number(sessions?.changes ?? 0),
    scope: {
      parsed: scope.parsed,
      shadowed: scope.shadowed,
      ctes: [],
      params: [],
      cond: (c) => `${c} IN ${FAMILY_TABLE}`,
      sessionCond: (c) => `${c} IN ${PICKED_TABLE}`,
      from: (a) => `${FAMILY_TABLE} sv_x CROSS JOIN usage ${a} ON ${a}.file_id = sv_x.id`,
      where: () => 'true',
      any: scope.any,
    },
  };
}

/**
 * The counted files of one source (the current 5-hour block's: the query's source, else Claude Code's). A sub-agent is
 * of its parent's tool, so these are the files the query with that source would count.
 */
export function ofSource(stored: UsageScope, source: NonNullable<Filters['source']>): UsageScope {
  return {
    ...stored,
    parsed: { ...stored.parsed, filters: { ...stored.parsed.filters, source } },
    ctes: ['sv_dash_source(v) AS (SELECT ?)'],
    params: [source],
    cond: (c) => `${c} IN ${FAMILY_TABLE} AND (SELECT format FROM files WHERE id = ${c}) = (SELECT v FROM sv_dash_source)`,
  };
}
