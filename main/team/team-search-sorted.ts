// A team search with words in a `sort:` order (newest, oldest, tokens, size, cost …) read in that order: the first sessions in the order checked one by one, the rarer words' matches through their indexes, stopping once the page and a capped count are filled.
import { qualified } from './team-names.ts';
import { SEARCH_DOCS } from './search-docs.ts';
import { holdsNoneOf, negatedSets, PLACES, sessionHolds, type RankedQuery, type TermMatch } from './team-ranked.ts';

/** A ranked query's terms, conditions, window and page (team-ranked.ts), read in another order than relevance. */
export interface SortedQuery extends RankedQuery {
  /**
   * The order over a session row `s` (one index on sessions serves it with machine and key after it, so reading the
   * first sessions in it is an index scan), e.g. `s.total_tokens DESC NULLS LAST`; ties go by machine, then key.
   * `window` counts the first sessions in this order.
   */
  order: string;
}

const DOCS = SEARCH_DOCS;
const SESSIONS = qualified('sessions');

/** The sessions a term's indexes give (its words through the documents' GIN, its identifier substring through the trigrams'), a phrase's by its words in any order. */
function indexed(term: TermMatch): string {
  const ways: string[] = [];
  if (term.words) ways.push(`SELECT d.machine, d.key FROM ${DOCS} d WHERE ${term.words('d')}`);
  if (term.ident) ways.push(`SELECT i.machine, i.key FROM ${SESSIONS} i WHERE ${term.ident('i')}`);
  return ways.join(' UNION ');
}

/**
 * A session's score (`p`: its machine and key), as a search in another order lists it: the best place any of its
 * terms is in (title 1, prompts 0.4, the rest 0.1; a phrase's place is a chunk holding the phrase itself), 0.1
 * for a term found in its identifiers only. Read for the page's rows alone.
 */
function scoreOf(terms: TermMatch[], p: string): string {
  const places = terms.flatMap((t) => {
    const ways: string[] = [];
    // Place by place, best first: each a look-up that stops at its first document holding the term.
    const at = (weight: string) =>
      `EXISTS (SELECT 1 FROM ${DOCS} x WHERE x.machine = ${p}.machine AND x.key = ${p}.key AND x.weight = '${weight}' AND ${(t.chunk as (doc: string) => string)('x')} OFFSET 0)`;
    if (t.chunk) ways.push(`CASE WHEN ${PLACES.map((place) => `${at(place.weight)} THEN ${place.score.toFixed(1)}`).join(' WHEN ')} END`);
    if (t.ident) ways.push(`(SELECT 0.1 FROM ${SESSIONS} y WHERE y.machine = ${p}.machine AND y.key = ${p}.key AND ${t.ident('y')})`);
    return ways;
  });
  return `greatest(${places.join(', ')})::float8`;
}

/**
 * The statement: the matches in the order, numbered, read up to `rows`, then the page's rows with their columns
 * and score and how many were read (`total`); a page past the end is one row with the total and null columns.
 *
 * Two parts, one UNION ALL under a LIMIT (run branch by branch, with parallel plans off, so the second runs only
 * when the first did not fill the rows). First the `window` first sessions in the order that pass the filters
 * (an index scan over sessions in that order), each checked by key for every term and negated term: a common word
 * fills the page and the count's cap there. Then the matches among the sessions after them: the sessions holding
 * every positive term's words or identifier through the indexes (intersected), their rows joined for the filters
 * and the order, sorted, and only then (OFFSET 0 keeps them above the sort) each checked by key for what the
 * indexes cannot tell (a phrase's order, negated terms), so those checks stop with the page. Every session after
 * the window sorts after every one in it, so the two parts in turn are the exact order.
 */
export function sortedSearchSql(q: SortedQuery): string {
  const limitRows = q.rows === null ? '' : `LIMIT ${q.rows}`;
  const order = `${q.order}, s.machine, s.key`;
  const where = (conditions: string[]) => (conditions.length ? conditions.join('\n         AND ') : 'true');
  const onSessions = q.conditions.map((c) => c.replaceAll('KEYS.', 's.'));
  const holdsNone = (c: string) => holdsNoneOf(q.negated, `${c}.machine`, `${c}.key`);
  const first = `SELECT w.machine, w.key FROM win w
       WHERE ${where([...q.terms.map((t) => sessionHolds(t, 'w.machine', 'w.key')), ...holdsNone('w')])}`;
  const found = q.terms.map((t) => `(${indexed(t)})`).join(' INTERSECT ');
  // A phrase's words were found through the index; its order is checked by key (its chunks), after the sort.
  const positional = q.terms.filter((t) => t.positional).map((t) => sessionHolds(t, 'o.machine', 'o.key'));
  const after = `SELECT o.machine, o.key FROM (SELECT s.machine, s.key FROM (${found}) m
         JOIN ${SESSIONS} s ON s.machine = m.machine AND s.key = m.key
         WHERE ${where([...onSessions, '(s.machine, s.key) NOT IN (SELECT machine, key FROM win)'])}
         ORDER BY ${order} OFFSET 0) o
       WHERE ${where([...positional, ...holdsNone('o')])}`;
  return `WITH ${negatedSets(q.negated)
    .map((n) => `${n},\n    `)
    .join('')}win AS MATERIALIZED (SELECT s.machine, s.key FROM ${SESSIONS} s
      WHERE ${where(onSessions)} ORDER BY ${order} LIMIT ${q.window}),
    ranked AS MATERIALIZED (
      SELECT r.machine, r.key, row_number() OVER () AS n FROM ((${first}) UNION ALL (${after}) ${limitRows}) r)
    SELECT page.*, c.total FROM (SELECT count(*) AS total FROM ranked) c
      -- A page past the last match is one row of the total alone (its columns null).
      LEFT JOIN (SELECT ${q.columns}, ${scoreOf(q.terms, 'p')} AS score, p.n
                   FROM (SELECT * FROM ranked ORDER BY n LIMIT ${q.limit} OFFSET ${q.offset}) p
                   JOIN ${SESSIONS} s ON s.machine = p.machine AND s.key = p.key) page ON true
     ORDER BY page.n`;
}
