// Facets over everything a team search matches (machine, user, source, project, branch, status, outcome, model, the team's shared tags, and the date, token, cost and summary ranges), each value with the filter that selects it, as the local search counts them.
import type { ClientBase } from 'pg';
import type { FacetName, FacetValue, Facets } from '../../shared/search-api.ts';
import { facetFilter, MAX_FACET_VALUES } from '../search-index/facets.ts';
import { HAS_SUMMARY, type TeamSql } from './team-query.ts';
import { qualified } from './team-names.ts';

const HOUR_MS = 3_600_000;

/** The ranges offered, in the order shown, with the filter each puts in the box and its condition over the matched rows. */
function ranges(now: number): Array<{ facet: 'date' | 'tokens' | 'cost' | 'summary'; value: string; filter: string; condition: string }> {
  const since = (value: string, filter: string, hours: number) => ({
    facet: 'date' as const,
    value,
    filter,
    condition: `activity >= to_timestamp(${(now - hours * HOUR_MS) / 1000})`,
  });
  return [
    since('Past 24 hours', 'after:24h', 24),
    since('Past 7 days', 'after:7d', 7 * 24),
    since('Past 30 days', 'after:30d', 30 * 24),
    since('Past year', 'after:365d', 365 * 24),
    { facet: 'tokens', value: '10k+', filter: 'tokens>=10k', condition: 'total_tokens >= 10000' },
    { facet: 'tokens', value: '100k+', filter: 'tokens>=100k', condition: 'total_tokens >= 100000' },
    { facet: 'tokens', value: '1M+', filter: 'tokens>=1m', condition: 'total_tokens >= 1000000' },
    { facet: 'cost', value: '$1+', filter: 'cost>=1', condition: 'cost_usd >= 1' },
    { facet: 'cost', value: '$10+', filter: 'cost>=10', condition: 'cost_usd >= 10' },
    { facet: 'summary', value: 'Has a summary', filter: 'has:summary', condition: 'has_summary' },
  ];
}

interface Row {
  facet: FacetName | 'machine' | 'user' | 'ranges';
  value: string | null;
  name: string | null;
  n: string;
}

/** Values counted case-insensitively (the filters compare so), shown as most sessions spell them, most common first. */
function top(rows: Row[], name: string, always: boolean): FacetValue[] {
  const tallies = new Map<string, { value: string; filter: string; count: number; best: number }>();
  for (const r of rows) {
    if (r.value === null) continue;
    const filter = facetFilter(name, r.value, always);
    if (filter === null) continue;
    const n = Number(r.n);
    const folded = r.value.toLowerCase();
    const seen = tallies.get(folded);
    if (!seen) tallies.set(folded, { value: r.value, filter, count: n, best: n });
    else {
      seen.count += n;
      if (n > seen.best) Object.assign(seen, { value: r.value, filter, best: n });
    }
  }
  return [...tallies.values()]
    .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value))
    .slice(0, MAX_FACET_VALUES)
    .map(({ value, count, filter }) => ({ value, count, filter }));
}

/**
 * Counts over the query's matches in one statement. A project is offered by its path (by its name when it has no
 * path), shown by its name, with a quoted filter (`project:"…"`), which the team store matches whole.
 */
export async function teamFacets(client: ClientBase, matched: TeamSql['matched'], now = Date.now()): Promise<Facets> {
  const offered = ranges(now);
  const group = (facet: string, value: string, name = 'NULL::text') =>
    `SELECT '${facet}' AS facet, ${value} AS value, ${name} AS name, count(*) AS n FROM matched WHERE ${value} IS NOT NULL AND ${value} <> '' GROUP BY 2`;
  const text = `${matched.with ? `${matched.with.trimEnd()},\n` : 'WITH '}matched AS MATERIALIZED (
      SELECT s.machine, s.key, s.pushed_by, s.format, s.project_name, s.project_path, s.branch, s.status, s.outcome, s.model, ${HAS_SUMMARY} AS has_summary, s.total_tokens, s.cost_usd,
             coalesce(s.updated_at, s.created_at) AS activity
      ${matched.from})
    ${[
      group('machine', 'machine'),
      group('user', 'pushed_by'),
      group('source', 'format'),
      group('project', 'coalesce(project_path, project_name)', 'max(project_name)'),
      group('branch', 'branch'),
      group('status', 'status'),
      group('outcome', 'outcome'),
      group('model', 'model'),
      // The team's shared tags, each counted once per session whatever its case (the filter compares without it).
      `SELECT 'tag', min(t), NULL::text, count(DISTINCT (m.machine, m.key)) FROM matched m JOIN ${qualified('session_annotations')} a ON a.machine = m.machine AND a.key = m.key
         CROSS JOIN unnest(a.tags) t GROUP BY lower(t)`,
    ].join('\n    UNION ALL ')}
    UNION ALL SELECT 'ranges', json_build_array(${offered.map((r) => `count(*) FILTER (WHERE ${r.condition})`).join(', ')})::text, NULL, 0 FROM matched`;
  const { rows } = await client.query<Row>(text, matched.values);
  const of = (facet: Row['facet']) => rows.filter((r) => r.facet === facet);
  const counts = JSON.parse(rows.find((r) => r.facet === 'ranges')?.value ?? '[]') as number[];
  const range = (facet: 'date' | 'tokens' | 'cost' | 'summary'): FacetValue[] =>
    offered.flatMap((r, i) => (r.facet === facet && (counts[i] ?? 0) > 0 ? [{ value: r.value, filter: r.filter, count: counts[i] as number }] : []));
  // Shown by name; two folders of the same name are told apart by their paths.
  const nameOf = new Map(of('project').map((r) => [r.value?.toLowerCase(), r.name]));
  const named = top(of('project'), 'project', true).map((v) => ({ ...v, value: nameOf.get(v.value.toLowerCase()) || v.value }));
  const projects = named.map((v, _, all) => (all.filter((o) => o.value === v.value).length > 1 ? { ...v, value: v.filter.slice('project:"'.length, -1) } : v));
  return {
    machine: top(of('machine'), 'machine', false),
    user: top(of('user'), 'user', false),
    source: top(of('source'), 'source', false),
    project: projects,
    branch: top(of('branch'), 'branch', true),
    status: top(of('status'), 'status', false),
    outcome: top(of('outcome'), 'outcome', false),
    model: top(of('model'), 'model', true),
    tag: top(of('tag'), 'tag', false),
    date: range('date'),
    tokens: range('tokens'),
    cost: range('cost'),
    summary: range('summary'),
  };
}
