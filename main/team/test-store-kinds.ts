// Test helper: the two kinds of team store search must behave the same on: GIN only (as every store is made), and one its admin gave a positional (RUM) index.
import pg from 'pg';
import type { Session } from '../../shared/session.ts';
import { positionalIndexStatements } from './positional-index.ts';
import type { PostgresSuite } from './postgres-suite.ts';
import { pushSessions } from './push.ts';
import type { TeamConnection } from './team-connection.ts';
import { connectUrl, memoryLoader } from './test-team.ts';

export interface StoreKind {
  name: string;
  /** The search text's full-text index this kind has: 'gin', or 'rum' where the server offers RUM. */
  expected(pgs: PostgresSuite): Promise<'rum' | 'gin'>;
  /** Once the store's schema is made (connected once): what its admin does to it (nothing, or the RUM index). */
  prepare(url: string): Promise<void>;
}

async function run(url: string, statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const sql of statements) await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Whether the server offers RUM at all (Debian: postgresql-<major>-rum; .ci/run installs it). */
export async function serverHasRum(superuserUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: superuserUrl });
  await client.connect();
  try {
    return (await client.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'rum'`)).rows.length > 0;
  } finally {
    await client.end();
  }
}

/**
 * The store as the app makes it (GIN), and as an admin gave it a RUM index with README's statements (where the
 * server offers RUM; else it stays GIN and the test says so by its expected index). In CI the server must offer
 * RUM (.ci/run installs it), so both paths run there.
 */
export const STORE_KINDS: StoreKind[] = [
  { name: 'as the app makes it (GIN)', expected: async () => 'gin', prepare: async () => undefined },
  {
    name: 'given a positional (RUM) index by its admin',
    expected: async (pgs) => ((await serverHasRum(pgs.cluster().url)) ? 'rum' : 'gin'),
    prepare: async (url) => {
      if (await serverHasRum(url)) await run(url, positionalIndexStatements());
    },
  },
];

/**
 * The access methods of the full-text index the search text is found through: the chunks' own (an admin's RUM
 * index, which matches phrases by itself) where they have one, else that of their search documents (GIN).
 */
export async function searchIndexMethod(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Each access method once: the documents have two GIN indexes (all their words, and the titles' own).
    const of = async (table: string) => [
      ...new Set(
        (
          await client.query<{ method: string }>(
            `SELECT am.amname AS method FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_am am ON am.oid = i.relam
            WHERE x.indrelid = $1::regclass AND am.amname <> 'btree'`,
            [table],
          )
        ).rows.map((r) => r.method),
      ),
    ];
    const chunks = await of('session_vault.session_texts');
    return chunks.length ? chunks : await of('session_vault.session_docs');
  } finally {
    await client.end();
  }
}

/**
 * A fresh store of this kind (made by a first connect, then prepared by its admin) holding `sessions` pushed from
 * `machine` (from memory, without sources): its superuser URL and the owner's open connection.
 */
export async function storeHolding(
  pgs: PostgresSuite,
  kind: StoreKind,
  machine: string,
  sessions: readonly Session[],
): Promise<{ url: string; owner: TeamConnection }> {
  const url = await pgs.freshDatabase();
  await (await connectUrl(url)).close();
  await kind.prepare(url);
  const owner = await connectUrl(url);
  const report = await pushSessions({
    client: owner.client,
    machine,
    keys: sessions.map((s) => s.key),
    loader: memoryLoader([...sessions]),
    env: {},
    sources: false,
  });
  if (report.pushed.length !== sessions.length) throw new Error(`pushed ${report.pushed.length} of ${sessions.length} sessions`);
  return { url, owner };
}
