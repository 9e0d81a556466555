// The planner's estimate of how many sessions a team search's words match, which decides whether a page read in order looks its first sessions up one by one or reads only the indexes' matches.
import type { ClientBase } from 'pg';
import { qualified } from './team-names.ts';
import type { MatchEstimate, TeamQuery } from './team-query.ts';
import { identPattern, needsPositions, termTsquery, termWordsTsquery } from './team-search-terms.ts';

/**
 * Rows the planner expects from the index of identifier substrings past which it is read no further (window kept):
 * each of its matches is rechecked on the session's de-TOASTed identifiers, ten times a document's cost. A common
 * substring (a third of 100,000 sessions) took 2 s through that index against 0.2 s looked up one by one.
 */
const COMMON_IDENT_ROWS = 2_000;

/**
 * Search documents the planner expects to hold a negated word below which its sessions are read whole (about
 * 50-100 ms) and left out by a hashed NOT IN; past it each candidate is looked up (stopping with the page). At
 * 10,000 sessions a common negated word's 32,000 documents were read in 40-60 ms where looking up the 5,000
 * candidates it left out took 200 ms; at 100,000 reading its 324,000 took 400 ms and the look-ups, stopping with
 * the page, 110 ms.
 */
const NEGATED_SET_DOCS = 50_000;

/**
 * The share of sessions (0-1) the query's words match, as the planner sees it from the statistics of the search
 * documents' words (their most common words are counted, every rarer one is below the least of them) and of the
 * identifiers' trigrams, taking terms as independent: each positive term's share of sessions multiplied, times
 * each negated term's share of sessions without it. And whether a term's identifier substring is common (see
 * COMMON_IDENT_ROWS), and which negated terms to read whole (NEGATED_SET_DOCS). The same share by the words alone
 * (no identifiers), and in titles (from the statistics of the titles' words, schema 11): the title and the prompts
 * look the first sessions up one by one only when these would fill the page from them (team-query.ts). The
 * estimates come from the store owner's plans (`planned_rows`, schema 9), in one round trip. They only steer the
 * plan: the sessions found and their order are the same either way. Null for a query without words, or a store
 * without the function (or before schema 11, without its titles' estimate).
 */
export async function estimateMatches(client: ClientBase, query: TeamQuery): Promise<MatchEstimate | null> {
  if (!query.terms.some((t) => !t.negated)) return null;
  const values: unknown[] = [];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const planned = (what: string, words: string | null, pattern: string | null) =>
    `${qualified('planned_rows')}('${what}', ${words ?? 'NULL'}, ${pattern === null ? 'NULL' : `${param(pattern)}::text`})`;
  const columns = [`${planned('doc_sessions', null, null)} AS with_docs`, `${planned('sessions', null, null)} AS sessions`];
  const terms: Array<{ i: number; negated: boolean; positional: boolean }> = [];
  for (const [i, term] of query.terms.entries()) {
    const pattern = identPattern(term);
    // (A term with nothing to search for is left out of the search.)
    if (termTsquery(term, () => '') === null && pattern === null) continue;
    const words = termWordsTsquery(term, param);
    const n = terms.length;
    columns.push(
      `${words === null ? '0' : planned('doc_sessions', words, null)} AS s${n}`,
      `${pattern === null ? '0' : planned('sessions', null, pattern)} AS i${n}`,
      `${words === null || !term.negated ? '0' : planned('docs', words, null)} AS d${n}`,
      `${words === null || term.negated ? '0' : planned('titles', words, null)} AS t${n}`,
    );
    terms.push({ i, negated: term.negated, positional: needsPositions(term) });
  }
  let row: Record<string, number>;
  try {
    row = (await client.query<Record<string, number>>(`SELECT ${columns.join(', ')}`, values)).rows[0] ?? {};
  } catch {
    // A store made before schema 9 (or 11: no titles' estimate), read by an account that cannot migrate it: the default window.
    return null;
  }
  const withDocs = Math.max(1, Number(row.with_docs));
  const sessions = Math.max(1, Number(row.sessions));
  let share = 1;
  let commonIdent = false;
  const readWhole: number[] = [];
  // The share left by the negated terms, and each positive term's share of sessions by its words and of titles.
  let kept = 1;
  const positive: Array<{ words: number; titles: number }> = [];
  for (const [n, term] of terms.entries()) {
    const identRows = Number(row[`i${n}`]);
    if (!term.negated && identRows > COMMON_IDENT_ROWS) commonIdent = true;
    if (term.negated && !term.positional && identRows <= COMMON_IDENT_ROWS && Number(row[`d${n}`]) < NEGATED_SET_DOCS) readWhole.push(term.i);
    const held = Math.min(1, Number(row[`s${n}`]) / withDocs + identRows / sessions);
    share *= term.negated ? 1 - held : held;
    if (term.negated) kept *= 1 - held;
    else {
      const words = Math.min(1, Number(row[`s${n}`]) / withDocs);
      positive.push({ words, titles: Math.min(words, Number(row[`t${n}`]) / sessions) });
    }
  }
  const wordShare = kept * positive.reduce((p, t) => p * t.words, 1);
  // A title holds one of the terms, and the session every other one somewhere (summed over the terms; at most the words' share).
  const inTitles = positive.reduce((sum, t, i) => sum + t.titles * positive.reduce((p, o, j) => (j === i ? p : p * o.words), 1), 0);
  const titleShare = Math.min(wordShare, kept * inTitles);
  return { share, wordShare, titleShare, commonIdent, readWhole };
}
