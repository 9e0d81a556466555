// Which files' usage a report or the dashboard adds up for a search query: every match once, with the sub-agents of a matched parent.
import type { SQLInputValue, StatementSync } from 'node:sqlite';
import type { IndexedCatalogue } from './indexed-catalogue.ts';
import { parseQuery, type Filters, type ParsedQuery } from './query-parser.ts';
import { buildMatch, idConds, whereClause, type Match } from './search.ts';
import { hasVaultFilter, listingView, vaultFacts, type Annotated } from './search-service.ts';
import { modelCondition } from './usage-file-models.ts';

/** What the usage figures are read from: the index, and what only the running app knows about its files. */
export interface UsageSource {
  index: { prepared(sql: string): StatementSync };
  /** Row ids not counted: kept copies whose live file exists (the session is counted once, as the live file). */
  shadowed(): number[];
  /** The keys the query's vault filters (is:starred, tag:, is:kept) allow. */
  vaultKeys(filters: Filters): string[] | undefined;
}

/** The app's catalogue as a usage source (listingView waits for queued writes: the reads after it need not). */
export function catalogueSource(catalogue: IndexedCatalogue, annotated: Annotated): UsageSource {
  return {
    index: catalogue.index,
    // listingView is worked out again only when the index or the catalogue changed (not for the dashboard's temporary tables).
    shadowed: () => listingView(catalogue).shadowed,
    vaultKeys: (filters) => vaultFacts(catalogue, filters, annotated, false).onlyKeys,
  };
}

/** The CTE of the kept copies a live file shadows (its parameter: their ids as a JSON array), which every usage query leaves out. */
export const SHADOWED_CTE = 'sv_shadowed AS MATERIALIZED (SELECT value AS id FROM json_each(?))';

/** The files counted, as CTEs to put first in a statement and a condition on a file id column that uses them. */
export interface UsageScope {
  parsed: ParsedQuery;
  /** The kept copies left out (their live file counts). */
  shadowed: readonly number[];
  ctes: string[];
  params: SQLInputValue[];
  /** `column` is one of the counted files (for `u.file_id`, `f.id` ...). */
  cond(column: string): string;
  /** The same, for top-level sessions only: what the per-session distributions count (a sub-agent is part of its parent). */
  sessionCond(column: string): string;
  /**
   * The usage rows of the counted files as a FROM clause (the rows named `alias`) and its WHERE condition: all rows but
   * the shadowed copies', or, for a narrower query, the rows of its files looked up file by file (usage_file).
   */
  from(alias: string): string;
  where(alias: string): string;
  /** False when the query can match nothing (a term of punctuation only). */
  any: boolean;
  /**
   * When the query narrows the files: its matches alone (before their sub-agents are added) as a SELECT of their ids
   * (one column) with the CTEs and parameters it needs (`sv_shadowed` among them), for usage-scope-table.ts.
   */
  matched?: {
    ctes: string[];
    params: SQLInputValue[];
    select: string;
    /** The same ids as `select`, as one SELECT per part of the match (each its files once, the parts overlapping) when it has parts. */
    parts?: string[];
  };
}

/**
 * The ids of a match's files. With no condition on the files row, the matched set's own ids less the excluded ones (as
 * the search's count takes them), not each one's files row looked up: a word in 90% of 100,000 sessions (105,066
 * matches) written into usage-scope-table.ts's table in 26 ms, 52 before (with the set not materialized first, matchedOnce).
 */
function matchedIds(m: Match, matchedWhere: string[]): string {
  if (m.matched && !m.fileConds.length) return `SELECT d.id AS id FROM ${m.matched} d${whereClause(m.idConds.map((c) => c.replaceAll('{id}', 'd.id')))}`;
  return `SELECT f.id AS id FROM files f${whereClause(matchedWhere)}`;
}

/**
 * matchedIds' ids part by part (the word index's files, then the identifiers'), for a match with no condition on the
 * files row: written into the table one after the other, SQLite builds no union of them first (a word in 90% of
 * 100,000 sessions: 32 -> 23 ms CPU, most of the rest the 105,066 ids' writing). Undefined when it cannot be split.
 */
function matchedIdParts(m: Match): string[] | undefined {
  if (!m.matched || m.fileConds.length || m.matchedParts.length < 2) return undefined;
  return m.matchedParts.map((part) => `SELECT d.rid AS id FROM ${part} d${whereClause(m.idConds.map((c) => c.replaceAll('{id}', 'd.rid')))}`);
}

/**
 * Every file counts once (a kept copy whose live file exists is left out). A query that narrows the files also brings
 * in the sub-agents of the parents it matched, so a parent's usage is its total (the `tokens>` filter compares
 * totals too, search-filters.ts); a sub-agent matched alone counts alone.
 */
export function usageScope(from: UsageSource, query: string, adjust?: (parsed: ParsedQuery) => void, now = Date.now()): UsageScope {
  const parsed = parseQuery(query, now);
  adjust?.(parsed);
  const onlyKeys = hasVaultFilter(parsed.filters) ? from.vaultKeys(parsed.filters) : undefined;
  const shadowedIds = from.shadowed();
  // model: through the names each file is of or called (usage-file-models.ts), not a test of every file's rows.
  const model = modelCondition(parsed.filters);
  const m = buildMatch(model ? { ...parsed, filters: { ...parsed.filters, model: undefined } } : parsed, {
    excludeIds: shadowedIds,
    onlyKeys,
    matchedOnce: true,
  });
  if (m && model) {
    m.fileConds.push(model.clause);
    m.fileParams.push(...model.params);
  }
  const excluded = JSON.stringify(shadowedIds);
  // A sub-agent is part of its parent's session (as the writer's totals count it: usage-write.ts).
  const topLevel = (column: string) => `${column} NOT IN (SELECT id FROM files WHERE parent_key IS NOT NULL)`;
  if (!m)
    return {
      parsed,
      shadowed: shadowedIds,
      ctes: [],
      params: [],
      cond: () => '0',
      sessionCond: () => '0',
      from: (a) => `usage ${a}`,
      where: () => '0',
      any: false,
    };
  const { source, tags, ...others } = parsed.filters;
  if (source && !parsed.terms.length && !tags.length && Object.values(others).every((v) => v === undefined)) {
    // Only a source: each row's file is looked up by its id (a sub-agent is of its parent's tool, no family to gather).
    const ofSource = (c: string) => `EXISTS (SELECT 1 FROM files sv_f WHERE sv_f.id = ${c} AND sv_f.format = (SELECT v FROM sv_source))`;
    return {
      parsed,
      shadowed: shadowedIds,
      ctes: [SHADOWED_CTE, 'sv_source(v) AS (SELECT ?)'],
      params: [excluded, source],
      cond: (c) => `${c} NOT IN sv_shadowed AND ${ofSource(c)}`,
      sessionCond: (c) => `${c} NOT IN sv_shadowed AND ${topLevel(c)} AND ${ofSource(c)}`,
      from: (a) => `usage ${a}`,
      where: (a) => `${a}.file_id NOT IN sv_shadowed AND ${ofSource(`${a}.file_id`)}`,
      any: true,
    };
  }
  if (!parsed.terms.length && !m.fileConds.length) {
    // Nothing narrows the files: all of them but the shadowed copies (no family to gather).
    return {
      parsed,
      shadowed: shadowedIds,
      ctes: [SHADOWED_CTE],
      params: [excluded],
      cond: (c) => `${c} NOT IN sv_shadowed`,
      sessionCond: (c) => `${c} NOT IN sv_shadowed AND ${topLevel(c)}`,
      // Every row: read in the table's order (through the hour index, each row was a random read: 2x slower).
      from: (a) => `usage ${a} NOT INDEXED`,
      where: (a) => `${a}.file_id NOT IN sv_shadowed`,
      any: true,
    };
  }
  const matchedWhere = [...idConds(m, 'f.id'), ...m.fileConds];
  const picked = `sv_picked AS MATERIALIZED (SELECT f.id AS id, f.key AS key, f.parent_key AS parent FROM files f${whereClause(matchedWhere)})`;
  const family = `sv_family AS MATERIALIZED (SELECT id FROM sv_picked UNION SELECT c.id FROM files c WHERE c.parent_key IN (SELECT key FROM sv_picked) AND c.id NOT IN sv_shadowed)`;
  return {
    parsed,
    shadowed: shadowedIds,
    ctes: [...m.ctes, SHADOWED_CTE, picked, family],
    params: [...m.cteParams, excluded, ...m.idParams, ...m.fileParams],
    cond: (c) => `${c} IN sv_family`,
    // A matched sub-agent counts with its parent's session, not as one of its own.
    sessionCond: (c) => `${c} IN (SELECT id FROM sv_picked WHERE parent IS NULL)`,
    // Words usually match many sessions: their rows are read in the table's order, each checked against the set;
    // filters alone (a project, dates) pick fewer, whose rows are looked up file by file (usage_file).
    from: (a) => (parsed.terms.length ? `usage ${a} NOT INDEXED` : `sv_family sv_x CROSS JOIN usage ${a} ON ${a}.file_id = sv_x.id`),
    where: (a) => (parsed.terms.length ? `${a}.file_id IN sv_family` : 'true'),
    any: true,
    matched: {
      ctes: [...m.ctes, SHADOWED_CTE],
      params: [...m.cteParams, excluded, ...m.idParams, ...m.fileParams],
      select: matchedIds(m, matchedWhere),
      parts: matchedIdParts(m),
    },
  };
}
