// The SQL of one page of a search ranked by relevance: bm25 over the word index (or, past a limit, over titles and metadata), then the rest newest first.
import type { SQLInputValue } from 'node:sqlite';
import { BM25, ftsString, whereClause, type Match, type SearchSql } from './search.ts';

/**
 * When a query matches more sessions than this, bm25 (whose cost grows with every occurrence of every term) ranks
 * only the sessions matching in the title or metadata; the rest follow newest first. A word in most sessions says
 * little about which is most relevant, and recency then serves people better than term counts.
 */
export const FULL_RANK_LIMIT = 2500;

/** The same weights over the titles and metadata alone (the `heads` table). */
const HEADS_BM25 = 'bm25(heads, 10.0, 3.0)';

/** An FTS5 query matching nothing, found at once: what a lookup gets when its arm of a statement is not wanted. */
const NOTHING = `'""'`;
/** `docs MATCH` (or another table's) the parameter when `condition` holds, else nothing (SQLite runs a virtual table's lookup before testing the rest of a WHERE). */
const matchIf = (table: string, condition: string) => `${table} MATCH (CASE WHEN ${condition} THEN ? ELSE ${NOTHING} END)`;

/**
 * The ranked set `h` (rid, score): every match through the word index when `count` (a scalar subquery) is within
 * the limit, else only title and metadata matches through `heads`.
 */
function rankedSet(count: string): string {
  return `h AS MATERIALIZED (SELECT rowid AS rid, ${BM25} AS score FROM docs WHERE ${matchIf('docs', `${count} <= ?`)} UNION ALL SELECT rowid AS rid, ${HEADS_BM25} AS score FROM heads WHERE ${matchIf('heads', `${count} > ?`)})`;
}

/** The phrases' words, each on its own: how many files hold them all bounds how many hold the phrases, and costs no position checks. */
const looseExpression = (rank: string) =>
  rank.replace(/"((?:[^"]|"")*)"/g, (_, inner: string) =>
    inner
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean)
      .map(ftsString)
      .join(' AND '),
  );

/**
 * One page of matches: the ranked ones best first, then the rest (substring-only matches, or body-only ones past
 * FULL_RANK_LIMIT) newest first; with how many match (`total`) and how many are ranked (`ranked`). Always at least
 * one row (id null when the page is empty). The unranked part runs only when the page reaches past the ranked
 * ones, and nothing here reads a `files` row except the page's own, unless filters need them.
 */
export function rankedPageSql(m: Match, page: { limit: number; offset: number }, fullRankLimit = FULL_RANK_LIMIT): SearchSql {
  const rank = m.rank as string;
  const ctes = [...m.ctes];
  const params: SQLInputValue[] = [...m.cteParams];
  let matched = m.matched as string;
  if (m.wordsOnly) {
    // Phrases: every match is in the ranking's own lookup, so within the limit one ranked pass over the word index
    // is the match; past it the phrases are matched and only titles and metadata ranked. The count deciding it is
    // of the files holding all the phrases' words (a bound: no positions compared).
    ctes.push('k AS MATERIALIZED (SELECT count(*) AS k FROM docs WHERE docs MATCH ?)', rankedSet('(SELECT k FROM k)'));
    ctes.push(
      `cw AS MATERIALIZED (SELECT rid AS id FROM h WHERE (SELECT k FROM k) <= ? UNION ALL SELECT rowid AS id FROM docs WHERE ${matchIf('docs', '(SELECT k FROM k) > ?')})`,
    );
    params.push(looseExpression(rank), fullRankLimit, rank, fullRankLimit, rank, fullRankLimit, fullRankLimit, rank);
    matched = 'cw';
  } else {
    // bm25's cost follows the words' matches, not what the exclusions and filters leave of them.
    ctes.push(`k AS MATERIALIZED (SELECT count(*) AS k FROM ${matched})`, rankedSet('(SELECT k FROM k)'));
    params.push(fullRankLimit, rank, fullRankLimit, rank);
  }
  /** The exclusions and filters on a match whose row id is `column` (`f` its files row, joined where filters need it). */
  const narrowing = (column: string) => {
    params.push(...m.idParams, ...m.fileParams);
    return [...m.idConds.map((c) => c.replaceAll('{id}', column)), ...m.fileConds];
  };
  const needsFiles = m.fileConds.length > 0;
  if (needsFiles || m.idConds.length) {
    ctes.push(
      `n AS MATERIALIZED (SELECT count(*) AS n FROM ${matched} d${needsFiles ? ' CROSS JOIN files f ON f.id = d.id' : ''}${whereClause(narrowing('d.id'))})`,
    );
  } else ctes.push(`n AS MATERIALIZED (SELECT count(*) AS n FROM ${matched})`);
  // The ranked matches: h is small, so each of its rows is checked rather than joined with every match.
  const hConds = [...(m.rankWithinMatched ? [] : [`h.rid IN ${matched}`]), ...narrowing('h.rid')];
  ctes.push(`hc AS MATERIALIZED (SELECT h.rid AS id, h.score AS score FROM h${needsFiles ? ' CROSS JOIN files f ON f.id = h.rid' : ''}${whereClause(hConds)})`);
  ctes.push('r AS MATERIALIZED (SELECT count(*) AS ranked FROM hc)');
  const end = page.offset + page.limit;
  const ranked = 'SELECT id, score, 0 AS tier FROM hc ORDER BY score ASC, id DESC LIMIT ?';
  params.push(end);
  // The rest newest first: when most files match, walking the time index from the newest finds the page's rows
  // after a few steps; otherwise the matches are sorted. The arm not wanted has LIMIT 0, so it reads nothing.
  const dense = '(SELECT n FROM n) * 4 > (SELECT max(id) FROM files)';
  const restLimit = (when: string) => `LIMIT CASE WHEN ${when} THEN max(0, ? - (SELECT ranked FROM r)) ELSE 0 END`;
  const walk = `SELECT f.id AS id, NULL AS score, 1 AS tier FROM files f INDEXED BY files_time${whereClause([`f.id IN ${matched}`, ...narrowing('f.id'), 'f.id NOT IN (SELECT rid FROM h)'])} ORDER BY f.time_ms DESC, f.id DESC ${restLimit(dense)}`;
  params.push(end);
  const sorted = `SELECT f.id AS id, NULL AS score, 1 AS tier FROM ${matched} d CROSS JOIN files f ON f.id = d.id${whereClause([...narrowing('d.id'), 'd.id NOT IN (SELECT rid FROM h)'])} ORDER BY f.time_ms DESC, f.id DESC ${restLimit(`NOT ${dense}`)}`;
  params.push(end, page.offset);
  return {
    sql: `WITH ${ctes.join(', ')} SELECT s.total AS total, s.ranked AS ranked, p.id AS id, p.score AS score, f.path AS path, f.key AS key FROM (SELECT (SELECT n FROM n) AS total, (SELECT ranked FROM r) AS ranked) s LEFT JOIN (SELECT * FROM (${ranked}) UNION ALL SELECT * FROM (${walk}) UNION ALL SELECT * FROM (${sorted})) p LEFT JOIN files f ON f.id = p.id ORDER BY p.tier ASC, p.score ASC, CASE WHEN p.tier = 1 THEN f.time_ms END DESC, p.id DESC LIMIT -1 OFFSET ?`,
    params,
  };
}
