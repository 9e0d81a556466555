// Builds the SQL for a parsed query: FTS5 terms (words also match inside identifiers via trigrams), filters, order.
import type { SQLInputValue } from 'node:sqlite';
import type { Filters, ParsedQuery, Term } from './query-parser.ts';

export interface SearchSql {
  sql: string;
  params: SQLInputValue[];
}

/** An FTS5 string literal: the text as one phrase, quotes doubled. */
export const ftsString = (text: string) => `"${text.replaceAll('"', '""')}"`;

const hasWordChars = (text: string) => /[\p{L}\p{N}]/u.test(text);

/** The subquery of files one term matches, or null when the term can match nothing searchable. */
function termSet(term: Term, params: SQLInputValue[]): string | null {
  const parts: string[] = [];
  if (hasWordChars(term.text)) {
    parts.push('SELECT rowid FROM docs WHERE docs MATCH ?');
    params.push(term.kind === 'prefix' ? `${ftsString(term.text)}*` : ftsString(term.text));
  }
  // Substrings of identifiers and paths (`VizierDoc`, `toolu_01`); trigrams need three characters.
  if (term.kind !== 'phrase' && [...term.text].length >= 3) {
    parts.push('SELECT rowid FROM idents WHERE idents MATCH ?');
    params.push(ftsString(term.text));
  }
  return parts.length ? parts.join(' UNION ') : null;
}

/** Relevance: every positive term through the word index, weighted title > metadata > body. */
function rankExpression(terms: Term[]): string | null {
  const positive = terms.filter((t) => !t.negated && hasWordChars(t.text));
  if (!positive.length) return null;
  return positive.map((t) => (t.kind === 'prefix' ? `${ftsString(t.text)}*` : ftsString(t.text))).join(' AND ');
}

const like = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`).replaceAll('*', '%');

function filterClauses(f: Filters, params: SQLInputValue[]): string[] {
  const where: string[] = [];
  const add = (clause: string, ...values: SQLInputValue[]) => {
    where.push(clause);
    params.push(...values);
  };
  if (f.source) add('f.format = ?', f.source);
  if (f.project) add("f.project LIKE ? ESCAPE '\\'", `%${like(f.project)}%`);
  if (f.branch) add("f.branch LIKE ? ESCAPE '\\'", like(f.branch));
  if (f.status) add('f.status = ? COLLATE NOCASE', f.status);
  if (f.outcome) add('f.outcome = ? COLLATE NOCASE', f.outcome);
  if (f.model) add("f.model LIKE ? ESCAPE '\\'", `${like(f.model)}%`);
  if (f.hasSummary) add('f.has_summary = 1');
  if (f.afterMs !== undefined) add('f.time_ms >= ?', f.afterMs);
  if (f.beforeMs !== undefined) add('f.time_ms <= ?', f.beforeMs);
  if (f.minTokens !== undefined) add('f.tokens >= ?', f.minTokens);
  if (f.maxTokens !== undefined) add('f.tokens <= ?', f.maxTokens);
  if (f.minCost !== undefined) add('f.cost >= ?', f.minCost);
  if (f.maxCost !== undefined) add('f.cost <= ?', f.maxCost);
  return where;
}

/**
 * Every matching file (id, path, key, score), best first; the caller pages and post-filters.
 * Each FTS lookup is a MATERIALIZED CTE: run once, then joined by rowid (inline subqueries ran per file row).
 */
export function buildSearchSql(query: ParsedQuery, sort: 'relevance' | 'date'): SearchSql | null {
  const params: SQLInputValue[] = [];
  const ctes: string[] = [];
  const rank = rankExpression(query.terms);
  let join = '';
  let score = 'NULL';
  if (rank) {
    ctes.push('h AS MATERIALIZED (SELECT rowid AS rid, bm25(docs, 10.0, 1.0, 3.0) AS score FROM docs WHERE docs MATCH ?)');
    params.push(rank);
    join = ' LEFT JOIN h ON h.rid = f.id';
    score = 'h.score';
  }
  const where: string[] = [];
  const termParams: SQLInputValue[] = [];
  for (const term of query.terms) {
    const set = termSet(term, termParams);
    if (set === null) {
      // A positive term nothing can match (only punctuation, too short for substrings) matches no file.
      if (!term.negated) return null;
      continue;
    }
    const name = `t${ctes.length}`;
    ctes.push(`${name} AS MATERIALIZED (${set})`);
    where.push(`f.id ${term.negated ? 'NOT IN' : 'IN'} ${name}`);
  }
  params.push(...termParams);
  where.push(...filterClauses(query.filters, params));
  const order = sort === 'relevance' && rank ? `coalesce(${score}, 0) ASC, f.time_ms DESC` : 'f.time_ms DESC, f.path ASC';
  const sql = `${ctes.length ? `WITH ${ctes.join(', ')} ` : ''}SELECT f.id AS id, f.path AS path, f.key AS key, ${score} AS score FROM files f${join}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order}`;
  return { sql, params };
}
