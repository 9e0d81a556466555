// The team search bench's kept store: 10,000 generated sessions pushed once, then their search rows copied under nine more machine labels (100,000), in a cluster kept under /tmp across runs.
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { createAccount } from '../team/accounts.ts';
import { startCluster, type PgCluster } from '../team/pg-cluster.ts';
import { pushSessions } from '../team/push.ts';
import { connectTeam } from '../team/team-connection.ts';
import { ident, teamRoles } from '../team/team-names.ts';
import { resolveTeamTarget } from '../team/team-credentials.ts';
import { benchServices } from './bench-services.ts';
import { generateCorpus } from './corpus.ts';

/** The machine the sessions were pushed from; the copies are `${MACHINE}-2` … `${MACHINE}-10`. */
export const MACHINE = 'bench-laptop';
/** The database holding the pushed sessions, and the one holding them ten times over. */
export const SMALL_DB = 'team_pushed';
export const LARGE_DB = 'team_copied';
const MEMBER = 'bench';

export interface KeptStore {
  cluster: PgCluster;
  /** Sessions pushed (the small store), and in the large one (pushed ones under ten machine labels). */
  pushed: number;
  copies: number;
  /** The generated corpus's planted words and identifiers, for the query set. */
  vocabulary: string[];
  identifiers: string[];
  /** Superuser and member URLs of a database of the cluster. */
  ownerUrl(database: string): string;
  memberUrl(database: string): string;
  /** How long the store took to make (null when it was reused). */
  builtMs: number | null;
  /**
   * Gives a database copied from SMALL_DB (its roles are SMALL_DB's) the group roles named after it, which a
   * migration grants to, each held by SMALL_DB's role of the same rank, so the bench's accounts keep their rights.
   */
  aliasRoles(database: string): Promise<void>;
}

interface StoreFacts {
  pushed: number;
  copies: number;
  vocabulary: string[];
  identifiers: string[];
  token: string;
}

async function superuserQuery(url: string, sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/**
 * Pushes `count` generated sessions (no source files: search reads none) as a member account into SMALL_DB, through
 * the app's scan and push, as `team push --all --no-sources` would.
 */
async function pushGenerated(dir: string, cluster: PgCluster, count: number): Promise<Omit<StoreFacts, 'copies'>> {
  const work = join(dir, 'work');
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  const services = benchServices({
    dataDir: join(work, 'data'),
    shell: 'cli',
    extraRoots: [join(work, 'root')],
    discoverDefaults: false,
    watch: false,
    env: {},
  });
  try {
    const corpus = await generateCorpus(join(work, 'root'), count);
    await services.start();
    await services.whenScanned();
    await services.whenIndexTidied();
    const summaries = (await services.client.listSessions({ includeChildren: true })).sessions.filter((s) => !s.unreadable);
    await superuserQuery(cluster.url, `CREATE DATABASE ${SMALL_DB}`);
    const owner = await connectTeam(resolveTeamTarget(undefined, { SESSION_VAULT_TEAM_URL: cluster.url.replace(/\/[^/]*$/, `/${SMALL_DB}`) }));
    let token: string;
    try {
      token = await createAccount(owner.client, MEMBER, 'member');
    } finally {
      await owner.close();
    }
    const member = await connectTeam(resolveTeamTarget(undefined, { SESSION_VAULT_TEAM_URL: cluster.urlFor(MEMBER, token, SMALL_DB) }));
    const loader = services.bundles.openLoader();
    try {
      await pushSessions({ client: member.client, machine: MACHINE, keys: summaries.map((s) => s.key).sort(), loader, env: {}, sources: false });
    } finally {
      await loader.close();
      await member.close();
    }
    return { pushed: summaries.length, vocabulary: corpus.vocabulary, identifiers: corpus.identifiers, token };
  } finally {
    await services.close();
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * LARGE_DB: a copy of SMALL_DB whose sessions and search text are copied again under nine more machine labels (the
 * same text on every machine; message chunks and source files are not copied: search reads neither). The
 * search-text indexes are dropped for the copy and made again after, as a bulk load would.
 */
async function copyUnderMachines(cluster: PgCluster, copies: number): Promise<void> {
  await superuserQuery(cluster.url, `CREATE DATABASE ${LARGE_DB} TEMPLATE ${SMALL_DB}`);
  const c = new pg.Client({ connectionString: cluster.url.replace(/\/[^/]*$/, `/${LARGE_DB}`) });
  await c.connect();
  try {
    const indexes = await c.query<{ name: string; def: string }>(
      `SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE schemaname = 'session_vault' AND tablename IN ('sessions', 'session_texts', 'session_docs')
          AND indexname NOT LIKE '%_pkey'`,
    );
    for (const i of indexes.rows) await c.query(`DROP INDEX session_vault.${i.name}`);
    const columns = async (table: string) =>
      (
        await c.query<{ name: string }>(
          `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = 'session_vault' AND table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`,
          [table],
        )
      ).rows.map((r) => r.name);
    const sessionColumns = await columns('sessions');
    const textColumns = await columns('session_texts');
    const docColumns = await columns('session_docs');
    const select = (cols: string[], label: string) => cols.map((n) => (n === 'machine' ? `'${label}'` : n)).join(', ');
    for (let i = 2; i <= copies; i++) {
      const label = `${MACHINE}-${i}`;
      await c.query(`INSERT INTO session_vault.machines (label, account) VALUES ($1, $2)`, [label, MEMBER]);
      await c.query(
        `INSERT INTO session_vault.sessions (${sessionColumns.join(', ')}) SELECT ${select(sessionColumns, label)} FROM session_vault.sessions WHERE machine = '${MACHINE}'`,
      );
      await c.query(
        `INSERT INTO session_vault.session_texts (${textColumns.join(', ')}) SELECT ${select(textColumns, label)} FROM session_vault.session_texts WHERE machine = '${MACHINE}'`,
      );
      if (docColumns.length)
        await c.query(
          `INSERT INTO session_vault.session_docs (${docColumns.join(', ')}) SELECT ${select(docColumns, label)} FROM session_vault.session_docs WHERE machine = '${MACHINE}'`,
        );
    }
    await c.query(`SET maintenance_work_mem = '256MB'`);
    for (const i of indexes.rows) await c.query(i.def);
    await c.query('VACUUM ANALYZE');
  } finally {
    await c.end();
  }
}

/**
 * The kept store in `dir` (made on first use: generation, push and copies take minutes), its cluster started.
 * The caller stops the cluster; the folder stays for the next run.
 */
export async function keptTeamStore(bin: string, dir: string, pushed = 10_000, copies = 10): Promise<KeptStore> {
  const cluster = await startCluster(bin, dir);
  const factsFile = join(dir, 'store.json');
  try {
    let facts: StoreFacts;
    let builtMs: number | null = null;
    if (existsSync(factsFile)) facts = JSON.parse(await readFile(factsFile, 'utf8')) as StoreFacts;
    else {
      const t0 = performance.now();
      for (const db of [LARGE_DB, SMALL_DB]) await superuserQuery(cluster.url, `DROP DATABASE IF EXISTS ${db}`);
      const made = await pushGenerated(dir, cluster, pushed);
      await superuserQuery(cluster.url.replace(/\/[^/]*$/, `/${SMALL_DB}`), 'VACUUM ANALYZE');
      await copyUnderMachines(cluster, copies);
      facts = { ...made, copies };
      await writeFile(factsFile, JSON.stringify(facts));
      builtMs = performance.now() - t0;
    }
    return {
      cluster,
      pushed: facts.pushed,
      copies: facts.copies,
      vocabulary: facts.vocabulary,
      identifiers: facts.identifiers,
      ownerUrl: (db) => cluster.url.replace(/\/[^/]*$/, `/${db}`),
      memberUrl: (db) => cluster.urlFor(MEMBER, facts.token, db),
      builtMs,
      aliasRoles: async (db) => {
        const from = teamRoles(SMALL_DB);
        const to = teamRoles(db);
        for (const rank of ['viewer', 'member', 'admin'] as const)
          await superuserQuery(
            cluster.url,
            `DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${to[rank]}') THEN CREATE ROLE ${ident(to[rank])} NOLOGIN; END IF; END $$;
             GRANT ${ident(to[rank])} TO ${ident(from[rank])}`,
          );
      },
    };
  } catch (err) {
    await cluster.stop();
    throw err;
  }
}
