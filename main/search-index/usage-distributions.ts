// The dashboard's per-session figures from the index: tool calls and failures, and sessions per length and per number of turns.
import type { UsageDashboard } from '../../shared/usage-api.ts';
import { withClause } from './search.ts';
import type { UsageScope, UsageSource } from './usage-match.ts';
import { counted, LENGTH_BUCKETS, TURN_BUCKETS } from './usage-buckets.ts';

const MINUTE = 60_000;

/** A CASE expression giving the index of the first bucket `value` falls in (`below`: under the bound, else up to it). */
function bucketSql(value: string, buckets: Array<[number, string]>, scale: number, below: boolean): string {
  const whens = buckets
    .slice(0, -1)
    .map(([bound], i) => `WHEN ${value} ${below ? '<' : '<='} ${bound * scale} THEN ${i}`)
    .join(' ');
  return `CASE ${whens} ELSE ${buckets.length - 1} END`;
}

export function sessionLengths(catalogue: Pick<UsageSource, 'index'>, scope: UsageScope): UsageDashboard['lengths'] {
  if (!scope.any) return counted([], LENGTH_BUCKETS);
  const sql = `${withClause(scope.ctes)}SELECT ${bucketSql('max(0, f.updated_ms - f.created_ms)', LENGTH_BUCKETS, MINUTE, true)} AS b, count(*) AS n
    FROM files f WHERE ${scope.sessionCond('f.id')} AND f.readable = 1 AND f.created_ms IS NOT NULL AND f.updated_ms IS NOT NULL GROUP BY 1`;
  return counted(catalogue.index.prepared(sql).all(...scope.params) as unknown as Array<{ b: number; n: number }>, LENGTH_BUCKETS);
}

export function sessionTurns(catalogue: Pick<UsageSource, 'index'>, scope: UsageScope): UsageDashboard['turns'] {
  if (!scope.any) return counted([], TURN_BUCKETS);
  const sql = `${withClause(scope.ctes)}SELECT ${bucketSql('coalesce(t.turns, 0)', TURN_BUCKETS, 1, false)} AS b, count(*) AS n
    FROM files f LEFT JOIN usage_sessions t ON t.file_id = f.id WHERE ${scope.sessionCond('f.id')} AND f.readable = 1 GROUP BY 1`;
  return counted(catalogue.index.prepared(sql).all(...scope.params) as unknown as Array<{ b: number; n: number }>, TURN_BUCKETS);
}

/** The most called tools (sub-agents' calls included), with how many of their calls failed. */
export function toolCalls(catalogue: Pick<UsageSource, 'index'>, scope: UsageScope, limit = 15): UsageDashboard['tools'] {
  if (!scope.any) return [];
  const sql = `${withClause(scope.ctes)}SELECT t.name AS name, sum(t.calls) AS calls, sum(t.failures) AS failures
    FROM usage_tools t WHERE ${scope.cond('t.file_id')} GROUP BY t.name ORDER BY calls DESC, name LIMIT ${limit}`;
  return catalogue.index.prepared(sql).all(...scope.params) as unknown as UsageDashboard['tools'];
}
