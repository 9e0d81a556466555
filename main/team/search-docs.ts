// The team store's narrow search documents: one row per search-text chunk holding its words without positions and the session's activity, which words and prefixes are ranked and counted on.
import { qualified } from './team-names.ts';

/** The table: one row per (machine, key, weight, seq), as the chunks of `session_texts`. */
export const SEARCH_DOCS = qualified('session_docs');

/**
 * The statement that makes the documents of the chunks `where` selects (over the search text `t`) from the stored
 * chunks and session rows: each its chunk's lexemes stripped of positions (a GIN index over them answers a word
 * or prefix without a recheck, so their bodies are never read), and the session's activity (its last update, else
 * its creation) for ordering without reading the session rows. The words are kept out of line (the table's
 * toast_tuple_target), so the rows a search reads are a few dozen bytes, where a chunk row is a few hundred.
 */
export const buildDocs = (where: string) => `INSERT INTO ${SEARCH_DOCS} (machine, key, weight, seq, activity, words)
  SELECT t.machine, t.key, t.weight, t.seq, coalesce(s.updated_at, s.created_at), strip(t.tsv)
    FROM ${qualified('session_texts')} t JOIN ${qualified('sessions')} s ON s.machine = t.machine AND s.key = t.key
   WHERE ${where}`;

/**
 * At a push, the documents of a session's chunks but those it keeps as they are (`$3`: `<key>\n<weight><seq>`, as
 * the chunks' own clearing names them), removed with their chunks.
 */
export const CLEAR_REPLACED_DOCS = `DELETE FROM ${SEARCH_DOCS} d WHERE d.machine = $1 AND d.key = ANY($2::text[])
  AND NOT (d.key || E'\\n' || d.weight::text || d.seq::text) = ANY($3::text[])`;

/**
 * The end of the statement that writes a push's search-text chunks (`WITH written AS (INSERT INTO session_texts …`):
 * their documents, from the tsvectors the insert just computed (RETURNING hands them over in memory: reading them
 * back from the table de-TOASTed every chunk, half a millisecond each).
 */
export const DOCS_OF_WRITTEN = `RETURNING machine, key, weight, seq, tsv)
  INSERT INTO ${SEARCH_DOCS} (machine, key, weight, seq, activity, words)
  SELECT w.machine, w.key, w.weight, w.seq, coalesce(s.updated_at, s.created_at), strip(w.tsv)
    FROM written w JOIN ${qualified('sessions')} s ON s.machine = w.machine AND s.key = w.key`;

/** The session's activity on the documents of sessions `$2::text[]` of machine `$1` it kept, where the push changed it. */
export const KEPT_DOCS_ACTIVITY = `UPDATE ${SEARCH_DOCS} d SET activity = coalesce(s.updated_at, s.created_at)
  FROM ${qualified('sessions')} s
 WHERE d.machine = $1 AND d.key = ANY($2::text[]) AND s.machine = d.machine AND s.key = d.key
   AND d.activity IS DISTINCT FROM coalesce(s.updated_at, s.created_at)`;
