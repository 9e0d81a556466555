// For a word in most files: the files it does not count (the others) worked out in memory and written alone, instead of writing every match and then the others.
import { eachId, IdBits, idList } from './usage-id-bits.ts';
import type { UsageScope, UsageSource } from './usage-match.ts';
import { noteTempChanges } from './index-generation.ts';
import { FAMILY_TABLE, OTHERS_TABLE, type StoredScope } from './usage-scope-table.ts';

const MATCHED = 1;
const SUB_AGENT = 2;
const HAS_SESSION = 4;
const SHADOWED = 8;
const IN_FAMILY = MATCHED | SUB_AGENT;

/**
 * When the query is words (and filters on their ids) with no dates, and its matches alone are more than half the files
 * with a session row: every match and sub-agent marked in memory (the match's parts, then each sub-agent whose parent
 * is matched, as usage-scope-table.ts addSubAgents adds them), and only the files with a session row not marked
 * written into OTHERS_TABLE (100,000 sessions, 'parser': 11,152 rows, not 106,785 and then the 11,152: 34 -> 24 ms CPU),
 * found by id among the files not marked (not every session row's id read: 11 -> ~5 ms). The
 * matched files with no session row (normally none: read only when the counts say there are some) go into FAMILY_TABLE, so the scope (the current block's files,
 * the limits) is exactly storeScope's. Its files are more than half those with a session row, so usage-dashboard-sets.ts
 * fromFileDays takes the others' way, which reads FAMILY_TABLE no further. Null when it does not apply (the caller
 * writes the matches: storeScope).
 */
export function storeOthersFirst(source: Pick<UsageSource, 'index'>, scope: UsageScope): StoredScope | null {
  const { afterMs, beforeMs } = scope.parsed.filters;
  const parts = scope.matched?.parts;
  if (!scope.any || !scope.matched || !parts || afterMs !== undefined || beforeMs !== undefined) return null;
  const { ctes, params } = scope.matched;
  // Each its own statement: together, the count walked every row (3.5 ms); alone, SQLite counts the pages and the max is one seek.
  const sessions = source.index.prepared('SELECT (SELECT count(*) FROM usage_sessions) AS n, (SELECT max(file_id) FROM usage_sessions) AS top').get() as {
    n: number;
    top: number | null;
  };
  const ids = new IdBits(sessions.top ?? 0);
  let matched = 0;
  for (const part of parts) matched += ids.markList(idList(source, ctes, part, params), MATCHED);
  if (matched * 2 <= sessions.n) return null;
  for (const id of scope.shadowed) {
    ids.reach(id);
    ids.bits[id]! |= SHADOWED;
  }
  // The sub-agents (from their index alone), then, for those not matched themselves and not shadowed copies, the
  // ids of the files of their parent's key: counted when one of them is matched (a word in 90% of 100,000 sessions:
  // ~1,800 parents looked up instead of 17,937, 7 -> ~2 ms).
  const unmatched: number[] = [];
  eachId(idList(source, [], 'SELECT id FROM files INDEXED BY files_parent WHERE parent_key IS NOT NULL', []), (id) => {
    ids.reach(id);
    if (!(ids.bits[id]! & (MATCHED | SHADOWED))) unmatched.push(id);
  });
  const pairs = idList(
    source,
    [],
    `SELECT c.id || ',' || p.id AS id FROM json_each(?) j CROSS JOIN files c ON c.id = j.value CROSS JOIN files p INDEXED BY files_key ON p.key = c.parent_key`,
    [JSON.stringify(unmatched)],
  );
  let child = -1;
  eachId(pairs, (id) => {
    if (child < 0) {
      child = id;
      return;
    }
    ids.reach(id);
    if (ids.bits[id]! & MATCHED) ids.bits[child]! |= SUB_AGENT;
    child = -1;
  });
  // The others: of the files not counted (up to the last with a session row), those with a session row, found by id
  // (100,000 sessions, 'parser': ~11,000 lookups, not 117,937 session rows' ids read into a list and marked).
  const bits = ids.bits;
  const candidates: number[] = [];
  let files = 0;
  for (let id = 0; id < bits.length; id++) {
    if (bits[id]! & IN_FAMILY) files++;
    else if (id <= (sessions.top ?? 0)) candidates.push(id);
  }
  const changes = () => (source.index.prepared('SELECT total_changes() AS c').get() as { c: number }).c;
  const before = changes();
  source.index.prepared('CREATE TEMP TABLE IF NOT EXISTS sv_dash_files (id INTEGER PRIMARY KEY)').run();
  source.index.prepared('CREATE TEMP TABLE IF NOT EXISTS sv_dash_others (id INTEGER PRIMARY KEY)').run();
  source.index.prepared(`DELETE FROM ${FAMILY_TABLE}`).run();
  source.index.prepared(`DELETE FROM ${OTHERS_TABLE}`).run();
  const others = Number(
    source.index
      .prepared(
        `INSERT INTO ${OTHERS_TABLE} (id) SELECT s.file_id FROM json_each(?) j CROSS JOIN usage_sessions s INDEXED BY usage_sessions_narrow ON s.file_id = j.value`,
      )
      .run(JSON.stringify(candidates)).changes,
  );
  // The counted files with no session row (normally none: then the files with one are the counted and the others).
  if (files + others !== sessions.n) {
    ids.markList(idList(source, [], 'SELECT file_id AS id FROM usage_sessions INDEXED BY usage_sessions_narrow', []), HAS_SESSION);
    const sessionless: number[] = [];
    for (let id = 0; id < ids.bits.length; id++) if (ids.bits[id]! & IN_FAMILY && !(ids.bits[id]! & HAS_SESSION)) sessionless.push(id);
    source.index.prepared(`INSERT INTO ${FAMILY_TABLE} (id) SELECT value FROM json_each(?)`).run(JSON.stringify(sessionless));
  }
  noteTempChanges(source.index, changes() - before);
  // Counted: a file with a session row not among the others, or one of the few without a session row written above.
  const cond = (c: string) =>
    `(EXISTS (SELECT 1 FROM ${FAMILY_TABLE} sv_in WHERE sv_in.id = ${c}) OR (EXISTS (SELECT 1 FROM usage_sessions sv_s WHERE sv_s.file_id = ${c})
      AND NOT EXISTS (SELECT 1 FROM ${OTHERS_TABLE} sv_o WHERE sv_o.id = ${c})))`;
  return {
    files,
    othersStored: true,
    scope: {
      parsed: scope.parsed,
      shadowed: scope.shadowed,
      ctes: [],
      params: [],
      cond,
      sessionCond: (c) => `${c} IN (SELECT s.file_id FROM usage_sessions s WHERE s.top_level = 1 AND s.file_id NOT IN (SELECT id FROM ${OTHERS_TABLE}))`,
      from: (a) => `usage ${a}`,
      where: (a) => cond(`${a}.file_id`),
      any: true,
    },
  };
}
