// The team store's search migrations (schema 6 on): the narrow search documents and the indexes team search reads in order.
import type { ClientBase } from 'pg';
import { buildDocs, SEARCH_DOCS } from './search-docs.ts';
import { ident, qualified, TEAM_SCHEMA, type TeamRoles } from './team-names.ts';
import { lz4Compression, machineRowsAccess } from './machine-rows.ts';

/**
 * Narrow search documents (search-docs.ts): per search-text chunk, its words without positions and the session's
 * activity, so a search ranks and counts a common word's ~100,000 sessions over rows of a few dozen bytes, never
 * reading a chunk row (hundreds of bytes) or a session row, and phrases take their candidates from them. Existing
 * sessions get theirs from their stored search text here; a push makes them again for the sessions it writes.
 * The chunks' own GIN index goes: the documents' index holds the same words, and the chunks are read by key (a
 * phrase's candidates) or through an admin's RUM index (positional-index.ts), which stays. The newest-first list
 * gets an index in its own order (latest activity first, sessions with none last).
 */
export async function version6(client: ClientBase, roles: TeamRoles): Promise<void> {
  // Each pushed chunk's words are compressed once and never read back by a search (its index answers alone): lz4,
  // where the server has it, costs the push a fraction of pglz's time.
  const compression = await lz4Compression(client);
  const statements = [
    `CREATE TABLE ${SEARCH_DOCS} (
       machine text NOT NULL,
       key text NOT NULL,
       weight "char" NOT NULL,
       seq integer NOT NULL,
       activity timestamptz,
       words tsvector${compression} NOT NULL,
       PRIMARY KEY (machine, key, weight, seq),
       FOREIGN KEY (machine, key) REFERENCES ${qualified('sessions')} (machine, key) ON DELETE CASCADE
     ) WITH (toast_tuple_target = 128)`,
    ...machineRowsAccess(SEARCH_DOCS, roles),
    buildDocs('true'),
    // This transaction only: room to build the index in memory (the default 64 MB spills a 100,000-session store's).
    `SET LOCAL maintenance_work_mem = '256MB'`,
    `CREATE INDEX session_docs_words ON ${SEARCH_DOCS} USING gin (words)`,
    `DROP INDEX IF EXISTS ${qualified('session_texts_tsv')}`,
    `CREATE INDEX sessions_newest ON ${qualified('sessions')} ((coalesce(updated_at, created_at)) DESC NULLS LAST, machine, key)`,
    // How many sessions a set of documents groups into (a few chunks each), for the planner's estimates of a term's sessions.
    `CREATE STATISTICS ${qualified('session_docs_sessions')} (ndistinct) ON machine, key FROM ${SEARCH_DOCS}`,
    `ANALYZE ${SEARCH_DOCS}`,
  ];
  for (const sql of statements) await client.query(sql);
}

/**
 * The titles' search documents under a GIN index of their own, for a relevance search read in rank order
 * (team-ranked.ts): the title is the first place it reads, and a word common in the text but rare in titles
 * (a third of a million documents at 100,000 sessions, a few hundred of them titles) is then found among the
 * titles alone, not through every document holding it. An index only: one small document per session
 * (4 MB, half a second to build, at 100,000 sessions).
 */
export async function version7(client: ClientBase): Promise<void> {
  await client.query(`CREATE INDEX IF NOT EXISTS session_docs_title_words ON ${SEARCH_DOCS} USING gin (words) WHERE weight = 'A'`);
}

/**
 * An index on sessions in each order a search with words can ask for besides relevance and activity (which
 * sessions_newest serves): created, size, tokens, cost, each with machine and key after it as the search breaks
 * ties. A search in one of them reads its first sessions in that order (team-search-sorted.ts) instead of sorting
 * every match. Btree indexes of a few MB at 100,000 sessions; a push writes one entry in each per session.
 */
export async function version8(client: ClientBase): Promise<void> {
  const sessions = qualified('sessions');
  const orders = [
    ['sessions_created', 'created_at DESC NULLS LAST'],
    ['sessions_size', 'size_bytes DESC'],
    ['sessions_tokens', 'total_tokens DESC NULLS LAST'],
    ['sessions_cost', 'cost_usd DESC NULLS LAST'],
  ] as const;
  for (const [name, order] of orders) await client.query(`CREATE INDEX IF NOT EXISTS ${name} ON ${sessions} (${order}, machine, key)`);
  await client.query(`ANALYZE ${sessions}`);
}

/**
 * The planner's row estimate of one of a few fixed statements over the search documents and sessions, for team
 * search to choose how it reads a page (team-search-window.ts). Row-level security hides the columns' statistics
 * from a viewer's or member's plans (PostgreSQL uses them with a non-leakproof operator such as `@@` or ILIKE only
 * for a role that bypasses the policies), so their estimates were defaults; this function runs as the store's
 * owner and gives only estimates (every account that may call it reads the rows themselves). `what`: 'docs'
 * (documents holding `words`), 'doc_sessions' (sessions with a document holding `words`, every session with one
 * when null), 'sessions' (sessions whose identifiers hold `pattern`, every session when null). Values are quoted
 * into the fixed statements as literals (VOLATILE: PostgreSQL runs EXPLAIN only in a volatile function).
 */
export async function version9(client: ClientBase, roles: TeamRoles): Promise<void> {
  const fn = qualified('planned_rows');
  await client.query(plannedRowsFunction(false));
  await client.query(`REVOKE ALL ON FUNCTION ${fn}(text, tsquery, text) FROM PUBLIC`);
  await client.query(`GRANT EXECUTE ON FUNCTION ${fn}(text, tsquery, text) TO ${ident(roles.viewer)}`);
}

/**
 * The statement that makes (or, with `titles` since version 11, replaces) `planned_rows`; with `titles`, it
 * estimates 'titles' too: titles holding `words`, from the statistics of the titles' words alone (version 11).
 */
function plannedRowsFunction(titles: boolean): string {
  const docs = SEARCH_DOCS;
  const sessions = qualified('sessions');
  const title = titles
    ? `
        WHEN 'titles' THEN format('SELECT 1 FROM ${docs} d WHERE (CASE WHEN d.weight = ''A'' THEN d.words END) @@ %L::tsquery', words)`
    : '';
  return `CREATE OR REPLACE FUNCTION ${qualified('planned_rows')}(what text, words tsquery, pattern text) RETURNS double precision
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
    DECLARE
      statement text;
      plan json;
    BEGIN
      statement := CASE what
        WHEN 'docs' THEN format('SELECT 1 FROM ${docs} d WHERE d.words @@ %L::tsquery', words)
        WHEN 'doc_sessions' THEN 'SELECT DISTINCT d.machine, d.key FROM ${docs} d'
          || CASE WHEN words IS NULL THEN '' ELSE format(' WHERE d.words @@ %L::tsquery', words) END
        WHEN 'sessions' THEN 'SELECT 1 FROM ${sessions} i'
          || CASE WHEN pattern IS NULL THEN '' ELSE format(' WHERE i.idents ILIKE %L', pattern) END${title}
      END;
      IF statement IS NULL THEN RAISE EXCEPTION 'planned_rows: unknown statement %', what; END IF;
      EXECUTE 'EXPLAIN (FORMAT JSON) ' || statement INTO plan;
      RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows')::double precision;
    END $fn$`;
}

/**
 * A trigram index on the project's name and path, which `project:` reads by substring (`project:"…"` whole, by an
 * ILIKE without wildcards): a list by that filter alone counts every session it matches, and with no index that
 * count read every session row (200 ms at 100,000 sessions for a project in one session in forty; through the
 * index 13 ms, the same run; 0.10-0.18x on a loaded machine). Branch and model were measured too and left
 * without one: their values are in a large share of sessions (a third, half), where reading the index cost 1.3-1.7x
 * the scan. GIN over short values, 9 MB at 100,000 sessions (built in 3 s there, loaded); one entry per trigram at
 * a push. And the search text's tsvectors compressed with lz4 where the server has it, for chunks pushed from now on.
 */
export async function version10(client: ClientBase): Promise<void> {
  const sessions = qualified('sessions');
  // pg_trgm may be in another schema than the store's (version 1): its operator class is named where it is.
  const trgm = await client.query<{ schema: string }>(`SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'pg_trgm'`);
  const ops = `${trgm.rows[0]?.schema ?? ident(TEAM_SCHEMA)}.gin_trgm_ops`;
  await client.query(`CREATE INDEX IF NOT EXISTS sessions_project_trgm ON ${sessions} USING gin (project_name ${ops}, project_path ${ops})`);
  await client.query(`ANALYZE ${sessions}`);
  // A phrase's candidate chunks are checked on their tsvectors (17 KB on average), each read whole: lz4 read 4,000 of
  // them in 0.4x pglz's time, and wrote them in 0.8x. Chunks pushed from now on; those stored keep theirs (no rewrite).
  if (await lz4Compression(client)) await client.query(`ALTER TABLE ${qualified('session_texts')} ALTER COLUMN tsv SET COMPRESSION lz4`);
}

/**
 * The prompts' search documents under a GIN index of their own, as the titles have theirs (version 7): a relevance
 * search reads its second place, the prompts (team-ranked.ts), through it, so a word's prompt documents are found
 * among the prompts alone. Through the index of every document, each match's row was fetched to read its place
 * and most were not prompts: a word in 4% of the sessions at 100,000 fetched 29,710 documents (10,800 pages) to keep
 * 3,210 (the search 110 ms against 29 ms with this index), and a phrase's prompt candidates the same way
 * (370 against 300 ms). An index only: 118 MB at 100,000 sessions (the documents' index of every place is 581 MB),
 * built in ~20-50 s there on a loaded machine; a push writes its prompts' words into it too.
 *
 * And statistics of the titles' words alone (an expression's statistics: the documents' words where the document is
 * a title), which `planned_rows` reads for 'titles': how many titles hold a query's words decides whether a ranked
 * read looks its newest sessions up in the titles one by one (team-search-window.ts). The documents' own statistics
 * are of every place, where a common word is in nearly every document: its titles were estimated at 73,000 where
 * 8,620 hold it; from these, 8,170. ANALYZE of the documents: 4 s at 100,000 sessions.
 */
export async function version11(client: ClientBase): Promise<void> {
  const statements = [
    // This transaction only: room to build the index in memory.
    `SET LOCAL maintenance_work_mem = '256MB'`,
    `CREATE INDEX IF NOT EXISTS session_docs_prompt_words ON ${SEARCH_DOCS} USING gin (words) WHERE weight = 'B'`,
    `CREATE STATISTICS IF NOT EXISTS ${qualified('session_docs_title_stats')} ON ((CASE WHEN weight = 'A' THEN words END)) FROM ${SEARCH_DOCS}`,
    `ANALYZE ${SEARCH_DOCS}`,
    plannedRowsFunction(true),
  ];
  for (const sql of statements) await client.query(sql);
}
