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

/**
 * A parent's tokens or cost counts its sub-agents' too (each once: a kept copy has its live file's key), so `tokens>`
 * and `cost>` compare totals. The families are gathered once per statement through the parent index (files_parent):
 * `kids` is every parent's sub-agent sum, `own` the parent's own figure.
 */
const kids = (column: 'tokens' | 'cost') =>
  `SELECT pk, sum(v) AS kids FROM (SELECT parent_key AS pk, max(${column}) AS v FROM files WHERE parent_key IS NOT NULL GROUP BY parent_key, key) GROUP BY pk`;
const familiesWhere = (column: 'tokens' | 'cost', test: string) =>
  `SELECT k.pk FROM (${kids(column)}) k WHERE k.kids + coalesce((SELECT max(p.${column}) FROM files p WHERE p.key = k.pk), 0) ${test} ?`;
/** Total at least `n` (two parameters, both n): its own figure is, or its family's is. `row` names the files row (`f.`, or '' in a CTE of its columns). */
export const totalAtLeast = (column: 'tokens' | 'cost', row = 'f.') => `(${row}${column} >= ? OR ${row}key IN (${familiesWhere(column, '>=')}))`;
/** Total at most `n`: it has a figure (its own or its sub-agents'), its own is at most n, and its family's is not more. */
const totalAtMost = (column: 'tokens' | 'cost') =>
  `((f.${column} IS NOT NULL OR f.key IN (SELECT pk FROM (${kids(column)}))) AND coalesce(f.${column}, 0) <= ? AND f.key NOT IN (${familiesWhere(column, '>')}))`;

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
    // A bare value is any part of the name: model:opus is claude-opus-4-7 (as a prefix it matched no Claude model).
    // A session is one of a model's when it is its model, or when it called it (a switch mid-session, a sub-call):
    // each file's models are in its usage rows per day (usage_file_days, a few rows per file, read by its id).
    const called = (test: string) => `EXISTS (SELECT 1 FROM usage_file_days d WHERE d.file_id = f.id AND d.model ${test})`;
    if (f.exact?.model) add(`(f.model = ? COLLATE NOCASE OR ${called('= ? COLLATE NOCASE')})`, f.model, f.model);
    else add(`(f.model LIKE ? ESCAPE '\\' OR ${called("LIKE ? ESCAPE '\\'")})`, `%${like(f.model)}%`, `%${like(f.model)}%`);
  }
  // A summary in the session's own file, or one the vault holds (its keys given by the caller).
  const vaultSummaries = JSON.stringify(f.summarizedKeys ?? []);
  if (f.hasSummary === true) add('(f.has_summary = 1 OR f.key IN (SELECT value FROM json_each(?)))', vaultSummaries);
  if (f.hasSummary === false) add('(f.has_summary = 0 AND f.key NOT IN (SELECT value FROM json_each(?)))', vaultSummaries);
  if (f.afterMs !== undefined) add('f.time_ms >= ?', f.afterMs);
  if (f.beforeMs !== undefined) add('f.time_ms <= ?', f.beforeMs);
  if (f.minTokens !== undefined) add(totalAtLeast('tokens'), f.minTokens, f.minTokens);
  if (f.maxTokens !== undefined) add(totalAtMost('tokens'), f.maxTokens, f.maxTokens);
  if (f.minCost !== undefined) add(totalAtLeast('cost'), f.minCost, f.minCost);
  if (f.maxCost !== undefined) add(totalAtMost('cost'), f.maxCost, f.maxCost);
}
