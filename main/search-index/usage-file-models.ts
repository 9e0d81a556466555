// The models each file is of or called, indexed by name (schema 11): how the dashboard and reports find a `model:` filter's files without reading every file's rows.
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { Filters } from './query-parser.ts';

/**
 * A file's own model (files.model) and every model its usage rows name (usage_file_days.model, '' for calls of no
 * model), one row each: what search's `model:` filter tests (search-filters.ts), row by row, for every file.
 */
export const CREATE_FILE_MODELS = `CREATE TABLE IF NOT EXISTS usage_file_models (
  model TEXT NOT NULL, file_id INTEGER NOT NULL,
  PRIMARY KEY (model, file_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS usage_file_models_file ON usage_file_models(file_id);`;

/** The names a file is written under: its own model and the models of its usage rows (each once). */
export function fileModelNames(own: string | null | undefined, called: Iterable<string | null | undefined>): string[] {
  const names = new Set<string>();
  if (own !== null && own !== undefined) names.add(own);
  for (const m of called) names.add(m ?? '');
  return [...names];
}

/** Schema 10 -> 11: every file's names, from the rows the index holds (no file is read again). */
export function addFileModels(db: DatabaseSync): void {
  db.exec(CREATE_FILE_MODELS);
  db.exec('DELETE FROM usage_file_models');
  // The same files the writer writes names for: those with a session row (a readable file).
  db.exec(`INSERT OR IGNORE INTO usage_file_models (model, file_id)
    SELECT d.model, d.file_id FROM usage_file_days d
    UNION SELECT f.model, f.id FROM usage_sessions s JOIN files f ON f.id = s.file_id WHERE f.model IS NOT NULL`);
}

/** A LIKE pattern as search-filters.ts makes it: `*` is a wildcard, everything else literal (escaped with `\`). */
const like = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`).replaceAll('*', '%');

/**
 * The `model:` filter as a condition on `f.id` that reads the names (a few dozen, one index step each) and then only
 * the matching names' files; the same files as search-filters.ts's test of every file's own model and day rows
 * (usage-file-models.test.ts compares them).
 */
export function modelCondition(filters: Pick<Filters, 'model' | 'exact'>): { clause: string; params: SQLInputValue[] } | null {
  const value = filters.model;
  if (value === undefined) return null;
  // Every distinct name, by stepping along the primary key from one name to the next.
  const names = `WITH RECURSIVE sv_names(name) AS (SELECT min(model) FROM usage_file_models
    UNION ALL SELECT (SELECT min(model) FROM usage_file_models WHERE model > name) FROM sv_names WHERE name IS NOT NULL)`;
  const test = nameTest({ ...filters, model: value });
  return {
    clause: `f.id IN (${names} SELECT m.file_id FROM sv_names n CROSS JOIN usage_file_models m ON m.model = n.name WHERE n.name IS NOT NULL AND ${test.sql('n.name')})`,
    params: [test.param],
  };
}

/** The `model:` filter's test of one name (`column`), with its one parameter: the whole name, or a part of it with `*` wildcards. */
export function nameTest(filters: Pick<Filters, 'exact'> & { model: string }): { sql: (column: string) => string; param: string } {
  return filters.exact?.model
    ? { sql: (c) => `${c} = ? COLLATE NOCASE`, param: filters.model }
    : { sql: (c) => `${c} LIKE ? ESCAPE '\\'`, param: `%${like(filters.model)}%` };
}
