// The team store's optional positional (RUM) index over the search text: whether a store has one, and the statements that give it one (an admin's choice, see README: it makes phrases fast and pushes slow).
import type { ClientBase } from 'pg';
import { qualified } from './team-names.ts';

/** Per connection, whether its store's search text has a RUM index (asked once: an index added later is seen by a new connection). */
const known = new WeakMap<ClientBase, Promise<boolean>>();

/**
 * Whether the search text (`session_texts.tsv`) has an index of the RUM access method (Postgres Professional's
 * GIN-like index that keeps each word's positions), under any name: with one, a phrase is matched by the index
 * alone; with GIN only, each candidate chunk's tsvector must be read to check the words' order.
 */
export function hasPositionalIndex(client: ClientBase): Promise<boolean> {
  let answer = known.get(client);
  if (!answer) {
    answer = client
      .query<{ present: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_am am ON am.oid = i.relam
                         WHERE x.indrelid = to_regclass($1) AND am.amname = 'rum') AS present`,
        [qualified('session_texts')],
      )
      .then((r) => r.rows[0]?.present === true);
    known.set(client, answer);
    answer.catch(() => known.delete(client));
  }
  return answer;
}

/**
 * The statements that give a store's search-text chunks a RUM index, as README gives them to an admin: the
 * extension (untrusted: a superuser, or a managed service's admin role where the service offers RUM, creates it),
 * the index, then the chunks' GIN index dropped where a store before schema 6 still has it (words and prefixes
 * are found through the search documents' GIN index, search-docs.ts, with or without RUM).
 */
export function positionalIndexStatements(): string[] {
  const texts = qualified('session_texts');
  return [
    'CREATE EXTENSION IF NOT EXISTS rum',
    `CREATE INDEX session_texts_tsv_rum ON ${texts} USING rum (tsv rum_tsvector_ops)`,
    `DROP INDEX IF EXISTS ${qualified('session_texts_tsv')}`,
  ];
}
