// The team store's schema: made on first connect in one transaction, left alone after, and a newer store refused untouched.
import pg from 'pg';
import { expect, it } from 'vitest';
import { MIGRATIONS, TEAM_SCHEMA_VERSION } from './migrations.ts';
import { describeWithPostgres } from './postgres-suite.ts';
import { connectUrl, urlAs } from './test-team.ts';

async function query<T extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

describeWithPostgres('team store schema', (pgs) => {
  it('is created on the first connect, with full-text and trigram indexes and row-level security, and left as it is on the next', async () => {
    const url = await pgs.freshDatabase();
    const first = await connectUrl(url);
    expect(first.schema).toEqual({ before: 0, after: TEAM_SCHEMA_VERSION });
    await first.close();
    const tables = await query<{ relname: string; relrowsecurity: boolean }>(
      url,
      `SELECT c.relname, c.relrowsecurity FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'session_vault' AND c.relkind = 'r' ORDER BY 1`,
    );
    expect(tables).toEqual([
      { relname: 'accounts', relrowsecurity: false },
      { relname: 'file_parts', relrowsecurity: true },
      { relname: 'machines', relrowsecurity: true },
      { relname: 'session_annotations', relrowsecurity: true },
      { relname: 'session_docs', relrowsecurity: true },
      { relname: 'session_files', relrowsecurity: true },
      { relname: 'session_messages', relrowsecurity: true },
      { relname: 'session_summaries', relrowsecurity: true },
      { relname: 'session_texts', relrowsecurity: true },
      { relname: 'sessions', relrowsecurity: true },
      { relname: 'team_schema_version', relrowsecurity: false },
    ]);
    const indexes = (await query<{ indexdef: string }>(url, `SELECT indexdef FROM pg_indexes WHERE schemaname = 'session_vault'`))
      .map((r) => r.indexdef)
      .join('\n');
    expect(indexes).toMatch(/session_docs USING gin \(words\)/);
    // The titles' and the prompts' documents under indexes of their own (schemas 7, 11), and statistics of the titles' words (11).
    expect(indexes).toMatch(/session_docs_title_words ON session_vault\.session_docs USING gin \(words\) WHERE \(weight = 'A'::"char"\)/);
    expect(indexes).toMatch(/session_docs_prompt_words ON session_vault\.session_docs USING gin \(words\) WHERE \(weight = 'B'::"char"\)/);
    expect(await query(url, `SELECT stxname FROM pg_statistic_ext WHERE stxnamespace = 'session_vault'::regnamespace ORDER BY 1`)).toEqual([
      { stxname: 'session_docs_sessions' },
      { stxname: 'session_docs_title_stats' },
    ]);
    expect(indexes).not.toMatch(/USING gin \(tsv\)/);
    expect(indexes).toMatch(/USING gin \(idents session_vault\.gin_trgm_ops\)/);
    const second = await connectUrl(url);
    expect(second.schema).toEqual({ before: TEAM_SCHEMA_VERSION, after: TEAM_SCHEMA_VERSION });
    await second.close();
    expect(await query(url, 'SELECT version FROM session_vault.team_schema_version ORDER BY 1')).toEqual(MIGRATIONS.map((m) => ({ version: m.version })));
  });

  it('refuses a store whose schema is newer than this app, and changes nothing in it', async () => {
    const url = await pgs.freshDatabase();
    await (await connectUrl(url)).close();
    await query(url, `INSERT INTO session_vault.team_schema_version (version, describe) VALUES (99, 'from a later app')`);
    await expect(connectUrl(url)).rejects.toThrow(
      `The team store is at schema version 99, newer than this app understands (${TEAM_SCHEMA_VERSION}). Update Session Vault`,
    );
    expect((await query(url, 'SELECT version FROM session_vault.team_schema_version ORDER BY 1')).length).toBe(MIGRATIONS.length + 1);
  });

  it('applies all of a migration or none of it', async () => {
    const url = await pgs.freshDatabase();
    // Something in the way of the first migration: it fails part-way, and nothing it did before stays.
    await query(url, 'CREATE SCHEMA session_vault; CREATE TABLE session_vault.sessions (x int)');
    await expect(connectUrl(url)).rejects.toThrow(/already exists/);
    expect(await query(url, `SELECT to_regclass('session_vault.team_schema_version') AS t, to_regclass('session_vault.accounts') AS a`)).toEqual([
      { t: null, a: null },
    ]);
  });

  it('tells a user without the rights to create the store to connect as its owner first', async () => {
    const url = await pgs.freshDatabase();
    await query(url, `CREATE ROLE newcomer LOGIN PASSWORD 'newcomer-pw'; REVOKE CREATE ON SCHEMA public FROM PUBLIC`);
    await expect(connectUrl(urlAs(url, 'newcomer', 'newcomer-pw'))).rejects.toThrow(
      'This database user may not create or upgrade the team store. Connect once as the database owner',
    );
  });
});
