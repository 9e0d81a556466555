// Translates the search box's syntax (query-parser.ts) into one SQL statement over the team store, plus machine: and user: filters; tag: reads the team's shared tags.
import { parseQuery, type Filters, type Term } from '../search-index/query-parser.ts';
import { qualified } from './team-names.ts';

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

/** A LIKE pattern matching `value` literally (backslash escapes). */
const literalLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
/** A LIKE pattern where `*` is a wildcard, as the local filters read it. */
const wildLike = (value: string) => literalLike(value).replaceAll('*', '%');

/** The words of a prefix term, the last one a prefix, as a tsquery: `deploy scr*` → `deploy <-> scr:*`. Null without letters or digits. */
function prefixQuery(text: string): string | null {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  if (!words) return null;
  return words.map((w, i) => (i === words.length - 1 ? `${w}:*` : w)).join(' <-> ');
}

export interface PageOptions {
  limit: number;
  offset: number;
  /**
   * The store's search text has a positional (RUM) index, which its admin may add (positional-index.ts, README): a
   * phrase is then matched by the index alone. Without it, a phrase's candidates are checked chunk by chunk.
   */
  positions?: boolean;
}

/** The tsquery of a term (made with `param`), or null for one with no letters or digits. */
export function termTsquery(term: Term, param: (value: unknown) => string): string | null {
  if (term.kind === 'phrase') return /[\p{L}\p{N}]/u.test(term.text) ? `phraseto_tsquery('simple', ${param(term.text)})` : null;
  if (term.kind === 'prefix') {
    const q = prefixQuery(term.text);
    return q === null ? null : `to_tsquery('simple', ${param(q)})`;
  }
  return /[\p{L}\p{N}]/u.test(term.text) ? `plainto_tsquery('simple', ${param(term.text)})` : null;
}

/**
 * How much a chunk's match counts, by where the words are: the title most, then the user's prompts, then the rest.
 * Read from the chunk's weight column only, so ranking never reads (de-TOASTs) a tsvector: ts_rank over every
 * matching chunk made a common word's query read the whole text of nearly every session.
 */
const CHUNK_SCORE = `CASE t.weight WHEN 'A' THEN 1.0 WHEN 'B' THEN 0.4 ELSE 0.1 END`;

/**
 * The sessions a phrase matches, with their score. A GIN index over tsvectors holds no word positions, so every
 * chunk it finds for a phrase must have its tsvector read (de-TOASTed) to check the words' order: for a phrase of
 * common words, every chunk of nearly every session (1.6-5.3 s at 10,000 sessions). Instead, the sessions holding
 * all its words are found through the index alone (`words`: no recheck), and each is checked chunk by chunk in
 * weight order (title, prompts, the rest) until one holds the phrase: one tsvector read for a session that has it
 * early, and its score is that chunk's place. With a positional (RUM) index (`words` null), the chunks holding the
 * phrase come from the index with no tsvector read, and the score is the same: the best place among them.
 */
function phraseMatches(texts: string, phrase: string, words: string | null): string {
  if (words === null) return `SELECT t.machine, t.key, max(${CHUNK_SCORE}) AS score FROM ${texts} t WHERE t.tsv @@ ${phrase} GROUP BY t.machine, t.key`;
  return `SELECT c.machine, c.key, f.score FROM (SELECT DISTINCT t.machine, t.key FROM ${texts} t WHERE t.tsv @@ ${words}) c
      CROSS JOIN LATERAL (SELECT ${CHUNK_SCORE} AS score FROM ${texts} t WHERE t.machine = c.machine AND t.key = c.key AND t.tsv @@ ${phrase}
                          ORDER BY t.weight, t.seq LIMIT 1) f`;
}

/**
 * One statement that filters, ranks, pages and counts. Each positive term is a set of sessions found through an
 * index: chunks whose tsvector matches it (GIN; words and prefixes, phrases as phrases) and, for a word or prefix
 * of three characters or more, sessions with it as a substring of an identifier or path (pg_trgm's GIN), as the
 * local search does; the sessions are those in every set, less those a negated term matches. A session's score
 * is, per term, its best chunk's place (title 1, prompts 0.4, the rest 0.1) plus a little for every further
 * matching chunk (capped), summed over the terms; ties go to the most recent.
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
    const ident = term.kind !== 'phrase' && [...term.text].length >= 3 ? param(`%${literalLike(term.text)}%`) : null;
    if (!tsq && !ident) {
      problems.push(`"${term.text}" has no letters or digits to search for; it was left out.`);
      continue;
    }
    if (term.negated) {
      // The sessions it matches, found through the indexes (words through the tsvectors' GIN, identifier substrings
      // through the trigrams'), left out by a hashed NOT IN: a per-session ILIKE read every candidate's identifiers
      // (de-TOASTed), and the anti-join the planner chose from its estimate compared every pair (290 ms at 1,000 sessions).
      const found: string[] = [];
      if (tsq)
        found.push(
          term.kind === 'phrase'
            ? `SELECT machine, key FROM (${phraseMatches(texts, tsq, page.positions ? null : `plainto_tsquery('simple', ${param(term.text)})`)}) p`
            : `SELECT t.machine, t.key FROM ${texts} t WHERE t.tsv @@ ${tsq}`,
        );
      if (ident) found.push(`SELECT i.machine, i.key FROM ${sessions} i WHERE i.idents ILIKE ${ident}`);
      const name = `n${excluded.length}`;
      excluded.push(`${name} AS MATERIALIZED (${found.join(' UNION ')})`);
      where.push(`(s.machine, s.key) NOT IN (SELECT machine, key FROM ${name})`);
      continue;
    }
    const parts: string[] = [];
    if (tsq && term.kind === 'phrase') parts.push(phraseMatches(texts, tsq, page.positions ? null : `plainto_tsquery('simple', ${param(term.text)})`));
    else if (tsq)
      parts.push(
        `SELECT t.machine, t.key, max(${CHUNK_SCORE}) + least(count(*) - 1, 20) * 0.01 AS score FROM ${texts} t WHERE t.tsv @@ ${tsq} GROUP BY t.machine, t.key`,
      );
    if (ident) parts.push(`SELECT i.machine, i.key, 0.1 AS score FROM ${sessions} i WHERE i.idents ILIKE ${ident}`);
    const name = `m${sets.length}`;
    sets.push(
      parts.length > 1
        ? // The better of its two ways, per session. A full join, not a GROUP BY over their UNION: the planner took that
          // grouping for a tenth of its rows and looked every match up in sessions one by one (9,751 probes for a common word).
          `${name} AS (SELECT coalesce(w.machine, i.machine) AS machine, coalesce(w.key, i.key) AS key, greatest(w.score, i.score) AS score
              FROM (${parts[0]}) w FULL JOIN (${parts[1]}) i ON i.machine = w.machine AND i.key = w.key)`
        : `${name} AS (${parts[0]})`,
    );
  }
  const f = query.filters;
  if (f.source) where.push(`s.format = ${param(f.source)}`);
  if (f.project) {
    if (f.exact?.project) where.push(`(lower(s.project_name) = lower(${param(f.project)}) OR lower(s.project_path) = lower($${values.length}))`);
    else where.push(`(s.project_name ILIKE ${param(`%${wildLike(f.project)}%`)} OR s.project_path ILIKE $${values.length})`);
  }
  if (f.branch) where.push(f.exact?.branch ? `lower(s.branch) = lower(${param(f.branch)})` : `s.branch ILIKE ${param(wildLike(f.branch))}`);
  if (f.status) where.push(`lower(s.status) = lower(${param(f.status)})`);
  if (f.outcome) where.push(`lower(s.outcome) = lower(${param(f.outcome)})`);
  if (f.model) where.push(f.exact?.model ? `lower(s.model) = lower(${param(f.model)})` : `s.model ILIKE ${param(`${wildLike(f.model)}%`)}`);
  if (f.hasSummary !== undefined) where.push(f.hasSummary ? HAS_SUMMARY : `NOT ${HAS_SUMMARY}`);
  // tag: the team's shared tags of the session (session_annotations), compared without case as the vault's are; every one asked for.
  for (const tag of f.tags)
    where.push(
      `EXISTS (SELECT 1 FROM ${qualified('session_annotations')} a WHERE a.machine = s.machine AND a.key = s.key AND lower(${param(tag)}) = ANY (SELECT lower(t) FROM unnest(a.tags) t))`,
    );
  const activity = 'coalesce(s.updated_at, s.created_at)';
  if (f.afterMs !== undefined) where.push(`${activity} >= to_timestamp(${param(f.afterMs / 1000, '::double precision')})`);
  if (f.beforeMs !== undefined) where.push(`${activity} <= to_timestamp(${param(f.beforeMs / 1000, '::double precision')})`);
  if (f.minTokens !== undefined) where.push(`s.total_tokens >= ${param(f.minTokens)}`);
  if (f.maxTokens !== undefined) where.push(`s.total_tokens <= ${param(f.maxTokens)}`);
  if (f.minCost !== undefined) where.push(`s.cost_usd >= ${param(f.minCost)}`);
  if (f.maxCost !== undefined) where.push(`s.cost_usd <= ${param(f.maxCost)}`);
  for (const [column, set] of [
    ['s.machine', query.machines],
    ['s.pushed_by', query.users],
  ] as const) {
    if (set.include.length)
      where.push(
        `lower(${column}) = ANY(${param(
          set.include.map((v) => v.toLowerCase()),
          '::text[]',
        )})`,
      );
    if (set.exclude.length)
      where.push(
        `NOT lower(${column}) = ANY(${param(
          set.exclude.map((v) => v.toLowerCase()),
          '::text[]',
        )})`,
      );
  }
  if (query.only) {
    where.push(
      `(s.machine, s.key) IN (SELECT * FROM unnest(${param(
        query.only.map((o) => o.machine),
        '::text[]',
      )}, ${param(
        query.only.map((o) => o.key),
        '::text[]',
      )}))`,
    );
  }
  const joins = sets.map((_, i) => `JOIN m${i} ON m${i}.machine = s.machine AND m${i}.key = s.key`).join('\n    ');
  const score = sets.length ? sets.map((_, i) => `m${i}.score`).join(' + ') : 'NULL::numeric';
  const order =
    {
      created: 's.created_at DESC NULLS LAST',
      size: 's.size_bytes DESC',
      tokens: 's.total_tokens DESC NULLS LAST',
      cost: 's.cost_usd DESC NULLS LAST',
      date: `${activity} DESC NULLS LAST`,
      updated: `${activity} DESC NULLS LAST`,
    }[query.sort ?? ''] ?? (sets.length ? `score DESC, ${activity} DESC NULLS LAST` : `${activity} DESC NULLS LAST`);
  const ctes = [...sets, ...excluded];
  const withClause = ctes.length ? `WITH ${ctes.join(',\n  ')}\n` : '';
  const from = `FROM ${sessions} s
    ${joins}
    ${where.length ? `WHERE ${where.join('\n      AND ')}` : ''}`;
  const matched = { with: withClause, from, values: [...values] };
  // The page is ordered and counted over narrow rows (key, score), and only its own rows' columns are read after:
  // counting every match with the listing's columns carried along sorted and spilled them all.
  const text = `${withClause}SELECT s.machine, s.key, s.pushed_by, s.pushed_at, s.format, s.title, s.status, s.outcome, s.created_at, s.updated_at,
      s.model, s.project_name, s.project_path, s.branch, s.message_count, s.total_tokens, s.cost_usd, s.parent_key, s.size_bytes, p.score, p.total
    FROM (SELECT s.machine, s.key, (${score})::float8 AS score, count(*) OVER () AS total
      ${from}
      ORDER BY ${order}, s.machine, s.key
      LIMIT ${param(page.limit)} OFFSET ${param(page.offset)}) p
    JOIN ${sessions} s ON s.machine = p.machine AND s.key = p.key
    ORDER BY ${order}, s.machine, s.key`;
  return { text, values, problems, indexOnly: ctes.length > 0, matched };
}
