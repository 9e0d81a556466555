// Builds the SQL for a parsed query: FTS5 terms (words also match inside identifiers via trigrams), filters, order.
import type { SQLInputValue } from 'node:sqlite';
import type { SearchSort } from '../../shared/search-api.ts';
import type { Filters, ParsedQuery, Term } from './query-parser.ts';

export interface SearchSql {
  sql: string;
  params: SQLInputValue[];
}

/** What only the caller knows, narrowing the match: rows never to return, and the only keys allowed. */
export interface MatchLimits {
  /** Row ids of files that are not listed (a kept copy whose live file exists, a sub-agent under its parent). */
  excludeIds?: readonly number[] | undefined;
  /** When set, only files with one of these keys match (the vault's stars, tags and kept copies). */
  onlyKeys?: readonly string[] | undefined;
}

/**
 * The files a query matches, as parts to compose: CTEs (the FTS lookups, each run once), conditions on a row id,
 * and conditions needing the `files` row. `{id}` in idConds stands for the row id column used.
 */
export interface Match {
  ctes: string[];
  cteParams: SQLInputValue[];
  /** The other positive terms' sets (the first is the driver). */
  positiveConds: string[];
  /** Excluded terms and rows. */
  idConds: string[];
  idParams: SQLInputValue[];
  fileConds: string[];
  fileParams: SQLInputValue[];
  /** The first positive term's CTE: every match is in it, so a query can start from it instead of every file. */
  driver: string | null;
  /** True when every positive term is found by the word index alone (phrases): `rank` then matches exactly their files. */
  wordsOnly: boolean;
  /** FTS5 expression of every positive word term, for bm25 relevance; null when the query has no words. */
  rank: string | null;
}

/** An FTS5 string literal: the text as one phrase, quotes doubled. */
export const ftsString = (text: string) => `"${text.replaceAll('"', '""')}"`;

const hasWordChars = (text: string) => /[\p{L}\p{N}]/u.test(text);

/** The subquery of files one term matches, or null when the term can match nothing searchable. */
function termSet(term: Term, params: SQLInputValue[]): { sql: string; wordsOnly: boolean } | null {
  const parts: string[] = [];
  if (hasWordChars(term.text)) {
    parts.push('SELECT rowid AS rid FROM docs WHERE docs MATCH ?');
    params.push(term.kind === 'prefix' ? `${ftsString(term.text)}*` : ftsString(term.text));
  }
  // Substrings of identifiers and paths (`VizierDoc`, `toolu_01`); trigrams need three characters.
  if (term.kind !== 'phrase' && [...term.text].length >= 3) {
    parts.push('SELECT rowid AS rid FROM idents WHERE idents MATCH ?');
    params.push(ftsString(term.text));
  }
  return parts.length ? { sql: parts.join(' UNION '), wordsOnly: parts.length === 1 && hasWordChars(term.text) } : null;
}

/** Relevance: every positive term through the word index, weighted title > metadata > body. */
function rankExpression(terms: Term[]): string | null {
  const positive = terms.filter((t) => !t.negated && hasWordChars(t.text));
  if (!positive.length) return null;
  return positive.map((t) => (t.kind === 'prefix' ? `${ftsString(t.text)}*` : ftsString(t.text))).join(' AND ');
}

/** A LIKE pattern where `*` is a wildcard and everything else is literal. */
const like = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`).replaceAll('*', '%');
/** A LIKE pattern matching exactly the value (LIKE is case-insensitive for ASCII, as COLLATE NOCASE is). */
const likeLiteral = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The project column holds the name and the path, one per line. A quoted `project:"…"` is the whole name or the
 * whole path; a bare one is a substring of either.
 */
function projectClause(value: string, exact: boolean): { clause: string; values: SQLInputValue[] } {
  if (!exact) return { clause: "f.project LIKE ? ESCAPE '\\'", values: [`%${like(value)}%`] };
  const v = likeLiteral(value);
  return { clause: "(f.project LIKE ? ESCAPE '\\' OR f.project LIKE ? ESCAPE '\\' OR f.project LIKE ? ESCAPE '\\')", values: [v, `${v}\n%`, `%\n${v}`] };
}

function filterClauses(f: Filters, where: string[], params: SQLInputValue[]): void {
  const add = (clause: string, ...values: SQLInputValue[]) => {
    where.push(clause);
    params.push(...values);
  };
  if (f.source) add('f.format = ?', f.source);
  if (f.project) {
    const { clause, values } = projectClause(f.project, f.exact?.project === true);
    add(clause, ...values);
  }
  if (f.branch) {
    if (f.exact?.branch) add('f.branch = ? COLLATE NOCASE', f.branch);
    else add("f.branch LIKE ? ESCAPE '\\'", like(f.branch));
  }
  if (f.status) add('f.status = ? COLLATE NOCASE', f.status);
  if (f.outcome) add('f.outcome = ? COLLATE NOCASE', f.outcome);
  if (f.model) {
    if (f.exact?.model) add('f.model = ? COLLATE NOCASE', f.model);
    else add("f.model LIKE ? ESCAPE '\\'", `${like(f.model)}%`);
  }
  if (f.hasSummary) add('f.has_summary = 1');
  if (f.afterMs !== undefined) add('f.time_ms >= ?', f.afterMs);
  if (f.beforeMs !== undefined) add('f.time_ms <= ?', f.beforeMs);
  if (f.minTokens !== undefined) add('f.tokens >= ?', f.minTokens);
  if (f.maxTokens !== undefined) add('f.tokens <= ?', f.maxTokens);
  if (f.minCost !== undefined) add('f.cost >= ?', f.minCost);
  if (f.maxCost !== undefined) add('f.cost <= ?', f.maxCost);
}

/** The parts of a query's match, or null when a positive term can match nothing (only punctuation, too short). */
export function buildMatch(query: ParsedQuery, limits: MatchLimits = {}): Match | null {
  const m: Match = { ctes: [], cteParams: [], positiveConds: [], idConds: [], idParams: [], fileConds: [], fileParams: [], driver: null, wordsOnly: true, rank: rankExpression(query.terms) };
  for (const term of query.terms) {
    const set = termSet(term, m.cteParams);
    if (set === null) {
      if (!term.negated) return null;
      continue;
    }
    const name = `t${m.ctes.length}`;
    m.ctes.push(`${name} AS MATERIALIZED (${set.sql})`);
    if (term.negated) m.idConds.push(`{id} NOT IN ${name}`);
    else {
      m.wordsOnly &&= set.wordsOnly;
      if (m.driver === null) m.driver = name;
      else m.positiveConds.push(`{id} IN ${name}`);
    }
  }
  m.wordsOnly &&= m.driver !== null && m.rank !== null;
  if (limits.excludeIds?.length) {
    m.idConds.push('{id} NOT IN (SELECT value FROM json_each(?))');
    m.idParams.push(JSON.stringify(limits.excludeIds));
  }
  if (limits.onlyKeys) {
    m.fileConds.push('f.key IN (SELECT value FROM json_each(?))');
    m.fileParams.push(JSON.stringify(limits.onlyKeys));
  }
  filterClauses(query.filters, m.fileConds, m.fileParams);
  return m;
}

const withClause = (ctes: string[]) => (ctes.length ? `WITH ${ctes.join(', ')} ` : '');
const whereClause = (conds: string[]) => (conds.length ? ` WHERE ${conds.join(' AND ')}` : '');
/** The id conditions for files read from the `files` table (so including the first term's set). */
const idConds = (m: Match, column: string) => [...(m.driver ? [`{id} IN ${m.driver}`] : []), ...m.positiveConds, ...m.idConds].map((c) => c.replaceAll('{id}', column));

/**
 * Newest/largest first; missing values last; ties newest first, then by row id so pages never overlap (and the
 * time index can serve a date order without sorting).
 */
export function orderBy(sort: Exclude<SearchSort, 'relevance'> | 'rank'): string {
  switch (sort) {
    case 'rank':
      return 'score IS NULL, score ASC, f.time_ms DESC, f.id DESC';
    case 'date':
    case 'updated':
      return 'f.time_ms DESC, f.id DESC';
    case 'created':
      return 'f.created_ms IS NULL, f.created_ms DESC, f.time_ms DESC, f.id DESC';
    case 'size':
      return 'f.size DESC, f.time_ms DESC, f.id DESC';
    case 'tokens':
      return 'f.tokens IS NULL, f.tokens DESC, f.time_ms DESC, f.id DESC';
    case 'cost':
      return 'f.cost IS NULL, f.cost DESC, f.time_ms DESC, f.id DESC';
  }
}

/** Every matching file (id, path, key, score) in order; with `page`, only that slice (`LIMIT ? OFFSET ?` appended to the params). */
export function rowsSql(m: Match, sort: SearchSort, page?: { limit: number; offset: number }): SearchSql {
  const byRank = sort === 'relevance' && m.rank !== null;
  const ctes = [...(byRank ? ['h AS MATERIALIZED (SELECT rowid AS rid, bm25(docs, 10.0, 1.0, 3.0) AS score FROM docs WHERE docs MATCH ?)'] : []), ...m.ctes];
  const params: SQLInputValue[] = [...(byRank ? [m.rank as string] : []), ...m.cteParams, ...m.idParams, ...m.fileParams];
  const order = orderBy(byRank ? 'rank' : sort === 'relevance' ? 'date' : sort).replaceAll('score', 'h.score');
  let sql = `${withClause(ctes)}SELECT f.id AS id, f.path AS path, f.key AS key, ${byRank ? 'h.score' : 'NULL'} AS score FROM files f${byRank ? ' LEFT JOIN h ON h.rid = f.id' : ''}${whereClause([...idConds(m, 'f.id'), ...m.fileConds])} ORDER BY ${order}`;
  if (page) {
    sql += ' LIMIT ? OFFSET ?';
    params.push(page.limit, page.offset);
  }
  return { sql, params };
}

/**
 * When a query's first term is in more sessions than this, bm25 (whose cost grows with every occurrence of every
 * term) ranks only the sessions matching in the title or metadata; the rest follow newest first. A word in most
 * sessions says little about which is most relevant, and recency then serves people better than term counts.
 */
export const FULL_RANK_LIMIT = 2500;

const BM25 = 'bm25(docs, 10.0, 1.0, 3.0)';

/** The CTEs of a ranked query: the term sets, the matches `c`, their count `n`, and the ranked set `h`. */
function rankedCtes(m: Match, fullRankLimit: number): SearchSql {
  const rank = m.rank as string;
  if (m.wordsOnly) {
    // The ranking's own lookup is the match (phrases): one pass over the word index, every match ranked.
    const conds = m.idConds.map((c) => c.replaceAll('{id}', 'h.rid'));
    const c = m.fileConds.length
      ? `SELECT h.rid AS id FROM h JOIN files f ON f.id = h.rid${whereClause([...conds, ...m.fileConds])}`
      : `SELECT h.rid AS id FROM h${whereClause(conds)}`;
    return {
      sql: `WITH ${[
        ...m.ctes,
        `h AS MATERIALIZED (SELECT rowid AS rid, ${BM25} AS score FROM docs WHERE docs MATCH ?)`,
        `c AS MATERIALIZED (${c})`,
        'n AS MATERIALIZED (SELECT count(*) AS n FROM c)',
      ].join(', ')} `,
      params: [...m.cteParams, rank, ...m.idParams, ...m.fileParams],
    };
  }
  const c = candidates(m);
  return {
    sql: `WITH ${[
      ...m.ctes,
      `c AS MATERIALIZED (${c.sql})`,
      'n AS MATERIALIZED (SELECT count(*) AS n FROM c)',
      // bm25's cost follows the words' matches, not what the filters leave of them: decide on the first term's set.
      `h AS MATERIALIZED (SELECT rowid AS rid, ${BM25} AS score FROM docs WHERE docs MATCH (CASE WHEN (SELECT count(*) FROM ${m.driver}) <= ? THEN ? ELSE ? END))`,
    ].join(', ')} `,
    params: [...m.cteParams, ...c.params, fullRankLimit, rank, `{title meta} : (${rank})`],
  };
}

/**
 * One page of matches: the ranked ones best first, then the rest (substring-only matches, or body-only ones past
 * FULL_RANK_LIMIT) newest first; with how many match (`total`) and how many are ranked (`ranked`). Always at least
 * one row (id null when the page is empty). The unranked part runs only when the page reaches past the ranked
 * ones, and nothing here reads a `files` row except the page's own, unless filters need them.
 */
export function rankedPageSql(m: Match, page: { limit: number; offset: number }, fullRankLimit = FULL_RANK_LIMIT): SearchSql {
  const head = rankedCtes(m, fullRankLimit);
  const end = page.offset + page.limit;
  const ranked = 'SELECT c.id AS id, h.score AS score, 0 AS tier FROM c JOIN h ON h.rid = c.id ORDER BY h.score ASC, c.id DESC LIMIT ?';
  const rest = `SELECT f.id AS id, NULL AS score, 1 AS tier FROM c JOIN files f ON f.id = c.id WHERE c.id NOT IN (SELECT rid FROM h) ORDER BY f.time_ms DESC, f.id DESC LIMIT max(0, ? - (SELECT ranked FROM r))`;
  return {
    sql: `${head.sql.replace(/ $/, '')}, r AS MATERIALIZED (SELECT count(*) AS ranked FROM c JOIN h ON h.rid = c.id) SELECT s.total AS total, s.ranked AS ranked, p.id AS id, p.score AS score, f.path AS path, f.key AS key FROM (SELECT (SELECT n FROM n) AS total, (SELECT ranked FROM r) AS ranked) s LEFT JOIN (SELECT * FROM (${ranked}) UNION ALL SELECT * FROM (${rest})) p LEFT JOIN files f ON f.id = p.id ORDER BY p.tier ASC, p.score ASC, CASE WHEN p.tier = 1 THEN f.time_ms END DESC, p.id DESC LIMIT -1 OFFSET ?`,
    params: [...head.params, end, end, page.offset],
  };
}

/** The ids of every match, starting from the first term's set when no filter needs the files table. */
function candidates(m: Match): SearchSql {
  if (m.driver && !m.fileConds.length) {
    return { sql: `SELECT d.rid AS id FROM ${m.driver} d${whereClause([...m.positiveConds, ...m.idConds].map((c) => c.replaceAll('{id}', 'd.rid')))}`, params: [...m.idParams] };
  }
  return { sql: `SELECT f.id AS id FROM files f${whereClause([...idConds(m, 'f.id'), ...m.fileConds])}`, params: [...m.idParams, ...m.fileParams] };
}

/** How many files match. */
export function countSql(m: Match): SearchSql {
  if (!m.ctes.length && !m.idConds.length && !m.fileConds.length) return { sql: 'SELECT count(*) AS n FROM files', params: [] };
  const c = candidates(m);
  return { sql: `${withClause(m.ctes)}SELECT count(*) AS n FROM (${c.sql})`, params: [...m.cteParams, ...c.params] };
}

/** Columns of the `files` table a facet counts. */
export const FACET_COLUMNS = { source: 'format', project: 'project', branch: 'branch', status: 'status', outcome: 'outcome', model: 'model' } as const;

/**
 * Counts per value of each facet column over every match, in one pass: rows (facet, value, n), values grouped as
 * the filters compare them (case-insensitive).
 */
export function facetCountsSql(m: Match): SearchSql {
  const columns = Object.values(FACET_COLUMNS);
  const matched = `m AS MATERIALIZED (SELECT ${columns.map((c) => `f.${c} AS ${c}`).join(', ')} FROM files f${whereClause([...idConds(m, 'f.id'), ...m.fileConds])})`;
  const groups = Object.entries(FACET_COLUMNS).map(
    ([facet, c]) => `SELECT '${facet}' AS facet, ${c} AS value, count(*) AS n FROM m WHERE ${c} IS NOT NULL AND ${c} != '' GROUP BY ${c} COLLATE NOCASE`,
  );
  return { sql: `WITH ${[...m.ctes, matched].join(', ')} ${groups.join(' UNION ALL ')}`, params: [...m.cteParams, ...m.idParams, ...m.fileParams] };
}

/** Keys of the matches among the given keys (to count the vault's tags over what a query matches). */
export function matchedKeysSql(m: Match, among: readonly string[]): SearchSql {
  return {
    sql: `${withClause(m.ctes)}SELECT f.key AS key FROM files f${whereClause([...idConds(m, 'f.id'), ...m.fileConds, 'f.key IN (SELECT value FROM json_each(?))'])}`,
    params: [...m.cteParams, ...m.idParams, ...m.fileParams, JSON.stringify(among)],
  };
}

/** Every matching file, best first (kept for callers that page and post-filter themselves). */
export function buildSearchSql(query: ParsedQuery, sort: SearchSort): SearchSql | null {
  const m = buildMatch(query);
  return m ? rowsSql(m, sort) : null;
}
