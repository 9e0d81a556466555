// Benchmark: team search at 10,000 and 100,000 sessions on a kept store (team-search-store.ts), p50/p95 per query class, as the app asks (a page of 50 with snippets).
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { findPgBin } from '../team/pg-cluster.ts';
import { positionalIndexStatements } from '../team/positional-index.ts';
import { connectTeam, type TeamConnection } from '../team/team-connection.ts';
import { resolveTeamTarget } from '../team/team-credentials.ts';
import { searchTeam } from '../team/team-search.ts';
import type { Corpus } from './corpus.ts';
import { teamQueries } from './team-queries.ts';
import { keptTeamStore, LARGE_DB, MACHINE, SMALL_DB } from './team-search-store.ts';

/** A query that runs longer than this is stopped and counted at this (the statement's timeout). */
const TIMEOUT_MS = 20_000;

export interface ClassFigures {
  name: string;
  queries: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  slowest: string;
  timedOut: number;
}

export interface ScaleRun {
  sessions: number;
  /** The search text's full-text index: 'gin' or 'rum'. */
  index: string;
  classes: ClassFigures[];
  all: ClassFigures;
}

export interface TeamScaleFigures {
  dir: string;
  builtMs: number | null;
  /** Connecting as the owner applied migrations: how long, per database. */
  migrateMs: Record<string, number>;
  /** The search-text index: its access method and size, per database. */
  indexes: Record<string, Array<{ name: string; method: string; mb: number }>>;
  runs: ScaleRun[];
  rounds: number;
  /** The store at `pushed` sessions given a RUM index (README's statements): how long that took, null when made before or without RUM. */
  rumBuildMs: number | null;
  /** Inserting the same search-text chunks into a table with no full-text index, with GIN, with RUM (null without RUM). */
  upkeep: { chunks: number; noneMs: number; ginMs: number; rumMs: number } | null;
}

/** The class a query of teamQueries() belongs to, for figures per class. */
export function queryClass(q: string): string {
  if (q === '') return 'no words (newest first)';
  if (q.includes('"')) return 'phrase';
  if (/\s-\S/.test(q)) return 'negated word';
  if (/(^|\s)-?[a-z]+:/.test(q)) return 'filter + word';
  if (q.endsWith('*')) return 'prefix';
  if (/[A-Z]|^[a-z]+[A-Z]/.test(q) || /\d/.test(q)) return 'identifier';
  return q.includes(' ') ? 'two words' : 'one word';
}

const connect = (url: string) => connectTeam(resolveTeamTarget(undefined, { SESSION_VAULT_TEAM_URL: url }));

function figures(name: string, times: Array<{ ms: number; q: string; timedOut: boolean }>): ClassFigures {
  const sorted = [...times].sort((a, b) => a.ms - b.ms);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]?.ms ?? 0;
  const last = sorted[sorted.length - 1];
  return {
    name,
    queries: new Set(times.map((t) => t.q)).size,
    p50Ms: at(0.5),
    p95Ms: at(0.95),
    maxMs: last?.ms ?? 0,
    slowest: last?.q ?? '',
    timedOut: times.filter((t) => t.timedOut).length,
  };
}

async function measure(conn: TeamConnection, queries: string[], sessions: number, index: string, rounds: number): Promise<ScaleRun> {
  await conn.client.query(`SET statement_timeout = ${TIMEOUT_MS}`);
  const search = (q: string) => searchTeam(conn.client, q, { limit: 50, snippets: true });
  const times: Array<{ ms: number; q: string; timedOut: boolean }> = [];
  for (const q of queries) await search(q).catch(() => undefined); // warm the cache once
  for (let r = 0; r < rounds; r++)
    for (const q of queries) {
      const t0 = performance.now();
      let timedOut = false;
      await search(q).catch((err: unknown) => {
        if ((err as { code?: string }).code !== '57014') throw err;
        timedOut = true;
      });
      times.push({ ms: timedOut ? TIMEOUT_MS : performance.now() - t0, q, timedOut });
    }
  const names = [...new Set(queries.map(queryClass))];
  return {
    sessions,
    index,
    classes: names.map((n) =>
      figures(
        n,
        times.filter((t) => queryClass(t.q) === n),
      ),
    ),
    all: figures('all', times),
  };
}

async function indexSizes(url: string): Promise<Array<{ name: string; method: string; mb: number }>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ name: string; method: string; bytes: string }>(
      `SELECT i.relname AS name, am.amname AS method, pg_relation_size(i.oid) AS bytes FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
         JOIN pg_am am ON am.oid = i.relam JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE n.nspname = 'session_vault' AND t.relname IN ('session_texts', 'session_docs') AND am.amname <> 'btree' ORDER BY 1`,
    );
    return rows.map((r) => ({ name: r.name, method: r.method, mb: Number(r.bytes) / 1024 / 1024 }));
  } finally {
    await c.end();
  }
}

async function withClient<T>(url: string, body: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await body(c);
  } finally {
    await c.end();
  }
}

/** The small store again, with README's RUM index in place of GIN (made once; timed), or null without RUM. */
async function rumCopy(ownerUrl: (db: string) => string): Promise<{ db: string; buildMs: number | null } | null> {
  const db = `${SMALL_DB}_rum`;
  return withClient(ownerUrl('postgres'), async (c) => {
    if (!(await c.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'rum'`)).rows.length) return null;
    if ((await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [db])).rows.length) return { db, buildMs: null };
    await c.query(`CREATE DATABASE ${db}_partial TEMPLATE ${SMALL_DB}`);
    const t0 = performance.now();
    await withClient(ownerUrl(`${db}_partial`), async (r) => {
      await r.query(`SET maintenance_work_mem = '256MB'`);
      for (const sql of positionalIndexStatements()) await r.query(sql);
      await r.query('VACUUM ANALYZE session_vault.session_texts');
    });
    const buildMs = performance.now() - t0;
    await c.query(`ALTER DATABASE ${db}_partial RENAME TO ${db}`);
    return { db, buildMs };
  });
}

/** Index upkeep at a push: the same chunks (search text of the store at `url`, which has RUM) inserted into tables with no full-text index, GIN, RUM. */
async function indexUpkeep(url: string, chunks = 600): Promise<TeamScaleFigures['upkeep']> {
  return withClient(url, async (c) => {
    await c.query('BEGIN');
    try {
      const table = (name: string) =>
        `CREATE TEMP TABLE ${name} (machine text, key text, seq int, weight "char", body text,
           tsv tsvector GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, body), weight)) STORED) ON COMMIT DROP`;
      for (const name of ['up_none', 'up_gin', 'up_rum']) await c.query(table(name));
      await c.query('CREATE INDEX ON up_gin USING gin (tsv)');
      await c.query('CREATE INDEX ON up_rum USING rum (tsv rum_tsvector_ops)');
      await c.query(
        `CREATE TEMP TABLE up_source ON COMMIT DROP AS SELECT machine, key, seq, weight, body FROM session_vault.session_texts ORDER BY machine, key, weight, seq LIMIT ${chunks}`,
      );
      const timed = async (name: string) => {
        const t0 = performance.now();
        await c.query(`INSERT INTO ${name} SELECT * FROM up_source`);
        return performance.now() - t0;
      };
      return { chunks, noneMs: await timed('up_none'), ginMs: await timed('up_gin'), rumMs: await timed('up_rum') };
    } finally {
      await c.query('ROLLBACK');
    }
  });
}

/**
 * Team search on the kept store (SV_BENCH_TEAM_STORE, /tmp/sv-bench-team-store by default; made on first use from
 * `pushed` generated sessions): the app's connection applies this app's migrations as the owner (timed), then the
 * team bench's 28 queries run `rounds` times as a member at 10,000 and at 100,000 sessions.
 */
export async function benchTeamScale(rounds = 3, pushed = 10_000): Promise<TeamScaleFigures | string> {
  const bin = findPgBin();
  if (!bin) return 'no PostgreSQL server binaries (install postgresql, or set SESSION_VAULT_PG_BIN)';
  const dir = process.env.SV_BENCH_TEAM_STORE || join(tmpdir(), 'sv-bench-team-store');
  const store = await keptTeamStore(bin, dir, pushed);
  try {
    const migrateMs: Record<string, number> = {};
    const indexes: TeamScaleFigures['indexes'] = {};
    const runs: ScaleRun[] = [];
    const queries = teamQueries({ vocabulary: store.vocabulary, identifiers: store.identifiers } as Corpus, MACHINE);
    const stores: Array<[string, number]> = [
      [SMALL_DB, store.pushed],
      [LARGE_DB, store.pushed * store.copies],
    ];
    for (const [db] of stores) {
      if (db !== SMALL_DB) await store.aliasRoles(db);
      const t0 = performance.now();
      await (await connect(store.ownerUrl(db))).close();
      migrateMs[db] = performance.now() - t0;
    }
    // README's RUM index on the small store (a copy of it), where the server offers RUM.
    const rum = process.env.SV_BENCH_TEAM_RUM === '0' ? null : await rumCopy(store.ownerUrl);
    if (rum) stores.splice(1, 0, [rum.db, store.pushed]);
    for (const [db, sessions] of stores) {
      indexes[db] = await indexSizes(store.ownerUrl(db));
      const member = await connect(store.memberUrl(db));
      try {
        runs.push(await measure(member, queries, sessions, indexes[db]?.find((i) => i.name.startsWith('session_texts_tsv'))?.method ?? 'gin', rounds));
      } finally {
        await member.close();
      }
    }
    const upkeep = rum ? await indexUpkeep(store.ownerUrl(rum.db)) : null;
    return { dir, builtMs: store.builtMs, migrateMs, indexes, runs, rounds, rumBuildMs: rum?.buildMs ?? null, upkeep };
  } finally {
    await store.cluster.stop();
  }
}

export function printTeamScale(f: TeamScaleFigures | string): void {
  console.log('\nTeam search at scale (PostgreSQL, a kept cluster on this machine)');
  if (typeof f === 'string') return void console.log(`  not run: ${f}`);
  console.log(`  store: ${f.dir}${f.builtMs === null ? ' (reused)' : `, made in ${(f.builtMs / 1000).toFixed(0)} s`}`);
  console.log('  the larger store holds the pushed sessions ten times, under ten machine labels: the same text repeats across machines');
  for (const [db, list] of Object.entries(f.indexes))
    console.log(
      `  ${db}: ${f.migrateMs[db] === undefined ? '' : `connect + migrate ${(f.migrateMs[db] / 1000).toFixed(1)} s; `}search-text indexes ${list.map((i) => `${i.name} (${i.method}) ${i.mb.toFixed(0)} MB`).join(', ')}`,
    );
  if (f.rumBuildMs !== null)
    console.log(`  RUM index in place of GIN (README's statements) at ${f.runs[0]?.sessions ?? '?'} sessions: built in ${(f.rumBuildMs / 1000).toFixed(0)} s`);
  if (f.upkeep)
    console.log(
      `  index upkeep at a push, the same ${f.upkeep.chunks} search-text chunks inserted: no full-text index ${(f.upkeep.noneMs / 1000).toFixed(1)} s (baseline), GIN ${(f.upkeep.ginMs / 1000).toFixed(1)} s (${(f.upkeep.ginMs / f.upkeep.noneMs).toFixed(2)}x), RUM ${(f.upkeep.rumMs / 1000).toFixed(1)} s (${(f.upkeep.rumMs / f.upkeep.noneMs).toFixed(2)}x)`,
    );
  for (const run of f.runs) {
    console.log(
      `  ${run.sessions} sessions, ${run.index.toUpperCase()}, ${run.all.queries} queries x ${f.rounds} (a page of 50 with snippets; target p95 < 100 ms):`,
    );
    for (const c of [...run.classes, run.all])
      console.log(
        `    ${c.name.padEnd(24)} ${String(c.queries).padStart(2)} queries  p50 ${c.p50Ms.toFixed(1).padStart(8)} ms  p95 ${c.p95Ms.toFixed(1).padStart(8)} ms  max ${c.maxMs.toFixed(1).padStart(8)} ms${c.timedOut ? `  (${c.timedOut} stopped at ${TIMEOUT_MS / 1000} s)` : ''}  slowest ${JSON.stringify(c.slowest)}`,
      );
  }
  const small = f.runs[0];
  const large = f.runs[f.runs.length - 1];
  if (small && large && large !== small)
    console.log(`  p95 of all queries at ${large.sessions} = ${(large.all.p95Ms / small.all.p95Ms).toFixed(2)}x that at ${small.sessions} (GIN)`);
  const rum = f.runs.find((r) => r.index === 'rum');
  const phrase = (r: ScaleRun) => r.classes.find((c) => c.name === 'phrase');
  if (small && rum && phrase(small) && phrase(rum))
    console.log(
      `  phrase p95 at ${rum.sessions}: RUM ${(phrase(rum)?.p95Ms ?? 0).toFixed(0)} ms = ${((phrase(rum)?.p95Ms ?? 0) / (phrase(small)?.p95Ms ?? 1)).toFixed(2)}x GIN's`,
    );
}
