// Searches a team store with the app's query syntax: one page of matching sessions, each with its machine and who pushed it.
import type { ClientBase } from 'pg';
import type { Facets, SnippetPart } from '../../shared/search-api.ts';
import { teamFacets } from './team-facets.ts';
import { hasPositionalIndex } from './positional-index.ts';
import { qualified } from './team-names.ts';
import { parseTeamQuery, teamSearchSql, type MatchEstimate } from './team-query.ts';
import { estimateMatches } from './team-search-window.ts';
import { teamSnippets, type TeamSnippet } from './team-snippets.ts';

export interface TeamHit {
  machine: string;
  key: string;
  pushedBy: string;
  pushedAt: string;
  format: string;
  title: string;
  status: string | null;
  outcome: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  model: string | null;
  projectName: string | null;
  projectPath: string | null;
  branch: string | null;
  messageCount: number;
  totalTokens: number | null;
  costUsd: number | null;
  parentKey: string | null;
  /** Bytes of its (redacted) session.json. */
  sizeBytes: number;
  /** Where the words matched, summed over the terms (higher is better: title, then prompts, then the rest); null without words. */
  score: number | null;
  /** The team wrote a note on it (shared, `session_annotations`). */
  hasNote: boolean;
  /** The matched words in context (asked for with `snippets`); the title when only filters or an identifier matched. */
  snippet?: SnippetPart[];
  /**
   * The message the snippet's match is in, to open the session at (asked for with `snippets`); null when unknown: a
   * title match, an identifier or filter only, or a session pushed before the store kept where messages begin.
   */
  messageIndex: number | null;
}

export interface TeamSearchResult {
  hits: TeamHit[];
  /** Counts per facet over every match (asked for with `facets`). */
  facets?: Facets;
  /** Every session the query matches, beyond this page too; with `totalCapped`, at least this many. */
  total: number;
  /** More sessions match than were counted (with words, by relevance or a `sort:` order, the count stops at the cap; a phrase's at the page): shown "200+". */
  totalCapped: boolean;
  /** Parts of the query that could not be used, said plainly. */
  problems: string[];
}

interface Row {
  machine: string;
  key: string;
  pushed_by: string;
  pushed_at: Date;
  format: string;
  title: string;
  status: string | null;
  outcome: string | null;
  created_at: Date | null;
  updated_at: Date | null;
  model: string | null;
  project_name: string | null;
  project_path: string | null;
  branch: string | null;
  message_count: number;
  total_tokens: string | null;
  cost_usd: number | null;
  parent_key: string | null;
  size_bytes: number;
  score: number | null;
  total: string;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export interface TeamSearchPage {
  limit?: number;
  offset?: number;
  now?: number;
  /** An order that overrides the query's sort: (relevance, or newest/largest first by one field). */
  sort?: string;
  /** Only these sessions (by machine and key). */
  only?: Array<{ machine: string; key: string }>;
  /** Each hit with its snippet. */
  snippets?: boolean;
  /** The counts per facet over every match. */
  facets?: boolean;
  /** With words (by relevance or a `sort:` order), count the matches up to this many, more shown as "at least" (TEAM_COUNT_CAP by default); null: count them all. */
  countUpTo?: number | null;
  /** How many of the first sessions a read in order looks up one by one before its indexes (team-ranked.ts); by default as the planner's estimate of the matches decides (team-search-window.ts); tests set one. */
  window?: number;
  /** The estimate of the matches that steers how the page is read (team-search-window.ts): by default the planner's; tests set one (null: none). */
  estimate?: MatchEstimate | null;
}

/**
 * How many matches a relevance-ranked search counts: past it, the total is "200+" and no further match is read
 * (each counted match is a look-up of its session's documents: at 1,000 a common word's search took 2-3 times as
 * long as at 200 on the bench's 100,000 sessions).
 */
export const TEAM_COUNT_CAP = 200;

/** Memory each sort or hash of a search may use (SET LOCAL, this transaction only): ~1 M sessions' keys. */
const SEARCH_WORK_MEM = '64MB';

/** Above this many rows (a whole list), every noted session is read instead of looking each row up. */
const NOTED_LOOKUP_ROWS = 1000;

/** Which of a page's sessions the team wrote a note on (keyed `machine\nkey`). */
async function notedOf(client: ClientBase, rows: readonly Row[]): Promise<Set<string>> {
  const table = qualified('session_annotations');
  const { rows: noted } =
    rows.length > NOTED_LOOKUP_ROWS
      ? await client.query<{ machine: string; key: string }>(`SELECT machine, key FROM ${table} WHERE note <> ''`)
      : await client.query<{ machine: string; key: string }>(
          `SELECT machine, key FROM ${table} WHERE note <> '' AND (machine, key) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
          [rows.map((r) => r.machine), rows.map((r) => r.key)],
        );
  return new Set(noted.map((r) => `${r.machine}\n${r.key}`));
}

/** The total a statement counted: with `read` rows read in rank order (null: all), one more than the cap means more match. */
function countOf(counted: number, read: number | null): { total: number; totalCapped: boolean } {
  return read !== null && counted >= read ? { total: read - 1, totalCapped: true } : { total: counted, totalCapped: false };
}

export async function searchTeam(client: ClientBase, query: string, page: TeamSearchPage = {}): Promise<TeamSearchResult> {
  const parsed = parseTeamQuery(query, page.now);
  if (page.sort && page.sort !== 'relevance') parsed.sort = page.sort;
  if (page.only) parsed.only = page.only;
  const estimate = page.estimate !== undefined ? page.estimate : page.window === undefined ? await estimateMatches(client, parsed) : null;
  const sql = teamSearchSql(parsed, {
    limit: page.limit ?? 50,
    offset: page.offset ?? 0,
    positions: await hasPositionalIndex(client),
    countUpTo: page.countUpTo === undefined ? TEAM_COUNT_CAP : page.countUpTo,
    ...(page.window === undefined ? {} : { window: page.window }),
    ...(estimate ? { estimate } : {}),
  });
  let rows: Row[];
  let counted: number;
  let facets: Facets | undefined;
  let snippets: Map<string, TeamSnippet> | undefined;
  let noted = new Set<string>();
  // One snapshot for the page, its snippets and its facets.
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    // Room to hash every match in memory: a negated term's sessions are left out through a hashed NOT IN, which
    // PostgreSQL hashes only when it fits in work_mem (4 MB by default, too little for 100,000 sessions' keys); past
    // that it compared each candidate with every excluded session (a common word left out at 100,000 ran past 20 s).
    await client.query(`SET LOCAL work_mem = '${SEARCH_WORK_MEM}'`);
    // A search's statements run for tens of milliseconds: compiling them (JIT, on past its cost threshold at 100,000
    // sessions) took 40 ms of each and won nothing back.
    await client.query('SET LOCAL jit = off');
    // Terms' sets are joined by session: the planner, which sees fewer sessions per set than there are, sorted ~100,000
    // keys of each for a merge join; hashing them took half the time (two common words at 100,000 sessions: 1.6-1.9 s
    // against 3.0-3.5 s on a loaded machine).
    await client.query('SET LOCAL enable_mergejoin = off');
    if (sql.indexOnly) await client.query('SET LOCAL enable_seqscan = off');
    // A ranked read's places are one UNION ALL read branch by branch, in order (team-ranked.ts): no parallel plan.
    if (sql.ranked) await client.query('SET LOCAL max_parallel_workers_per_gather = 0');
    const read = (await client.query<Row>(sql.text, sql.values)).rows;
    // A ranked read past its last match answers one row with the total alone.
    counted = read[0] ? Number(read[0].total) : 0;
    rows = read.filter((r) => r.key !== null);
    if (rows.length) noted = await notedOf(client, rows);
    if (page.snippets && rows.length) snippets = await teamSnippets(client, parsed.terms, rows);
    if (page.facets) facets = await teamFacets(client, sql.matched, page.now);
  } finally {
    await client.query('COMMIT').catch(() => undefined);
  }
  return {
    ...(facets ? { facets } : {}),
    hits: rows.map((r) => {
      const found = snippets?.get(`${r.machine}\n${r.key}`);
      return {
        machine: r.machine,
        key: r.key,
        pushedBy: r.pushed_by,
        pushedAt: r.pushed_at.toISOString(),
        format: r.format,
        title: r.title,
        status: r.status,
        outcome: r.outcome,
        createdAt: iso(r.created_at),
        updatedAt: iso(r.updated_at),
        model: r.model,
        projectName: r.project_name,
        projectPath: r.project_path,
        branch: r.branch,
        messageCount: r.message_count,
        totalTokens: r.total_tokens === null ? null : Number(r.total_tokens),
        costUsd: r.cost_usd,
        parentKey: r.parent_key,
        sizeBytes: r.size_bytes,
        score: r.score,
        hasNote: noted.has(`${r.machine}\n${r.key}`),
        ...(snippets ? { snippet: found?.parts ?? [] } : {}),
        messageIndex: found?.messageIndex ?? null,
      };
    }),
    ...countOf(counted, sql.rows),
    problems: sql.problems,
  };
}
