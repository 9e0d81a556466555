// Builds the SQL for a parsed query: FTS5 terms (words also match inside identifiers via trigrams), filters, order.
import type { SQLInputValue } from 'node:sqlite';
import type { SearchSort } from '../../shared/search-api.ts';
import type { ParsedQuery, Term } from './query-parser.ts';
import { filterClauses } from './search-filters.ts';

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
  /** Files with these keys match the query's words too (sessions whose vault summary holds them; summary-match.ts). */
  alsoKeys?: readonly string[] | undefined;
  /**
   * The matched set is read once per statement (the usage dashboard writes it into a table): left for SQLite to
   * materialize or not, not a table of its own first (a word in 90% of 100,000 sessions: 105,066 ids, ~8 ms).
   */
  matchedOnce?: boolean | undefined;
}

/**
 * The files a query matches, as parts to compose: CTEs (the FTS lookups, each run once), conditions on a row id,
 * and conditions needing the `files` row. `{id}` in idConds stands for the row id column used.
 */
export interface Match {
  ctes: string[];
  cteParams: SQLInputValue[];
  /**
   * The CTE (one column, `id`) of every file all positive terms match, before exclusions and filters; null when
   * the query has no positive term. Every match is in it, so a query can start from it instead of every file.
   */
  matched: string | null;
  /** Excluded terms and rows. */
  idConds: string[];
  idParams: SQLInputValue[];
  fileConds: string[];
  fileParams: SQLInputValue[];
  /**
   * With `matchedOnce`: the CTEs (one column, `rid`) whose union is `matched`, so a caller writing the set into a table
   * can write each in turn (INSERT OR IGNORE) instead of SQLite building the union first. Empty otherwise.
   */
  matchedParts: string[];
  /** True when every positive term is found by the word index alone (phrases): `rank` then matches exactly their files. */
  wordsOnly: boolean;
  /** FTS5 expression of every positive word term, for bm25 relevance; null when the query has no words. */
  rank: string | null;
  /** True when every file `rank` finds is in `matched` (every positive term has words to look up). */
  rankWithinMatched: boolean;
}

/** An FTS5 string literal: the text as one phrase, quotes doubled. */
export const ftsString = (text: string) => `"${text.replaceAll('"', '""')}"`;

const hasWordChars = (text: string) => /[\p{L}\p{N}]/u.test(text);

/** How a term is looked up: in the word index (null without letters or digits) and in the identifiers' trigrams (null under three characters, and for phrases). */
interface Lookups {
  word: string | null;
  ident: string | null;
  prefix: boolean;
}

function lookups(term: Term): Lookups {
  return {
    word: hasWordChars(term.text) ? (term.kind === 'prefix' ? `${ftsString(term.text)}*` : ftsString(term.text)) : null,
    // Substrings of identifiers and paths (`VizierDoc`, `toolu_01`); trigrams need three characters.
    ident: term.kind !== 'phrase' && [...term.text].length >= 3 ? ftsString(term.text) : null,
    prefix: term.kind === 'prefix',
  };
}

const WORD_SET = 'SELECT rowid AS rid FROM docs WHERE docs MATCH ?';
/** Up to this many files found only through identifiers are checked for the other terms one lookup at a time. */
const PROBE_LIMIT = 300;
const IDENT_SET = 'SELECT rowid AS rid FROM idents WHERE idents MATCH ?';

/**
 * Past this many terms with identifier lookups, the files identifiers bring in are checked by manyTermsPart: each
 * term's lookups written into the statement (below) made SQLite refuse 5 words ("VIEWs and/or subqueries nested too
 * deep": it counts every subquery each reference to the matched set expands).
 */
const TERMS_INLINE = 4;

/**
 * The files identifier lookups bring in that every term matches (as an identifier or as a word), in a statement whose
 * size does not grow with the terms: the terms go in as JSON objects (key: the term's place), looked up through
 * json_each. With few such files each is probed in the word index term by term (CROSS JOIN keeps that order: FTS5 then
 * has the rowid and the MATCH together); with many, and for prefixes always, each term's files are gathered once.
 */
function manyTermsPart(positive: Lookups[], m: Match): string {
  const idents: Record<number, string> = {};
  const probed: Record<number, string> = {};
  const prefixes: Record<number, string> = {};
  positive.forEach((t, i) => {
    if (t.ident !== null) idents[i] = t.ident;
    if (t.word !== null) (t.prefix ? prefixes : probed)[i] = t.word;
  });
  m.ctes.push(
    'ui AS MATERIALIZED (SELECT DISTINCT i.rowid AS rid, j.key AS t FROM json_each(?) j, idents i WHERE idents MATCH j.value)',
    'un AS MATERIALIZED (SELECT count(DISTINCT rid) AS n FROM ui)',
    `uw AS MATERIALIZED (SELECT u.rid AS rid, j.key AS t FROM (SELECT DISTINCT rid FROM ui) u CROSS JOIN json_each(?) j CROSS JOIN docs d WHERE (SELECT n FROM un) <= ${PROBE_LIMIT} AND docs MATCH j.value AND d.rowid = u.rid UNION SELECT d.rowid AS rid, j.key AS t FROM json_each(CASE WHEN (SELECT n FROM un) <= ${PROBE_LIMIT} THEN ? ELSE ? END) j, docs d WHERE docs MATCH j.value AND d.rowid IN (SELECT rid FROM ui))`,
  );
  m.cteParams.push(JSON.stringify(idents), JSON.stringify(probed), JSON.stringify(prefixes), JSON.stringify({ ...probed, ...prefixes }));
  return `SELECT rid FROM (SELECT rid, t FROM ui UNION SELECT rid, t FROM uw) GROUP BY rid HAVING count(*) = ${positive.length}`;
}

/** Relevance: every positive term through the word index, weighted title > metadata > body. */
function rankExpression(terms: Term[]): string | null {
  const words = terms.filter((t) => !t.negated).flatMap((t) => lookups(t).word ?? []);
  return words.length ? words.join(' AND ') : null;
}

/**
 * The CTE of the files every positive term matches, a term matching through either index. Where every term is
 * found as words, one lookup of the word index intersects them (two common words: 0.6 ms, where intersecting
 * each term's set took 5 ms); files that only an identifier substring brings in are then checked term by term.
 */
function matchedSet(positive: Lookups[], m: Match, alsoKeys: readonly string[], once = false): string {
  const parts: string[] = [];
  const params: SQLInputValue[] = [];
  if (alsoKeys.length) {
    parts.push('SELECT id AS rid FROM files WHERE key IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify(alsoKeys));
  }
  if (positive.every((t) => t.word !== null)) {
    parts.push(WORD_SET);
    params.push(positive.map((t) => t.word).join(' AND '));
  }
  const withIdents = positive.filter((t) => t.ident !== null);
  if (withIdents.length > TERMS_INLINE) parts.push(manyTermsPart(positive, m));
  else if (positive.length === 1 && withIdents.length === 1) {
    parts.push(IDENT_SET);
    params.push(withIdents[0]?.ident as string);
  } else if (withIdents.length) {
    // Every file an identifier lookup found, once, with a flag per term saying which lookups found it.
    const flags = withIdents.map((_, i) => `f${i}`);
    const found = withIdents.map((t, i) => {
      m.cteParams.push(t.ident as string);
      return `SELECT rowid AS rid, ${flags.map((f, j) => `${i === j ? 1 : 0} AS ${f}`).join(', ')} FROM idents WHERE idents MATCH ?`;
    });
    m.ctes.push(
      `ua AS MATERIALIZED (SELECT rid, ${flags.map((f) => `max(${f}) AS ${f}`).join(', ')} FROM (${found.join(' UNION ALL ')}) GROUP BY rid)`,
      'un AS MATERIALIZED (SELECT count(*) AS n FROM ua)',
    );
    const conds = positive.map((t) => {
      const either: string[] = [];
      if (t.ident !== null) either.push(`u.${flags[withIdents.indexOf(t)]}`);
      if (t.word !== null && t.prefix) {
        // A prefix is expanded to every word it starts at each lookup (a common one: 12 ms): gathered once.
        either.push(`u.rid IN (${WORD_SET})`);
        params.push(t.word);
      } else if (t.word !== null) {
        // A few files are looked up one by one in the word index (about 10 µs each); many are checked against the
        // term's whole set, gathered once (about 1.5 ms per 10,000 files).
        either.push(
          `CASE WHEN (SELECT n FROM un) <= ${PROBE_LIMIT} THEN EXISTS (SELECT 1 FROM docs WHERE docs MATCH ? AND rowid = u.rid) ELSE u.rid IN (${WORD_SET}) END`,
        );
        params.push(t.word, t.word);
      }
      return either.length > 1 ? `(${either.join(' OR ')})` : (either[0] as string);
    });
    parts.push(`SELECT u.rid AS rid FROM ua u WHERE ${conds.join(' AND ')}`);
  }
  m.cteParams.push(...params);
  if (once) {
    // Each part a CTE of its own (c0p0, c0p1 ...), in order, their parameters as pushed, and c0 their union.
    m.matchedParts = parts.map((_, i) => `c0p${i}`);
    m.ctes.push(
      ...parts.map((part, i) => `c0p${i} AS (${part})`),
      `c0 AS (SELECT rid AS id FROM (${m.matchedParts.map((p) => `SELECT rid FROM ${p}`).join(' UNION ')}))`,
    );
  } else m.ctes.push(`c0 AS MATERIALIZED (SELECT rid AS id FROM (${parts.join(' UNION ')}))`);
  return 'c0';
}

/** The parts of a query's match, or null when a positive term can match nothing (only punctuation, too short). */
export function buildMatch(query: ParsedQuery, limits: MatchLimits = {}): Match | null {
  const m: Match = {
    ctes: [],
    cteParams: [],
    matched: null,
    matchedParts: [],
    idConds: [],
    idParams: [],
    fileConds: [],
    fileParams: [],
    wordsOnly: false,
    rank: rankExpression(query.terms),
    rankWithinMatched: false,
  };
  const positive: Lookups[] = [];
  for (const term of query.terms) {
    const l = lookups(term);
    if (l.word === null && l.ident === null) {
      if (!term.negated) return null;
      continue;
    }
    if (!term.negated) {
      positive.push(l);
      continue;
    }
    const name = `n${m.ctes.length}`;
    m.ctes.push(`${name} AS MATERIALIZED (${[l.word === null ? null : WORD_SET, l.ident === null ? null : IDENT_SET].filter(Boolean).join(' UNION ')})`);
    m.cteParams.push(...[l.word, l.ident].filter((p) => p !== null));
    m.idConds.push(`{id} NOT IN ${name}`);
  }
  if (positive.length) {
    // CTEs may be listed before the ones they use only if written in order: the exclusions' sets go first.
    m.matched = matchedSet(positive, m, limits.alsoKeys ?? [], limits.matchedOnce);
    m.wordsOnly = m.rank !== null && positive.every((t) => t.ident === null) && !limits.alsoKeys?.length;
    m.rankWithinMatched = positive.every((t) => t.word !== null);
  }
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

export const withClause = (ctes: string[]) => (ctes.length ? `WITH ${ctes.join(', ')} ` : '');
export const whereClause = (conds: string[]) => (conds.length ? ` WHERE ${conds.join(' AND ')}` : '');
/** The id conditions for files read from the `files` table (so including the matched set). */
export const idConds = (m: Match, column: string) => [...(m.matched ? [`{id} IN ${m.matched}`] : []), ...m.idConds].map((c) => c.replaceAll('{id}', column));

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

/** bm25 weights: title > metadata > body. */
export const BM25 = 'bm25(docs, 10.0, 1.0, 3.0)';

/** Every matching file (id, path, key, score) in order; with `page`, only that slice (`LIMIT ? OFFSET ?` appended to the params). */
export function rowsSql(m: Match, sort: SearchSort, page?: { limit: number; offset: number }): SearchSql {
  const byRank = sort === 'relevance' && m.rank !== null;
  const ctes = [...m.ctes, ...(byRank ? [`h AS MATERIALIZED (SELECT rowid AS rid, ${BM25} AS score FROM docs WHERE docs MATCH ?)`] : [])];
  const params: SQLInputValue[] = [...m.cteParams, ...(byRank ? [m.rank as string] : []), ...m.idParams, ...m.fileParams];
  const order = orderBy(byRank ? 'rank' : sort === 'relevance' ? 'date' : sort).replaceAll('score', 'h.score');
  let sql = `${withClause(ctes)}SELECT f.id AS id, f.path AS path, f.key AS key, ${byRank ? 'h.score' : 'NULL'} AS score FROM files f${byRank ? ' LEFT JOIN h ON h.rid = f.id' : ''}${whereClause([...idConds(m, 'f.id'), ...m.fileConds])} ORDER BY ${order}`;
  if (page) {
    sql += ' LIMIT ? OFFSET ?';
    params.push(page.limit, page.offset);
  }
  return { sql, params };
}

/** The ids of every match, starting from the matched set when no filter needs the files table. */
function candidates(m: Match): SearchSql {
  if (m.matched && !m.fileConds.length) {
    return { sql: `SELECT d.id AS id FROM ${m.matched} d${whereClause(m.idConds.map((c) => c.replaceAll('{id}', 'd.id')))}`, params: [...m.idParams] };
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

/** A range offered as a filter (the past week, 10k+ tokens): the SQL condition on a match's facet columns that counts it. */
export interface RangeCount {
  condition: string;
  params: SQLInputValue[];
}

/**
 * Counts per value of each facet column over every match, in one pass: rows (facet, value, n), values grouped as
 * the filters compare them (case-insensitive); with `ranges`, one more row (facet 'ranges') whose value is a JSON
 * array of how many matches each range holds.
 */
export function facetCountsSql(m: Match, ranges: readonly RangeCount[] = []): SearchSql {
  const columns = [...Object.values(FACET_COLUMNS), 'time_ms', 'tokens', 'cost', 'has_summary', 'key'];
  const matched = `m AS MATERIALIZED (SELECT ${columns.map((c) => `f.${c} AS ${c}`).join(', ')} FROM files f${whereClause([...idConds(m, 'f.id'), ...m.fileConds])})`;
  const groups = Object.entries(FACET_COLUMNS).map(
    ([facet, c]) => `SELECT '${facet}' AS facet, ${c} AS value, count(*) AS n FROM m WHERE ${c} IS NOT NULL AND ${c} != '' GROUP BY ${c} COLLATE NOCASE`,
  );
  if (ranges.length)
    groups.push(`SELECT 'ranges' AS facet, json_array(${ranges.map((r) => `coalesce(sum(${r.condition}), 0)`).join(', ')}) AS value, count(*) AS n FROM m`);
  return {
    sql: `WITH ${[...m.ctes, matched].join(', ')} ${groups.join(' UNION ALL ')}`,
    params: [...m.cteParams, ...m.idParams, ...m.fileParams, ...ranges.flatMap((r) => r.params)],
  };
}

/** Keys of the matches among the given keys (to count the vault's tags over what a query matches). */
export function matchedKeysSql(m: Match, among: readonly string[]): SearchSql {
  return {
    sql: `${withClause(m.ctes)}SELECT f.key AS key FROM files f${whereClause([...idConds(m, 'f.id'), ...m.fileConds, 'f.key IN (SELECT value FROM json_each(?))'])}`,
    params: [...m.cteParams, ...m.idParams, ...m.fileParams, JSON.stringify(among)],
  };
}
