// Searches a team store with the app's query syntax: one page of matching sessions, each with its machine and who pushed it.
import type { ClientBase } from 'pg';
import { parseTeamQuery, teamSearchSql } from './team-query.ts';

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
  /** ts_rank over the matching text (higher is better); null without words. */
  score: number | null;
}

export interface TeamSearchResult {
  hits: TeamHit[];
  /** Every session the query matches, beyond this page too. */
  total: number;
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
  score: number | null;
  total: string;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export async function searchTeam(client: ClientBase, query: string, page: { limit?: number; offset?: number; now?: number } = {}): Promise<TeamSearchResult> {
  const parsed = parseTeamQuery(query, page.now);
  const sql = teamSearchSql(parsed, { limit: page.limit ?? 50, offset: page.offset ?? 0 });
  const { rows } = await client.query<Row>(sql.text, sql.values);
  return {
    hits: rows.map((r) => ({
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
      score: r.score,
    })),
    total: rows[0] ? Number(rows[0].total) : 0,
    problems: sql.problems,
  };
}
