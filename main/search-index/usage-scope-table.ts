// A query's counted files written once into temporary tables, so the dashboard's statements read a list of ids instead of each working the match out again.
import type { SQLInputValue } from 'node:sqlite';
import type { Filters } from './query-parser.ts';
import { withClause } from './search.ts';
import { noteTempChanges } from './index-generation.ts';
import type { UsageScope, UsageSource } from './usage-match.ts';

/**
 * The files counted (every match and its sub-agents) by row id; the top-level sessions among them (the sessions
 * counted) are those whose usage_sessions row says so (top_level: no parent key, as files.parent_key has it). Only ids:
 * a match on the files table's indexes (`after:30d`: files_time) then needs no files row (100,000 sessions: 28 -> 4 ms).
 * `IN_FILES` is the set of files to test a file id against.
 */
export const FAMILY_TABLE = 'temp.sv_dash_files';
export const IN_FILES = `(SELECT id FROM ${FAMILY_TABLE})`;
/**
 * For a query matching most files (counted as the totals less the others, usage-dashboard-sets.ts): the files with a
 * session row that are not counted (with dates, only those with usage on the dates' days), written once so the reads
 * of their rows, tools and sessions walk them instead of each testing every session row against the counted set.
 */
export const OTHERS_TABLE = 'temp.sv_dash_others';
const CREATE_FAMILY = 'CREATE TEMP TABLE IF NOT EXISTS sv_dash_files (id INTEGER PRIMARY KEY)';

export interface StoredScope {
  /** The same files as the scope it was made from, as conditions on the temporary tables (no CTE to work out again). */
  scope: UsageScope;
  /** How many files it counts. */
  files: number;
  /** OTHERS_TABLE already holds the files with a session row it does not count (usage-others-first.ts). */
  othersStored?: boolean;
}

const run = (source: Pick<UsageSource, 'index'>, sql: string, params: SQLInputValue[] = []) => source.index.prepared(sql).run(...params);
const count = (source: Pick<UsageSource, 'index'>, sql: string) => (source.index.prepared(sql).get() as { n: number }).n;

/**
 * The sub-agents of the matched files (the rows in the files table so far) that are not shadowed copies. Few matches:
 * each one's sub-agents, by its key (files_parent); many: every sub-agent not matched itself has its parent looked up
 * by key, kept when it is one of them (100,000 sessions, a word in 90%: 23 -> 9 ms; the matched ones passed over, 14 -> 6 ms).
 */
function addSubAgents(source: Pick<UsageSource, 'index'>, matched: number, shadowed: string): void {
  const subAgents = count(source, 'SELECT count(*) AS n FROM files INDEXED BY files_parent WHERE parent_key IS NOT NULL');
  if (!subAgents) return;
  const select =
    matched > subAgents
      ? `SELECT c.id FROM files c INDEXED BY files_parent WHERE c.parent_key IS NOT NULL AND c.id NOT IN ${IN_FILES}
        AND EXISTS (SELECT 1 FROM files p INDEXED BY files_key CROSS JOIN ${FAMILY_TABLE} x ON x.id = p.id WHERE p.key = c.parent_key)`
      : `SELECT c.id FROM ${FAMILY_TABLE} x CROSS JOIN files p ON p.id = x.id CROSS JOIN files c INDEXED BY files_parent ON c.parent_key = p.key WHERE c.parent_key IS NOT NULL`;
  run(source, `INSERT OR IGNORE INTO ${FAMILY_TABLE} (id) SELECT id FROM (${select}) WHERE id NOT IN (SELECT value FROM json_each(?))`, [shadowed]);
}

/**
 * Writes the scope's files into the connection's temporary tables (private to it; replaced by the next call). The
 * statements are synchronous, so no other dashboard call reads them half written. A query that narrows the files is
 * matched once, its matches written, then their sub-agents.
 */
export function storeScope(source: Pick<UsageSource, 'index'>, scope: UsageScope): StoredScope {
  const changes = () => (source.index.prepared('SELECT total_changes() AS c').get() as { c: number }).c;
  const before = changes();
  run(source, CREATE_FAMILY);
  run(source, `DELETE FROM ${FAMILY_TABLE}`);
  if (scope.any && scope.matched) {
    const { ctes, params, select, parts } = scope.matched;
    // Part by part when it has parts (usage-match.ts matchedIdParts): each file once, however many parts found it.
    const matched = parts
      ? parts.reduce((n, part) => n + Number(run(source, `${withClause(ctes)}INSERT OR IGNORE INTO ${FAMILY_TABLE} (id) ${part}`, params).changes), 0)
      : Number(run(source, `${withClause(ctes)}INSERT INTO ${FAMILY_TABLE} (id) ${select}`, params).changes);
    addSubAgents(source, matched, JSON.stringify(scope.shadowed));
  } else if (scope.any)
    run(source, `${withClause(scope.ctes)}INSERT INTO ${FAMILY_TABLE} (id) SELECT f.id FROM files f WHERE ${scope.cond('f.id')}`, scope.params);
  const files = count(source, `SELECT count(*) AS n FROM ${FAMILY_TABLE}`);
  noteTempChanges(source.index, changes() - before);
  // A table of a few rows per file (usage_limits) is read through the set when the set is the smaller, else read whole
  // with each row's file tested against the set (walking the set of a word in 90% of 100,000 sessions took 13 ms).
  const walkSet = files < count(source, 'SELECT count(*) AS n FROM usage_limits');
  return {
    files,
    scope: {
      parsed: scope.parsed,
      shadowed: scope.shadowed,
      ctes: [],
      params: [],
      cond: (c) => (walkSet ? `${c} IN ${IN_FILES}` : `EXISTS (SELECT 1 FROM ${FAMILY_TABLE} sv_in WHERE sv_in.id = ${c})`),
      sessionCond: (c) => `${c} IN (SELECT x.id FROM ${FAMILY_TABLE} x CROSS JOIN usage_sessions s ON s.file_id = x.id WHERE s.top_level = 1)`,
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
    cond: (c) => `${stored.cond(c)} AND (SELECT format FROM files WHERE id = ${c}) = (SELECT v FROM sv_dash_source)`,
  };
}

/**
 * Replaces the temporary table's files with the ids `select` gives (after the CTEs `ctes`): a few files whose own rows
 * are read (usage-name-rollup.ts's corrections). Returns how many.
 */
export function storeFiles(source: Pick<UsageSource, 'index'>, ctes: string[], select: string, params: SQLInputValue[]): number {
  const changes = () => (source.index.prepared('SELECT total_changes() AS c').get() as { c: number }).c;
  const before = changes();
  run(source, CREATE_FAMILY);
  run(source, `DELETE FROM ${FAMILY_TABLE}`);
  const stored = Number(run(source, `${withClause(ctes)}INSERT OR IGNORE INTO ${FAMILY_TABLE} (id) ${select}`, params).changes);
  noteTempChanges(source.index, changes() - before);
  return stored;
}

/**
 * Writes the files with a session row that the stored scope (storeScope, just before) does not count into
 * OTHERS_TABLE; with `days`, only those with usage on the days from `first` to `last` (found by day,
 * usage_file_days_day), at most `limit` of them. Returns how many.
 */
export function storeOthers(source: Pick<UsageSource, 'index'>, days?: { first: string; last: string; limit: number }): number {
  const changes = () => (source.index.prepared('SELECT total_changes() AS c').get() as { c: number }).c;
  const before = changes();
  run(source, 'CREATE TEMP TABLE IF NOT EXISTS sv_dash_others (id INTEGER PRIMARY KEY)');
  run(source, `DELETE FROM ${OTHERS_TABLE}`);
  const stored = Number(
    (days
      ? run(
          source,
          `INSERT INTO ${OTHERS_TABLE} (id) SELECT id FROM (SELECT DISTINCT d.file_id AS id FROM usage_file_days d INDEXED BY usage_file_days_day
          WHERE d.day >= ? AND d.day <= ? AND d.day != '' AND d.file_id NOT IN ${IN_FILES} LIMIT ?)`,
          [days.first, days.last, days.limit],
        )
      : run(
          source,
          `INSERT INTO ${OTHERS_TABLE} (id) SELECT s.file_id FROM usage_sessions s INDEXED BY usage_sessions_narrow WHERE s.file_id NOT IN ${IN_FILES}`,
        )
    ).changes,
  );
  noteTempChanges(source.index, changes() - before);
  return stored;
}

/** The files storeOthers wrote. */
export function storedOthers(source: Pick<UsageSource, 'index'>): number[] {
  const ids = source.index.prepared(`SELECT id FROM ${OTHERS_TABLE}`);
  ids.setReturnArrays(true);
  return (ids.all() as unknown as Array<[number]>).map(([id]) => id);
}

/** The current block's files (usage-dashboard.ts): a table of their own, so a scope over the files table can pick them. */
const BLOCK_TABLE = 'temp.sv_dash_block';

/**
 * The files of `scope` with usage from `sinceMs` on (the current block's), each tested once and stored, as a scope over
 * them: the block's rows are hours a few files share (100,000 sessions: 4,136 rows of 252 files), and the `model:`
 * scope's test of each row's file (its names, its source, usage-name-rollup.ts) took 22 ms of them, 15 ms so.
 */
export function recentFiles(source: Pick<UsageSource, 'index'>, scope: UsageScope, sinceMs: number): UsageScope {
  const changes = () => (source.index.prepared('SELECT total_changes() AS c').get() as { c: number }).c;
  const before = changes();
  run(source, 'CREATE TEMP TABLE IF NOT EXISTS sv_dash_block (id INTEGER PRIMARY KEY)');
  run(source, `DELETE FROM ${BLOCK_TABLE}`);
  run(
    source,
    `${withClause([...scope.ctes, 'sv_recent AS MATERIALIZED (SELECT DISTINCT file_id AS id FROM usage INDEXED BY usage_hour WHERE hour_ms >= ?)'])}
    INSERT INTO ${BLOCK_TABLE} (id) SELECT r.id FROM sv_recent r WHERE ${scope.cond('r.id')}`,
    [...scope.params, sinceMs],
  );
  noteTempChanges(source.index, changes() - before);
  const inBlock = (c: string) => `${c} IN (SELECT id FROM ${BLOCK_TABLE})`;
  return { ...scope, ctes: [], params: [], cond: inBlock, sessionCond: () => '0', from: (a) => `usage ${a}`, where: (a) => inBlock(`${a}.file_id`) };
}
