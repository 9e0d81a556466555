// `session-vault search "<query>"`: full-text search with filters over the same index the app uses.
import { resolve } from 'node:path';
import { oneOf, SEARCH_SORTS } from '../../shared/contract-values.ts';
import type { Facets, SearchResult } from '../../shared/search-api.ts';
import { resolveDataDir } from '../env/data-dir.ts';
import type { SearchOutput } from '../search-index/search-service.ts';
import { UsageError } from './usage-error.ts';
import { parseCommandArgs } from './parse-command-args.ts';
import { minusWordsAsQuery } from './minus-words.ts';
import { fastSearch } from './search-fast-path.ts';
import { sanitizeDeep, sanitizeForTerminal, terminalJson } from './terminal-text.ts';
import { changesFound } from './index-current.ts';

export const SEARCH_HELP = `Usage: session-vault search "<query>" [--json] [--limit N] [--sort KEY] [--facets] [--root DIR]... [--no-defaults]

Searches every session's messages, tool calls and outputs, file paths, summaries and titles.

Query syntax:
  words             every word must appear (also inside identifiers: VizierDoc finds parseVizierDocument)
  "exact phrase"    the words in this order
  pars*             words starting with pars
  -word, NOT word   sessions without the word (a filter cannot be excluded, only -has:summary)
  source:codex project:NAME branch:NAME status:closed outcome:accepted model:gpt-5 tag:NAME
  is:starred is:kept has:summary after:2026-01-31 before:2026-02 tokens>10k cost>1.5 sort:size
  after:7d          a span back from now (h, d, w): active in the past 7 days; before:24h, older than a day
  project:"my app"  a quoted project, branch or model is the whole value, not part of it
  (no words)        lists every session the filters allow

Options:
  --json          print the results (summary, snippet, matching message) as JSON
  --limit N       how many results (default 20)
  --sort KEY      ${SEARCH_SORTS.join(', ')}: relevance (default when there
                  are words) or the largest/newest first (date is the same as updated)
  --facets        also print how many matching sessions each source, project, branch, status,
                  outcome, model and tag has, with the filter that selects them
                  (the query may then be empty: counts over every session)
  --root DIR      also read sessions below DIR (repeatable; not saved)
  --no-defaults   skip the tools' default folders
  -h, --help      show this help
`;

/** The longest query the contract takes (shared/search-api.ts). */
const MAX_QUERY = 2000;

/** Hits are shown between » and « so a terminal shows them without colour codes. */
export function formatResults(results: SearchResult[], total: number): string {
  if (!results.length) return 'No sessions match.\n';
  const lines: string[] = [];
  for (const r of sanitizeDeep(results)) {
    const s = r.summary;
    const when = (s.updatedAt ?? s.createdAt ?? '').slice(0, 16).replace('T', ' ');
    lines.push(`${s.key}  ${when}  ${s.title.replace(/\s+/g, ' ')}`);
    const snippet = r.snippet
      .map((p) => (p.hit ? `»${p.text}«` : p.text))
      .join('')
      .replace(/\s+/g, ' ')
      .trim();
    if (snippet) lines.push(`    ${r.messageIndex === null ? '' : `#${r.messageIndex + 1} `}${snippet}`);
  }
  lines.push(`${results.length} of ${total} matching session${total === 1 ? '' : 's'}`);
  return `${lines.join('\n')}\n`;
}

/** One block per facet: count, value, and the filter to add to the query to see just those sessions. */
export function formatFacets(facets: Facets): string {
  const lines: string[] = [];
  for (const [name, values] of Object.entries(sanitizeDeep(facets))) {
    if (!values.length) continue;
    lines.push(`${name}:`);
    const width = Math.max(...values.map((v) => String(v.count).length));
    for (const v of values)
      lines.push(`  ${String(v.count).padStart(width)}  ${v.value.replace(/\s+/g, ' ')}${v.filter === `${name}:${v.value}` ? '' : `  (${v.filter})`}`);
  }
  return lines.length ? `${lines.join('\n')}\n` : 'No facets: nothing matches.\n';
}

export async function runSearch(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    minusWordsAsQuery(argv),
    {
      json: { type: 'boolean' },
      limit: { type: 'string' },
      sort: { type: 'string' },
      facets: { type: 'boolean' },
      root: { type: 'string', multiple: true },
      'no-defaults': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    SEARCH_HELP,
  );
  if (values.help) {
    process.stdout.write(SEARCH_HELP);
    return;
  }
  const query = positionals.join(' ').trim();
  if (!query && !values.facets) throw new UsageError(`give a query, e.g. session-vault search "merge conflict"\n\n${SEARCH_HELP}`);
  const limit = values.limit === undefined ? 20 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError('--limit must be a whole number from 1 to 1000');
  const sort = values.sort === undefined ? undefined : oneOf(SEARCH_SORTS, values.sort.toLowerCase());
  if (values.sort !== undefined && sort === undefined) throw new UsageError(`--sort must be one of ${SEARCH_SORTS.join(', ')}`);
  const facets = values.facets === true;
  const print = (page: SearchOutput) => {
    for (const problem of page.problems) process.stderr.write(`warning: ${sanitizeForTerminal(problem)}\n`);
    if (values.json) process.stdout.write(`${terminalJson(page)}\n`);
    else process.stdout.write(formatResults(page.results, page.total) + (page.facets ? `\n${formatFacets(page.facets)}` : ''));
  };
  const input = { query, limit, offset: 0, sort, ...(facets ? { facets } : {}) };
  const dataDir = resolveDataDir(env);
  const extraRoots = (values.root ?? []).map((r) => resolve(r));
  const noDefaults = values['no-defaults'] === true;
  // Nothing changed below the roots since the last full run, and every text is in: the index answers as it is.
  // (A query the contract refuses, over its length, takes the full path, which says so.)
  const fast = query.length <= MAX_QUERY ? await fastSearch(dataDir, { roots: extraRoots, noDefaults }, env, input) : null;
  if (fast) return print(fast);
  const startedAt = Date.now();
  // Loaded only now: the services load every reader, the workers and the index's writer.
  const { withOneShotServices } = await import('./one-shot.ts');
  // The check above found what changed since the last run: the scan reads that instead of walking every root.
  const found = changesFound(dataDir);
  const run = await withOneShotServices({ roots: values.root, noDefaults, found }, env, async (services) => {
    print(await services.client.searchSessions(input));
    return { roots: await services.client.listRoots(), problems: services.startupProblems() };
  });
  // What the scan saw, for the next run's fast path (not kept when something changed while this one ran).
  // Loaded only here: writing the snapshot loads node:crypto (~18 ms), which the fast path does without.
  const { recordScan } = await import('./scan-snapshot.ts');
  await recordScan(dataDir, { extraRoots, noDefaults, env, startedAt, found, ...run });
}
