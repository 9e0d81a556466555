// A relevance-ordered team search read in rank order: sessions whose title holds the query's words, then their prompts, then the rest, each place newest first, stopping once the page and a capped count are filled.
import { SEARCH_DOCS } from './search-docs.ts';
import { qualified } from './team-names.ts';

/** How a term is found: in a search document (alias of `session_docs`), and in a session row's identifiers (alias of `sessions`). */
export interface TermMatch {
  /** The condition that a search document holds the term (a phrase's words in order: checked on its chunk), or null when only identifiers can. */
  chunk: ((doc: string) => string) | null;
  /** The part of `chunk` its GIN index answers alone (a phrase's words in any order); the same as `chunk` for a word or prefix. */
  words: ((doc: string) => string) | null;
  /** Whether `chunk` checks more than `words` (reads the chunk's tsvector). */
  positional: boolean;
  /** The condition that a search-text chunk (alias of `session_texts`) holds the term, on its tsvector; null when only identifiers can. */
  text: ((chunk: string) => string) | null;
  /** The condition that a session row holds the term as a substring of an identifier or path, or null. */
  ident: ((row: string) => string) | null;
  /**
   * A negated term's sessions (machine, key) through its indexes, when they are few enough to read whole (the
   * planner's estimate, team-search-window.ts): left out by a hashed NOT IN over them instead of a look-up per
   * candidate, which costs more once thousands of candidates are checked. Absent: looked up per candidate.
   */
  excludedSet?: string;
}

/** The places a match can be in, best first, with the score a session matched there gets. */
export const PLACES = [
  { weight: 'A', score: 1.0 },
  { weight: 'B', score: 0.4 },
  { weight: 'C', score: 0.1 },
] as const;

export interface RankedQuery {
  /** Every positive term (a session must hold them all) and every negated one (it must hold none). */
  terms: TermMatch[];
  negated: TermMatch[];
  /** Conditions on the session: `KEYS.machine`/`KEYS.key` its keys, `s.` its row's columns. */
  conditions: string[];
  /** Rows of the ranked stream to read: the page's end, or the capped count plus one, whichever is further; null: every match. */
  rows: string | null;
  /** How many of the newest sessions each place first looks at one by one (placeholder), before its index's matches. */
  window: string;
  /**
   * The places (weights) that look the window's sessions up; the others read their indexes' matches alone (the rest
   * is always among them: team-lookup-window.ts leaves the title and prompts out when their words would not fill the rows
   * from the window). Absent: every place. Ignored by a read in another order (team-search-sorted.ts).
   */
  windowPlaces?: string[];
  /** The page: placeholders of its limit and offset. */
  limit: string;
  offset: string;
  /** The listing's columns of a session row `s`. */
  columns: string;
}

const DOCS = SEARCH_DOCS;
const SESSIONS = qualified('sessions');
const TEXTS = qualified('session_texts');
const ACTIVITY = 'coalesce(s.updated_at, s.created_at)';
const NEWEST = `${ACTIVITY} DESC NULLS LAST, s.machine, s.key`;

/** Whether the session (`machine`, `key`: column references) holds a term anywhere: a document, or its identifiers. */
export function sessionHolds(term: TermMatch, machine: string, key: string): string {
  const ways: string[] = [];
  if (term.chunk) ways.push(`EXISTS (SELECT 1 FROM ${DOCS} x WHERE x.machine = ${machine} AND x.key = ${key} AND ${term.chunk('x')} OFFSET 0)`);
  if (term.ident) ways.push(`EXISTS (SELECT 1 FROM ${SESSIONS} y WHERE y.machine = ${machine} AND y.key = ${key} AND ${term.ident('y')} OFFSET 0)`);
  return ways.length > 1 ? `(${ways.join(' OR ')})` : (ways[0] as string);
}

/** The negated terms' checks on a session (`machine`, `key`: column references): per candidate, or against its set read whole (`neg_<i>`, negatedSets). */
export const holdsNoneOf = (negated: TermMatch[], machine: string, key: string): string[] =>
  negated.map((t, i) => (t.excludedSet ? `(${machine}, ${key}) NOT IN (SELECT machine, key FROM neg_${i})` : `NOT ${sessionHolds(t, machine, key)}`));

/** The WITH entries of the negated terms read whole (each read once, at its first check). */
export const negatedSets = (negated: TermMatch[]): string[] =>
  negated.flatMap((t, i) => (t.excludedSet ? [`neg_${i} AS MATERIALIZED (${t.excludedSet})`] : []));

/** `doc` holds one of the terms, by `how` (their chunk check, or the words its index answers). */
const anyOf = (terms: TermMatch[], how: 'chunk' | 'words', doc: string) =>
  `(${terms
    .flatMap((t) => (t[how] ? [(t[how] as (d: string) => string)(doc)] : []))
    .map((c) => `(${c})`)
    .join(' OR ')})`;

/**
 * The statement: a stream of the matches in rank order (best place, then newest), numbered, read up to `rows`, then
 * the page's rows with their columns and how many the stream read (`total`); a page past the end is one row with
 * the total and null columns.
 *
 * Each place (title, prompts, the rest) is read newest first in two parts. First the newest sessions that pass the
 * filters (`window` of them, in the order of the sessions_newest index), each looked up by key in that place's
 * documents: a common word fills the page, and the count's cap, within the first few hundred, so none of its
 * hundreds of thousands of documents is read. Then, only when those did not fill it, the place's matches among the
 * older sessions through the documents' GIN index (the titles' own, small one for the title), sorted newest first.
 * A phrase's candidates are found by its words that way and the phrase itself checked on their chunks in that
 * order, so the check stops with the page. Every other term (a session holds them all) and negated term is checked
 * on each candidate by key. Each place is a materialized part of one UNION ALL under a LIMIT: PostgreSQL runs its
 * branches in order and stops once it has the rows (the statement runs with parallel plans off), so a place is
 * read only once the better ones ran out, and their matches are left out of it by a hashed NOT IN over their rows.
 * A session whose identifiers alone hold a term ranks with the rest (0.1).
 */
export function rankedSearchSql(q: RankedQuery): string {
  const keyed = (conditions: string[], alias: string) => conditions.map((c) => c.replaceAll('KEYS.', `${alias}.`));
  const limitRows = q.rows === null ? '' : `LIMIT ${q.rows}`;
  const holdsAll = (machine: string, key: string) => (q.terms.length > 1 ? q.terms.map((t) => sessionHolds(t, machine, key)) : []);
  const holdsNone = (machine: string, key: string) => holdsNoneOf(q.negated, machine, key);
  const chunked = q.terms.filter((t) => t.chunk);
  const identified = q.terms.filter((t) => t.ident);
  const positional = chunked.some((t) => t.positional);
  /** The filters on a session's keys alone, and those that read its row (`s.`). */
  const onRows = q.conditions.filter((c) => /\bs\./.test(c));
  const onKeys = q.conditions.filter((c) => !onRows.includes(c));
  const read = PLACES.filter((p) => chunked.length || p.weight === 'C');
  /**
   * Not found in a better place than `weight`: a place is read only once the better ones ran out of matches, so
   * their every match is in their own (materialized) rows, and a hashed NOT IN leaves them out.
   */
  const inBetterPlace = (weight: string, machine: string, key: string) =>
    read.filter((p) => p.weight < weight).map((p) => `(${machine}, ${key}) NOT IN (SELECT machine, key FROM at_${p.weight.toLowerCase()})`);
  /** The session (alias `c`, a candidate with machine and key) holds a term at this place. */
  const holdsHere = (weight: string, c: string) => {
    const ways = chunked.length
      ? [
          `EXISTS (SELECT 1 FROM ${DOCS} h WHERE h.machine = ${c}.machine AND h.key = ${c}.key AND h.weight = '${weight}' AND ${anyOf(chunked, 'chunk', 'h')} OFFSET 0)`,
        ]
      : [];
    if (weight === 'C' && identified.length)
      ways.push(
        `EXISTS (SELECT 1 FROM ${SESSIONS} i WHERE i.machine = ${c}.machine AND i.key = ${c}.key AND (${identified.map((t) => (t.ident as (row: string) => string)('i')).join(' OR ')}) OFFSET 0)`,
      );
    return ways.length > 1 ? `(${ways.join(' OR ')})` : (ways[0] as string);
  };
  /** The checks on a candidate `c` that look up its other rows by key: every term held, no negated one. */
  const checks = (c: string) => [...holdsAll(`${c}.machine`, `${c}.key`), ...holdsNone(`${c}.machine`, `${c}.key`)];
  const where = (conditions: string[]) => (conditions.length ? conditions.join('\n         AND ') : 'true');
  const place = (weight: string, score: number) => {
    const windowed = !q.windowPlaces || q.windowPlaces.includes(weight);
    // The window's sessions (the filters passed) in order.
    const newest = `SELECT w.machine, w.key, w.activity FROM win w
       WHERE ${where([...inBetterPlace(weight, 'w.machine', 'w.key'), holdsHere(weight, 'w'), ...checks('w')])}`;
    // Older sessions' candidates at this place through the indexes, with the filters on their rows, newest first;
    // OFFSET 0 keeps the checks that read other rows (a phrase's chunks) above the sort, so they run on candidates in
    // order and stop with the page.
    const found: string[] = [];
    if (chunked.length)
      found.push(`SELECT DISTINCT ON (d.activity, d.machine, d.key) d.machine, d.key, d.activity
          FROM ${DOCS} d
          WHERE ${where([`d.weight = '${weight}'`, anyOf(chunked, 'words', 'd'), ...(windowed ? ['(d.machine, d.key) NOT IN (SELECT machine, key FROM win)'] : []), ...inBetterPlace(weight, 'd.machine', 'd.key'), ...keyed(onKeys, 'd')])}
          ORDER BY d.activity DESC NULLS LAST, d.machine, d.key`);
    if (weight === 'C' && identified.length)
      found.push(`SELECT s.machine, s.key, ${ACTIVITY} AS activity FROM ${SESSIONS} s
          WHERE ${where([
            `(${identified.map((t) => (t.ident as (row: string) => string)('s')).join(' OR ')})`,
            '(s.machine, s.key) NOT IN (SELECT machine, key FROM win)',
            ...inBetterPlace(weight, 's.machine', 's.key'),
            ...keyed(q.conditions, 's'),
          ])}
          ORDER BY ${NEWEST}`);
    const candidates =
      found.length > 1
        ? `SELECT * FROM (${found.map((f) => `(${f})`).join(' UNION ')}) u ORDER BY activity DESC NULLS LAST, machine, key OFFSET 0`
        : `${found[0]} OFFSET 0`;
    // A candidate's document held a phrase's words: its chunks at this place are checked for the phrase itself
    // (their tsvectors, by key), with no second read of its documents' words.
    const inText = `EXISTS (SELECT 1 FROM ${TEXTS} t WHERE t.machine = o.machine AND t.key = o.key AND t.weight = '${weight}'
         AND (${chunked.map((c) => `(${(c.text as (chunk: string) => string)('t')})`).join(' OR ')}) OFFSET 0)`;
    // Filters on a candidate's row are checked on it by key, in order: joined in before the sort, the planner (which
    // cannot tell how many sessions `user:` or `branch:` keeps) read every session row first.
    const onRow = onRows.length
      ? [`EXISTS (SELECT 1 FROM ${SESSIONS} s WHERE s.machine = o.machine AND s.key = o.key AND ${where(keyed(onRows, 's'))} OFFSET 0)`]
      : [];
    const older = `SELECT o.machine, o.key, o.activity FROM (${candidates}) o
       WHERE ${where([...onRow, ...(positional ? [weight === 'C' && identified.length ? `(${inText} OR ${holdsHere(weight, 'o')})` : inText] : []), ...checks('o')])}`;
    return `at_${weight.toLowerCase()} AS MATERIALIZED (
      SELECT p.machine, p.key, p.activity, ${score.toFixed(1)}::float8 AS score FROM (${windowed ? `(${newest}) UNION ALL (${older})` : older}) p ${limitRows})`;
  };
  // The newest sessions that pass the filters (read in the order of the sessions_newest index, each filter on the row as it comes).
  return `WITH ${negatedSets(q.negated)
    .map((n) => `${n},\n    `)
    .join('')}win AS MATERIALIZED (SELECT s.machine, s.key, ${ACTIVITY} AS activity FROM ${SESSIONS} s
      WHERE ${where(keyed(q.conditions, 's'))} ORDER BY ${NEWEST} LIMIT ${q.window}),
    ${read.map(({ weight, score }) => place(weight, score)).join(',\n    ')},
    ranked AS MATERIALIZED (
      SELECT r.machine, r.key, r.activity, r.score, row_number() OVER () AS n
        FROM (${read.map((p) => `SELECT * FROM at_${p.weight.toLowerCase()}`).join(' UNION ALL ')} ${limitRows}) r)
    SELECT page.*, c.total FROM (SELECT count(*) AS total FROM ranked) c
      -- A page past the last match is one row of the total alone (its columns null).
      LEFT JOIN (SELECT ${q.columns}, p.score, p.n
                   FROM (SELECT * FROM ranked ORDER BY n LIMIT ${q.limit} OFFSET ${q.offset}) p
                   JOIN ${SESSIONS} s ON s.machine = p.machine AND s.key = p.key) page ON true
     ORDER BY page.n`;
}
