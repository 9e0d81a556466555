// Translates the search box's syntax (query-parser.ts) into one SQL statement over the team store, plus machine: and user: filters; tag: reads the team's shared tags.
import { parseQuery, type Filters, type Term } from '../search-index/query-parser.ts';
import { SEARCH_DOCS } from './search-docs.ts';
import { rankedSearchSql, type TermMatch } from './team-ranked.ts';
import { sortedSearchSql } from './team-search-sorted.ts';
import { excludedSet, identPattern, literalLike, needsPositions, termMatch, termTsquery, unorderedTsquery } from './team-search-terms.ts';
import { qualified } from './team-names.ts';
import { windowFor, windowPlaces } from './team-lookup-window.ts';

export interface TeamQuery {
  /** Terms and filters as the local search parses them. */
  terms: Term[];
  filters: Filters;
  sort: string | null;
  machines: { include: string[]; exclude: string[] };
  users: { include: string[]; exclude: string[] };
  /** Only these sessions (a list asked for by key). */
  only?: Array<{ machine: string; key: string }>;
  problems: string[];
}

export interface TeamSql {
  text: string;
  values: unknown[];
  problems: string[];
  /**
   * The statement looks words up in the chunks' tsvectors: run it with sequential scans off (SET LOCAL
   * enable_seqscan = off). The planner does not count what reading a tsvector costs (de-TOASTing it), so for a
   * common word it would rather scan every chunk than use the GIN index, whose matches need no tsvector read
   * at all: 650-730 ms against 23-27 ms for a word in nearly all of 5,000 sessions.
   */
  indexOnly: boolean;
  /**
   * The matched sessions without order or page, for counts over all of them (facets): `WITH` clause (or ''), the
   * `FROM sessions s … WHERE …` that selects them, and its parameters.
   */
  matched: { with: string; from: string; values: unknown[] };
  /**
   * The statement reads the matches in rank order up to this many (the page's end or the count's cap, plus one):
   * when it read that many, more match, and its total is a lower bound (`rows - 1`, shown "200+"). Null: exact.
   */
  rows: number | null;
  /** Read in rank order (team-ranked.ts): its UNION ALL must run branch by branch, so with no parallel plan. */
  ranked: boolean;
}

/**
 * Whether a matched session (`s`) has a summary: its pushed session carries one, or the team wrote one. What
 * `has:summary` selects and its facet counts.
 */
export const HAS_SUMMARY = `(s.has_summary OR EXISTS (SELECT 1 FROM ${qualified('session_summaries')} w WHERE w.machine = s.machine AND w.key = s.key))`;

/** `machine:NAME`, `user:NAME` (quoted values too), with a leading `-` to leave one out: the team store's own filters. */
const TEAM_FILTER = /(^|\s)(-?)(machine|user):(?:"([^"]*)"?|(\S+))/gi;

export function parseTeamQuery(input: string, now = Date.now()): TeamQuery {
  const machines = { include: [] as string[], exclude: [] as string[] };
  const users = { include: [] as string[], exclude: [] as string[] };
  const rest = input.replace(TEAM_FILTER, (_m, lead: string, minus: string, name: string, quoted: string | undefined, bare: string | undefined) => {
    const into = name.toLowerCase() === 'machine' ? machines : users;
    (minus ? into.exclude : into.include).push(quoted ?? bare ?? '');
    return lead;
  });
  const parsed = parseQuery(rest, now);
  const problems = [...parsed.problems];
  if (parsed.filters.starred) problems.push('is:starred is local to this machine; the team store has no stars, so it was left out.');
  if (parsed.filters.kept) problems.push('is:kept is local to this machine; every team session is kept, so it was left out.');
  return { terms: parsed.terms, filters: parsed.filters, sort: parsed.sort, machines, users, problems };
}

/**
 * PostgreSQL's timestamps run from 4713 BC to 294276 AD; `after:99999999d` asks for a time millennia before the first,
 * which to_timestamp refused ("timestamp out of range") and the search failed. Seconds since 1970 held inside
 * (~4680 BC to ~293,000 AD): past the bound, every session is after it (none before it), as in the local search.
 */
const STORE_SECONDS = { min: -210_000_000_000, max: 9_200_000_000_000 };
const storeSeconds = (ms: number) => Math.min(STORE_SECONDS.max, Math.max(STORE_SECONDS.min, ms / 1000));

/** A LIKE pattern where `*` is a wildcard, as the local filters read it. */
const wildLike = (value: string) => literalLike(value).replaceAll('*', '%');

/** The planner's estimate of a query's matches (team-search-window.ts). */
export interface MatchEstimate {
  /** The share of sessions (0-1) holding every word and none of the negated ones. */
  share: number;
  /**
   * The same share counting only the words' search documents, not identifier substrings: the title's and prompts'
   * share can be no larger. Absent: taken as `share`.
   */
  wordShare?: number;
  /**
   * The share of sessions (0-1) whose title holds one of the words, holding every word and none of the negated ones
   * (from the statistics of the titles' words, schema 11). Absent: taken as `wordShare`.
   */
  titleShare?: number;
  /** A positive term's identifier substring is in so many sessions that reading it through its index costs more than look-ups. */
  commonIdent: boolean;
  /** The negated terms (their places in the query's `terms`) whose sessions are few enough to read whole and leave out by a hashed NOT IN. */
  readWhole: number[];
}

export interface PageOptions {
  limit: number;
  offset: number;
  /**
   * The store's search text has a positional (RUM) index, which its admin may add (positional-index.ts, README): a
   * phrase is then matched by the index alone. Without it, a phrase's candidates are checked chunk by chunk.
   */
  positions?: boolean;
  /**
   * Ranked by relevance, count the matches up to this many (more are "at least"): a common word's every match is
   * never read. Null or absent: count every match.
   */
  countUpTo?: number | null;
  /** Ranked by relevance, how many of the newest sessions each place looks up one by one (team-ranked.ts); by default from the rows it reads. */
  window?: number;
  /**
   * The planner's estimate of the query's matches (team-search-window.ts): the share of sessions holding every
   * word and none of the negated ones, and whether a term's identifier substring is in so many sessions that
   * reading it through its index costs more than looking sessions up one by one. Absent: the default window.
   */
  estimate?: MatchEstimate;
}

/**
 * How much a chunk's match counts, by where the words are: the title most, then the user's prompts, then the rest.
 * Read from the chunk's weight column only, so ranking never reads (de-TOASTs) a tsvector.
 */
const CHUNK_SCORE = `CASE t.weight WHEN 'A' THEN 1.0 WHEN 'B' THEN 0.4 ELSE 0.1 END`;
/** The same places for a chunk's search document (search-docs.ts). */
const DOC_SCORE = `CASE d.weight WHEN 'A' THEN 1.0 WHEN 'B' THEN 0.4 ELSE 0.1 END`;

/**
 * The sessions a phrase matches, with their score and activity. A GIN index holds no word positions, so a
 * phrase's candidates are the sessions with a chunk holding all its words (`words`: found through the search
 * documents' index alone, no recheck), and each is checked chunk by chunk in weight order (title, prompts, the
 * rest) until one holds the phrase: one tsvector read for a session that has it early, and its score is that
 * chunk's place. With a positional (RUM) index over the chunks (`words` null), the chunks holding the phrase come
 * from that index with no tsvector read, and the score is the same: the best place among them.
 */
function phraseMatches(texts: string, phrase: string, words: string | null): string {
  if (words === null)
    return `SELECT p.machine, p.key, p.score, coalesce(s.updated_at, s.created_at) AS activity
      FROM (SELECT t.machine, t.key, max(${CHUNK_SCORE}) AS score FROM ${texts} t WHERE t.tsv @@ ${phrase} GROUP BY t.machine, t.key) p
      JOIN ${qualified('sessions')} s ON s.machine = p.machine AND s.key = p.key`;
  return `SELECT c.machine, c.key, f.score, c.activity
      FROM (SELECT d.machine, d.key, max(d.activity) AS activity FROM ${SEARCH_DOCS} d WHERE d.words @@ ${words} GROUP BY d.machine, d.key) c
      CROSS JOIN LATERAL (SELECT ${CHUNK_SCORE} AS score FROM ${texts} t WHERE t.machine = c.machine AND t.key = c.key AND t.tsv @@ ${phrase}
                          ORDER BY t.weight, t.seq LIMIT 1) f`;
}

/**
 * The query's filters as conditions on a matched session, over its keys (`KEYS.machine`, `KEYS.key`) and its row's
 * columns (`s.`), their values made by `param`; `readsRows`: one reads the row (then the rows are joined in).
 */
function sessionConditions(query: TeamQuery, param: (value: unknown, cast?: string) => string): { conditions: string[]; readsRows: boolean } {
  const where: string[] = [];
  let readsRows = false;
  const rowWhere = (condition: string) => {
    readsRows = true;
    where.push(condition);
  };
  const f = query.filters;
  if (f.source) rowWhere(`s.format = ${param(f.source)}`);
  // The project by ILIKE, a whole one too (a pattern without wildcards: the same rows as comparing lower() of both),
  // so its trigram index (schema 10) finds the rows.
  if (f.project) {
    const project = param(f.exact?.project ? literalLike(f.project) : `%${wildLike(f.project)}%`);
    rowWhere(`(s.project_name ILIKE ${project} OR s.project_path ILIKE ${project})`);
  }
  if (f.branch) rowWhere(f.exact?.branch ? `lower(s.branch) = lower(${param(f.branch)})` : `s.branch ILIKE ${param(wildLike(f.branch))}`);
  if (f.status) rowWhere(`lower(s.status) = lower(${param(f.status)})`);
  if (f.outcome) rowWhere(`lower(s.outcome) = lower(${param(f.outcome)})`);
  if (f.model) rowWhere(f.exact?.model ? `lower(s.model) = lower(${param(f.model)})` : `s.model ILIKE ${param(`${wildLike(f.model)}%`)}`);
  if (f.hasSummary !== undefined) rowWhere(f.hasSummary ? HAS_SUMMARY : `NOT ${HAS_SUMMARY}`);
  // tag: the team's shared tags of the session (session_annotations), compared without case as the vault's are; every one asked for.
  for (const tag of f.tags)
    where.push(
      `EXISTS (SELECT 1 FROM ${qualified('session_annotations')} a WHERE a.machine = KEYS.machine AND a.key = KEYS.key AND lower(${param(tag)}) = ANY (SELECT lower(t) FROM unnest(a.tags) t))`,
    );
  const activity = 'coalesce(s.updated_at, s.created_at)';
  if (f.afterMs !== undefined) rowWhere(`${activity} >= to_timestamp(${param(storeSeconds(f.afterMs), '::double precision')})`);
  if (f.beforeMs !== undefined) rowWhere(`${activity} <= to_timestamp(${param(storeSeconds(f.beforeMs), '::double precision')})`);
  if (f.minTokens !== undefined) rowWhere(`s.total_tokens >= ${param(f.minTokens)}`);
  if (f.maxTokens !== undefined) rowWhere(`s.total_tokens <= ${param(f.maxTokens)}`);
  if (f.minCost !== undefined) rowWhere(`s.cost_usd >= ${param(f.minCost)}`);
  if (f.maxCost !== undefined) rowWhere(`s.cost_usd <= ${param(f.maxCost)}`);
  for (const [column, set] of [
    ['KEYS.machine', query.machines],
    ['s.pushed_by', query.users],
  ] as const) {
    const add = column.startsWith('s.') ? rowWhere : (c: string) => where.push(c);
    if (set.include.length)
      add(
        `lower(${column}) = ANY(${param(
          set.include.map((v) => v.toLowerCase()),
          '::text[]',
        )})`,
      );
    if (set.exclude.length)
      add(
        `NOT lower(${column}) = ANY(${param(
          set.exclude.map((v) => v.toLowerCase()),
          '::text[]',
        )})`,
      );
  }
  if (query.only)
    where.push(
      `(KEYS.machine, KEYS.key) IN (SELECT * FROM unnest(${param(
        query.only.map((o) => o.machine),
        '::text[]',
      )}, ${param(
        query.only.map((o) => o.key),
        '::text[]',
      )}))`,
    );
  return { conditions: where, readsRows };
}

/** The listing's columns of a session row `s`. */
const COLUMNS = `s.machine, s.key, s.pushed_by, s.pushed_at, s.format, s.title, s.status, s.outcome, s.created_at, s.updated_at,
      s.model, s.project_name, s.project_path, s.branch, s.message_count, s.total_tokens, s.cost_usd, s.parent_key, s.size_bytes`;

/**
 * A page with words read in its order with a count capped at `page.countUpTo`: by relevance (`order` null) in rank
 * order (team-ranked.ts), or in a `sort:` order over the session rows (team-search-sorted.ts).
 */
function inOrderSql(query: TeamQuery, page: PageOptions, order: string | null): Omit<TeamSql, 'problems' | 'matched'> {
  const values: unknown[] = [];
  const param = (value: unknown, cast = '') => {
    values.push(value);
    return `$${values.length}${cast}`;
  };
  const terms: TermMatch[] = [];
  const negated: TermMatch[] = [];
  for (const [i, term] of query.terms.entries()) {
    const match = termMatch(term, param);
    if (match && term.negated && !needsPositions(term) && page.estimate?.readWhole.includes(i)) match.excludedSet = excludedSet(match);
    if (match) (term.negated ? negated : terms).push(match);
  }
  const { conditions } = sessionConditions(query, param);
  // A phrase's every match is a chunk's tsvector read: its count stops with the page ("50+").
  const cap = page.countUpTo === undefined || page.countUpTo === null ? null : query.terms.some((t) => !t.negated && needsPositions(t)) ? 0 : page.countUpTo;
  const rows = cap === null ? null : Math.max(page.offset + page.limit, cap) + 1;
  const window = page.window ?? windowFor(rows, page.estimate);
  const common = {
    terms,
    negated,
    conditions,
    rows: rows === null ? null : param(rows),
    window: param(window),
    windowPlaces: windowPlaces(rows, window, page.estimate),
    limit: param(page.limit),
    offset: param(page.offset),
    columns: COLUMNS,
  };
  const text = order === null ? rankedSearchSql(common) : sortedSearchSql({ ...common, order });
  return { text, values, indexOnly: true, rows, ranked: true };
}

/**
 * One statement that filters, ranks, pages and counts. Each positive term is a set of sessions found through an
 * index: chunks whose search documents hold it (GIN over their words; words and prefixes; phrases checked on
 * their candidates' chunks) and, for a word or prefix of three characters or more, sessions with it as a substring
 * of an identifier or path (pg_trgm's GIN), as the local search does; the sessions are those in every set, less
 * those a negated term matches. A session's score is the best place any term is in (title 1, prompts 0.4, the
 * rest 0.1; how many chunks hold it does not count). With words, the page is read in its order and the count
 * capped (inOrderSql: by relevance team-ranked.ts, by a `sort:` order team-search-sorted.ts); filters alone and a
 * phrase on a RUM store read every match: sets, orders and counts over the narrow documents (with the session's
 * activity), the session rows read for filters on their columns and for the page. `matched` (facets) is always
 * every match.
 */
export function teamSearchSql(query: TeamQuery, page: PageOptions): TeamSql {
  const values: unknown[] = [];
  const param = (value: unknown, cast = '') => {
    values.push(value);
    return `$${values.length}${cast}`;
  };
  const problems = [...query.problems];
  const where: string[] = [];
  const texts = qualified('session_texts');
  const sessions = qualified('sessions');
  const sets: string[] = [];
  const excluded: string[] = [];
  for (const term of query.terms) {
    const tsq = termTsquery(term, param);
    const found = identPattern(term);
    const ident = found === null ? null : param(found);
    if (!tsq && !ident) {
      problems.push(`"${term.text}" has no letters or digits to search for; it was left out.`);
      continue;
    }
    const positional = tsq !== null && needsPositions(term);
    const words = positional ? (page.positions ? null : unorderedTsquery(term, param)) : null;
    if (term.negated) {
      // The sessions it matches, found through the indexes (words through the documents' GIN, identifier substrings
      // through the trigrams'), left out by a hashed NOT IN: a per-session ILIKE read every candidate's identifiers
      // (de-TOASTed), and the anti-join the planner chose from its estimate compared every pair (290 ms at 1,000 sessions).
      const found: string[] = [];
      if (tsq)
        found.push(
          positional
            ? `SELECT machine, key FROM (${phraseMatches(texts, tsq, words)}) p`
            : `SELECT d.machine, d.key FROM ${SEARCH_DOCS} d WHERE d.words @@ ${tsq}`,
        );
      if (ident) found.push(`SELECT i.machine, i.key FROM ${sessions} i WHERE i.idents ILIKE ${ident}`);
      const name = `n${excluded.length}`;
      excluded.push(`${name} AS MATERIALIZED (${found.join(' UNION ')})`);
      where.push(`(KEYS.machine, KEYS.key) NOT IN (SELECT machine, key FROM ${name})`);
      continue;
    }
    const parts: string[] = [];
    if (tsq && positional) parts.push(phraseMatches(texts, tsq, words));
    else if (tsq)
      parts.push(
        `SELECT d.machine, d.key, max(${DOC_SCORE}) AS score, max(d.activity) AS activity
           FROM ${SEARCH_DOCS} d WHERE d.words @@ ${tsq} GROUP BY d.machine, d.key`,
      );
    if (ident)
      parts.push(`SELECT i.machine, i.key, 0.1 AS score, coalesce(i.updated_at, i.created_at) AS activity FROM ${sessions} i WHERE i.idents ILIKE ${ident}`);
    const name = `m${sets.length}`;
    sets.push(
      parts.length > 1
        ? // The better of its two ways, per session. A full join, not a GROUP BY over their UNION: the planner took that
          // grouping for a tenth of its rows and looked every match up in sessions one by one (9,751 probes for a common word).
          `${name} AS (SELECT coalesce(w.machine, i.machine) AS machine, coalesce(w.key, i.key) AS key, greatest(w.score, i.score) AS score,
                  coalesce(w.activity, i.activity) AS activity
              FROM (${parts[0]}) w FULL JOIN (${parts[1]}) i ON i.machine = w.machine AND i.key = w.key)`
        : `${name} AS (${parts[0]})`,
    );
  }
  const filtered = sessionConditions(query, param);
  where.push(...filtered.conditions);
  let readsRows = filtered.readsRows;
  const activity = 'coalesce(s.updated_at, s.created_at)';
  // Orders by a session row's own column read the rows; by relevance or activity, the sets' own columns do.
  const byColumn = {
    created: 's.created_at DESC NULLS LAST',
    size: 's.size_bytes DESC',
    tokens: 's.total_tokens DESC NULLS LAST',
    cost: 's.cost_usd DESC NULLS LAST',
  }[query.sort ?? ''];
  if (byColumn) readsRows = true;
  const byActivity = query.sort === 'date' || query.sort === 'updated' || !sets.length;
  const ctes = [...sets, ...excluded];
  const withClause = ctes.length ? `WITH ${ctes.join(',\n  ')}\n` : '';
  const keys = sets.length ? 'm0' : 's';
  const conditions = where.length ? `WHERE ${where.join('\n      AND ').replaceAll('KEYS.', `${keys}.`)}` : '';
  const joins = sets
    .slice(1)
    .map((_, i) => `JOIN m${i + 1} ON m${i + 1}.machine = m0.machine AND m${i + 1}.key = m0.key`)
    .join('\n    ');
  const rows = `JOIN ${sessions} s ON s.machine = m0.machine AND s.key = m0.key`;
  const from = (withRows: boolean) =>
    sets.length ? `FROM m0 ${joins}\n    ${withRows ? rows : ''}\n    ${conditions}` : `FROM ${sessions} s\n    ${conditions}`;
  // Facets count over the session rows' columns: they always read them.
  const matched = { with: withClause, from: from(true), values: [...values] };
  const limit = param(page.limit);
  const offset = param(page.offset);
  const columns = COLUMNS;
  if (!sets.length) {
    // No words: the page in the newest-first index's order (sessions_newest) or a column's, and the count apart, over
    // keys only (a count carried along every row read them all).
    const order = byColumn ?? `${activity} DESC NULLS LAST`;
    const text = `${withClause}SELECT ${columns}, NULL::float8 AS score, (SELECT count(*) ${from(false)}) AS total
      ${from(false)}
      ORDER BY ${order}, s.machine, s.key
      LIMIT ${limit} OFFSET ${offset}`;
    return { text, values, problems, indexOnly: ctes.length > 0, matched, rows: null, ranked: false };
  }
  // With words, the page is read in its order (by relevance, team-ranked.ts; by a `sort:` order, team-search-sorted.ts)
  // and the count capped; but a phrase on a store with a positional (RUM) index, which that index answers alone.
  const rumPhrase = page.positions && query.terms.some((t) => !t.negated && needsPositions(t));
  if (!rumPhrase) return { ...inOrderSql(query, page, byColumn ?? (byActivity ? `${activity} DESC NULLS LAST` : null)), problems, matched };
  // The page is ordered and counted over narrow rows (key, score, activity), and only its own rows' columns are read
  // after: counting every match with the listing's columns carried along sorted and spilled them all.
  const score = sets.length > 1 ? `greatest(${sets.map((_, i) => `m${i}.score`).join(', ')})` : 'm0.score';
  const inner = byColumn ?? (byActivity ? 'activity DESC NULLS LAST' : 'score DESC, activity DESC NULLS LAST');
  const outer = byColumn ?? (byActivity ? 'p.activity DESC NULLS LAST' : 'p.score DESC, p.activity DESC NULLS LAST');
  const text = `${withClause}SELECT ${columns}, p.score, p.total
    FROM (SELECT m0.machine, m0.key, (${score})::float8 AS score, m0.activity, count(*) OVER () AS total
      ${from(readsRows)}
      ORDER BY ${inner}, m0.machine, m0.key
      LIMIT ${limit} OFFSET ${offset}) p
    JOIN ${sessions} s ON s.machine = p.machine AND s.key = p.key
    ORDER BY ${outer}, p.machine, p.key`;
  return { text, values, problems, indexOnly: true, matched, rows: null, ranked: false };
}
