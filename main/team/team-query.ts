// Translates the search box's syntax (query-parser.ts) into one SQL statement over the team store, plus machine: and user: filters.
import { parseQuery, type Filters, type Term } from '../search-index/query-parser.ts';
import { qualified } from './team-names.ts';

export interface TeamQuery {
  /** Terms and filters as the local search parses them. */
  terms: Term[];
  filters: Filters;
  sort: string | null;
  machines: { include: string[]; exclude: string[] };
  users: { include: string[]; exclude: string[] };
  problems: string[];
}

export interface TeamSql {
  text: string;
  values: unknown[];
  problems: string[];
}

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
  if (parsed.filters.tags.length) problems.push('tag: filters local tags; the team store has none, so it was left out.');
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
}

/**
 * One statement that filters, ranks, pages and counts. A term matches a session when one of its text chunks'
 * tsvector does (words and prefixes; phrases as phrases), or, for a word or prefix of three characters or more,
 * when it is a substring of one of its identifiers or paths (trigram index), as the local search does. Ranking
 * is ts_rank over the matching chunks (title weighs most, then the user's prompts, then the rest).
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
  const positive: string[] = [];
  for (const term of query.terms) {
    let tsq: string | null;
    if (term.kind === 'phrase') tsq = `phraseto_tsquery('simple', ${param(term.text)})`;
    else if (term.kind === 'prefix') {
      const q = prefixQuery(term.text);
      tsq = q === null ? null : `to_tsquery('simple', ${param(q)})`;
    } else tsq = /[\p{L}\p{N}]/u.test(term.text) ? `plainto_tsquery('simple', ${param(term.text)})` : null;
    const ident = term.kind !== 'phrase' && [...term.text].length >= 3 ? `s.idents ILIKE ${param(`%${literalLike(term.text)}%`)}` : null;
    const inText = tsq ? `EXISTS (SELECT 1 FROM ${texts} t WHERE t.machine = s.machine AND t.key = s.key AND t.tsv @@ ${tsq})` : null;
    const either = [inText, ident].filter((c): c is string => c !== null);
    if (!either.length) {
      problems.push(`"${term.text}" has no letters or digits to search for; it was left out.`);
      continue;
    }
    const match = either.length > 1 ? `(${either.join(' OR ')})` : (either[0] as string);
    where.push(term.negated ? `NOT ${match}` : match);
    if (!term.negated && tsq) positive.push(tsq);
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
  if (f.hasSummary) where.push('s.has_summary');
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
  const rank = positive.length
    ? `coalesce((SELECT sum(ts_rank(t.tsv, q)) FROM ${texts} t, (SELECT ${positive.join(' || ')} AS q) AS qq WHERE t.machine = s.machine AND t.key = s.key AND t.tsv @@ q), 0)`
    : 'NULL::real';
  const order =
    {
      created: 's.created_at DESC NULLS LAST',
      size: 's.size_bytes DESC',
      tokens: 's.total_tokens DESC NULLS LAST',
      cost: 's.cost_usd DESC NULLS LAST',
      date: `${activity} DESC NULLS LAST`,
      updated: `${activity} DESC NULLS LAST`,
    }[query.sort ?? ''] ?? (positive.length ? `score DESC, ${activity} DESC NULLS LAST` : `${activity} DESC NULLS LAST`);
  const text = `SELECT s.machine, s.key, s.pushed_by, s.pushed_at, s.format, s.title, s.status, s.outcome, s.created_at, s.updated_at,
      s.model, s.project_name, s.project_path, s.branch, s.message_count, s.total_tokens, s.cost_usd, ${rank} AS score, count(*) OVER () AS total
    FROM ${qualified('sessions')} s
    ${where.length ? `WHERE ${where.join('\n      AND ')}` : ''}
    ORDER BY ${order}, s.machine, s.key
    LIMIT ${param(page.limit)} OFFSET ${param(page.offset)}`;
  return { text, values, problems };
}
