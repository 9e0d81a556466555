// The search filters (source:, project:, branch:, …, tokens>N) as SQL conditions on the files table.
import type { SQLInputValue } from 'node:sqlite';
import type { Filters } from './query-parser.ts';

/** A LIKE pattern where `*` is a wildcard and everything else is literal. */
const like = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`).replaceAll('*', '%');
/** A LIKE pattern matching exactly the value (LIKE is case-insensitive for ASCII, as COLLATE NOCASE is). */
const likeLiteral = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The project column holds the name and the path, one per line. A quoted `project:"…"` is the whole name or the
 * whole path; a bare one is a substring of either.
 */
function projectClause(value: string, exact: boolean): { clause: string; values: SQLInputValue[] } {
  if (!exact) return { clause: "f.project LIKE ? ESCAPE '\\'", values: [`%${like(value)}%`] };
  const v = likeLiteral(value);
  return { clause: "(f.project LIKE ? ESCAPE '\\' OR f.project LIKE ? ESCAPE '\\' OR f.project LIKE ? ESCAPE '\\')", values: [v, `${v}\n%`, `%\n${v}`] };
}

export function filterClauses(f: Filters, where: string[], params: SQLInputValue[]): void {
  const add = (clause: string, ...values: SQLInputValue[]) => {
    where.push(clause);
    params.push(...values);
  };
  if (f.source) add('f.format = ?', f.source);
  if (f.project) {
    const { clause, values } = projectClause(f.project, f.exact?.project === true);
    add(clause, ...values);
  }
  if (f.branch) {
    if (f.exact?.branch) add('f.branch = ? COLLATE NOCASE', f.branch);
    else add("f.branch LIKE ? ESCAPE '\\'", like(f.branch));
  }
  if (f.status) add('f.status = ? COLLATE NOCASE', f.status);
  if (f.outcome) add('f.outcome = ? COLLATE NOCASE', f.outcome);
  if (f.model) {
    if (f.exact?.model) add('f.model = ? COLLATE NOCASE', f.model);
    else add("f.model LIKE ? ESCAPE '\\'", `${like(f.model)}%`);
  }
  if (f.hasSummary) add('f.has_summary = 1');
  if (f.afterMs !== undefined) add('f.time_ms >= ?', f.afterMs);
  if (f.beforeMs !== undefined) add('f.time_ms <= ?', f.beforeMs);
  if (f.minTokens !== undefined) add('f.tokens >= ?', f.minTokens);
  if (f.maxTokens !== undefined) add('f.tokens <= ?', f.maxTokens);
  if (f.minCost !== undefined) add('f.cost >= ?', f.minCost);
  if (f.maxCost !== undefined) add('f.cost <= ?', f.maxCost);
}
