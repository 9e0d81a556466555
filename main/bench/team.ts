// Benchmark: the team store on a throwaway PostgreSQL cluster: push throughput against COPY of the same rows, re-push cost, search p95 at 1,000 and 10,000 sessions.
import { randomUUID } from 'node:crypto';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createAccount } from '../team/accounts.ts';
import { findPgBin, startCluster, type PgCluster } from '../team/pg-cluster.ts';
import { PushLedger } from '../team/push-ledger.ts';
import { pushSessions, type PushReport } from '../team/push.ts';
import { connectTeam, type TeamConnection } from '../team/team-connection.ts';
import { resolveTeamTarget } from '../team/team-credentials.ts';
import { searchTeam } from '../team/team-search.ts';
import type { Services } from '../app/services.ts';
import type { SessionSummary } from '../../shared/session.ts';
import { benchServices } from './bench-services.ts';
import { generateCorpus, type Corpus } from './corpus.ts';
import { copyBaseline, type CopyBaseline } from './team-copy-baseline.ts';
import { teamQueries } from './team-queries.ts';
import { settle } from './settle.ts';

export interface TeamPushRun {
  sessions: number;
  ms: number;
  /** CPU of this process (every thread) and of the server while it ran (null without /proc). */
  selfCpuMs: number;
  /** Of `selfCpuMs`, the main thread's (it writes the batches); the rest is the loader's worker (it prepares each session) and libuv's pool. */
  mainThreadCpuMs: number;
  serverCpuMs: number | null;
  /** The machine's 1-minute load average when it ended: on a shared machine, wall times swing with it. */
  loadAvg: number;
  /** Bytes sent: session.json and source-file parts. */
  bytes: number;
}

export interface TeamSearchRun {
  sessions: number;
  queries: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  slowest: string;
  /** The same without the phrase queries, and the phrase queries alone. */
  withoutPhrases: { p50Ms: number; p95Ms: number };
  phrases: { queries: number; p50Ms: number; p95Ms: number };
  /** The baseline, in the same run: the same queries for the page alone, without snippets. */
  bare: { p50Ms: number; p95Ms: number };
}

export interface TeamFigures {
  corpusMb: number;
  first: TeamPushRun;
  copy: CopyBaseline;
  repush: TeamPushRun;
  /** A few sessions grown by a turn each, pushed again: what was sent of them. */
  grown: { sessions: number; bytes: number; sourceBytes: number; storedBytes: number; ms: number; chunks: { sent: number; kept: number } };
  rest: TeamPushRun | null;
  search: TeamSearchRun[];
}

const MACHINE = 'bench-laptop';

async function createDatabase(cluster: PgCluster, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return cluster.url.replace(/\/[^/]*$/, `/${name}`);
}

const connect = (url: string) => connectTeam(resolveTeamTarget(undefined, { SESSION_VAULT_TEAM_URL: url }));

/** A push as `session-vault team push --yes` makes it: the bundles' worker loader, the ledger, the catalogue's listing. */
async function timedPush(
  services: Services,
  cluster: PgCluster,
  conn: TeamConnection,
  keys: string[],
  ledger: PushLedger,
  listings: Map<string, string>,
): Promise<{ run: TeamPushRun; report: PushReport }> {
  const loader = services.bundles.openLoader();
  const server0 = await cluster.cpuMs();
  const cpu0 = process.cpuUsage();
  const main0 = process.threadCpuUsage();
  const t0 = performance.now();
  try {
    const report = await pushSessions({ client: conn.client, machine: MACHINE, keys, loader, env: {}, ledger, listing: (k) => listings.get(k) });
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const main = process.threadCpuUsage(main0);
    const server1 = await cluster.cpuMs();
    const serverCpuMs = server0 === null || server1 === null ? null : server1 - server0;
    return {
      run: {
        sessions: keys.length,
        ms,
        selfCpuMs: (cpu.user + cpu.system) / 1000,
        mainThreadCpuMs: (main.user + main.system) / 1000,
        serverCpuMs,
        loadAvg: loadavg()[0] ?? 0,
        bytes: report.bytes,
      },
      report,
    };
  } finally {
    await loader.close();
  }
}

async function searchRun(conn: TeamConnection, corpus: Corpus, sessions: number, rounds = 5): Promise<TeamSearchRun> {
  const queries = teamQueries(corpus, MACHINE);
  // As the app asks (searchSessions): a page of 50, each hit with its snippet; and the page alone, as a baseline.
  const search = (q: string) => searchTeam(conn.client, q, { limit: 50, snippets: true });
  const bare = (q: string) => searchTeam(conn.client, q, { limit: 50 });
  for (const q of queries) await search(q); // warm the cache once
  const times: Array<{ ms: number; q: string }> = [];
  const bareTimes: Array<{ ms: number; q: string }> = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of queries) {
      for (const [run, into] of [
        [search, times],
        [bare, bareTimes],
      ] as const) {
        const t0 = performance.now();
        await run(q);
        into.push({ ms: performance.now() - t0, q });
      }
    }
  }
  bareTimes.sort((a, b) => a.ms - b.ms);
  times.sort((a, b) => a.ms - b.ms);
  const at = (list: typeof times, p: number) => list[Math.min(list.length - 1, Math.floor(p * list.length))]?.ms ?? 0;
  const slowest = times[times.length - 1];
  // Phrases are checked against chunks' word positions (a GIN index holds none): reported apart as well.
  const words = times.filter((t) => !t.q.includes('"'));
  const phrases = times.filter((t) => t.q.includes('"'));
  return {
    sessions,
    queries: queries.length,
    p50Ms: at(times, 0.5),
    p95Ms: at(times, 0.95),
    maxMs: slowest?.ms ?? 0,
    slowest: slowest?.q ?? '',
    withoutPhrases: { p50Ms: at(words, 0.5), p95Ms: at(words, 0.95) },
    phrases: { queries: queries.filter((q) => q.includes('"')).length, p50Ms: at(phrases, 0.5), p95Ms: at(phrases, 0.95) },
    bare: { p50Ms: at(bareTimes, 0.5), p95Ms: at(bareTimes, 0.95) },
  };
}

/**
 * Generates `total` sessions (10,000 by default, about 600 MB), pushes the first 1,000 as a member account and
 * copies the very rows that push stored into an empty store with COPY, pushes them again unchanged, grows ten of
 * them by a turn and pushes again, searches; then pushes the rest and searches again.
 */
export async function benchTeam(total = 10_000, firstCount = 1000): Promise<TeamFigures | string> {
  const bin = findPgBin();
  if (!bin) return 'no PostgreSQL server binaries (install postgresql, or set SESSION_VAULT_PG_BIN)';
  const base = await mkdtemp(join(tmpdir(), 'sv-bench-team-'));
  const cluster = await startCluster(bin);
  const services = benchServices({
    dataDir: join(base, 'data'),
    shell: 'cli',
    extraRoots: [join(base, 'root')],
    discoverDefaults: false,
    watch: false,
    env: {},
  });
  const conns: TeamConnection[] = [];
  try {
    const corpus = await generateCorpus(join(base, 'root'), Math.max(total, firstCount));
    await services.start();
    await services.whenScanned();
    await services.whenIndexTidied();
    const summaries = (await services.client.listSessions({ includeChildren: true })).sessions.filter((s) => !s.unreadable);
    const listings = new Map(summaries.map((s) => [s.key, JSON.stringify(s)]));
    const keys = summaries.map((s) => s.key).sort();
    // A push of nothing is no figure (a stale out/ build listed 0 sessions and printed 32x COPY's throughput).
    if (keys.length < firstCount)
      throw new Error(`the scan listed ${keys.length} of the ${firstCount.toLocaleString('en-US')} sessions generated; is out/ stale? (npm run build)`);
    const storeUrl = await createDatabase(cluster, 'team');
    const owner = await connect(storeUrl);
    conns.push(owner);
    const token = await createAccount(owner.client, 'bench', 'member');
    const memberUrl = new URL(storeUrl);
    memberUrl.username = 'bench';
    memberUrl.password = token;
    const member = await connect(memberUrl.href);
    conns.push(member);
    const ledger = await PushLedger.open(join(base, 'data'), storeUrl, MACHINE);
    const firstKeys = keys.slice(0, firstCount);
    await settle(1000, 120_000);
    const first = (await timedPush(services, cluster, member, firstKeys, ledger, listings)).run;

    const copyUrl = await createDatabase(cluster, 'copy_baseline');
    const copyOwner = await connect(copyUrl);
    conns.push(copyOwner);
    await copyOwner.client.query(`INSERT INTO session_vault.accounts (name, role) VALUES ('bench', 'member')`);
    await settle(1000, 120_000);
    const copy = await copyBaseline(`${bin}/psql`, storeUrl, copyUrl, MACHINE, base, () => cluster.cpuMs());

    await settle(1000, 120_000);
    const repush = (await timedPush(services, cluster, member, firstKeys, ledger, listings)).run;
    // Ten transcripts among those pushed, of ordinary size (a live session that grew by a turn).
    const pushedPaths = new Set(summaries.filter((s) => firstKeys.includes(s.key)).map((s) => s.primaryPath));
    const grownFiles = corpus.files
      .filter((f) => (f.format === 'claude-code' || f.format === 'codex') && pushedPaths.has(f.path) && f.bytes < 4 * 1024 * 1024)
      .slice(0, 10);
    const grown = await growAndPush(services, cluster, member, grownFiles, summaries, ledger);

    // Statistics as autovacuum keeps them in a store in use (the planner picks its plans by them).
    await owner.client.query('VACUUM ANALYZE');
    const search = [await searchRun(member, corpus, firstKeys.length)];
    let rest: TeamPushRun | null = null;
    if (keys.length > firstCount) {
      await settle(1000, 120_000);
      rest = (await timedPush(services, cluster, member, keys, ledger, listings)).run;
      await owner.client.query('VACUUM ANALYZE');
      search.push(await searchRun(member, corpus, keys.length));
    }
    return { corpusMb: Math.round(corpus.bytes / 1024 / 1024), first, copy, repush, grown, rest, search };
  } finally {
    for (const c of conns) await c.close();
    await services.close();
    await cluster.stop();
    await rm(base, { recursive: true, force: true });
  }
}

/** One more user turn at the end of a Claude Code or Codex transcript, in the file's own record shape. */
function turnLine(format: Corpus['files'][number]['format'], at: string): string {
  const text = 'one more turn: also cap the retry jitter at 250ms and log the attempt count';
  if (format === 'codex')
    return `${JSON.stringify({ timestamp: at, type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } })}\n`;
  return `${JSON.stringify({ type: 'user', uuid: randomUUID(), parentUuid: null, timestamp: at, isSidechain: false, message: { role: 'user', content: text } })}\n`;
}

/**
 * Appends a turn to each file and pushes those sessions again (the catalogue is not told: the ledger sees the files'
 * new size and time, as it would after a scan). What goes is the new session.json and the changed file parts.
 */
async function growAndPush(
  services: Services,
  cluster: PgCluster,
  conn: TeamConnection,
  files: Corpus['files'],
  summaries: SessionSummary[],
  ledger: PushLedger,
): Promise<TeamFigures['grown']> {
  const at = new Date().toISOString();
  for (const f of files) await appendFile(f.path, turnLine(f.format, at));
  const byPath = new Map(summaries.map((s) => [s.primaryPath, s]));
  const grown = files.flatMap((f) => byPath.get(f.path) ?? []);
  const listings = new Map(grown.map((s) => [s.key, JSON.stringify(s)]));
  const { run, report } = await timedPush(
    services,
    cluster,
    conn,
    grown.map((s) => s.key),
    ledger,
    listings,
  );
  return {
    sessions: report.pushed.length,
    bytes: run.bytes,
    sourceBytes: report.sourceBytes,
    storedBytes: grown.reduce((n, s) => n + s.size, 0),
    ms: run.ms,
    chunks: report.chunks,
  };
}

export function printTeam(f: TeamFigures | string): void {
  console.log('\nTeam store (PostgreSQL, a throwaway cluster on this machine)');
  if (typeof f === 'string') return void console.log(`  not run: ${f}`);
  const mb = (bytes: number) => bytes / 1024 / 1024;
  const rate = (bytes: number, ms: number) => `${(mb(bytes) / (ms / 1000)).toFixed(1)} MB/s`;
  console.log(`  corpus: ${f.corpusMb} MB of generated sessions`);
  console.log(
    `  push ${f.first.sessions} sessions (member account, scan + redact + sources): ${(f.first.ms / 1000).toFixed(1)} s, ${mb(f.first.bytes).toFixed(0)} MB sent, ${rate(f.first.bytes, f.first.ms)}`,
  );
  console.log(
    `  COPY of the same rows (psql \\copy, binary): ${(f.copy.ms / 1000).toFixed(1)} s, ${mb(f.copy.bytes).toFixed(0)} MB  (${Object.entries(f.copy.perTableMs)
      .map(([t, ms]) => `${t} ${(ms / 1000).toFixed(1)} s`)
      .join(', ')})`,
  );
  console.log(`    push throughput = ${(f.copy.ms / f.first.ms).toFixed(2)}x COPY's  (target >= 0.5x)`);
  console.log(
    `    machine load (1-minute average) at the end of the push ${f.first.loadAvg.toFixed(1)}, of the COPY ${f.copy.loadAvg.toFixed(1)}, on ${availableParallelism()} cores`,
  );
  if (f.first.serverCpuMs !== null && f.copy.serverCpuMs !== null) {
    // Wall time on a shared machine swings with its load; CPU time far less. Push: this process (every thread) + the server.
    const pushCpu = f.first.selfCpuMs + f.first.serverCpuMs;
    const copyCpu = f.copy.serverCpuMs + (f.copy.psqlCpuMs ?? 0);
    console.log(
      `    CPU: push ${(pushCpu / 1000).toFixed(1)} s (this process ${(f.first.selfCpuMs / 1000).toFixed(1)} s, server ${(f.first.serverCpuMs / 1000).toFixed(1)} s), COPY ${(copyCpu / 1000).toFixed(1)} s (server ${(f.copy.serverCpuMs / 1000).toFixed(1)} s, psql ${((f.copy.psqlCpuMs ?? 0) / 1000).toFixed(1)} s)`,
    );
    console.log(
      `      this process: main thread (writes the batches) ${(f.first.mainThreadCpuMs / 1000).toFixed(1)} s, the loader's worker (prepares each session) and libuv's pool ${((f.first.selfCpuMs - f.first.mainThreadCpuMs) / 1000).toFixed(1)} s`,
    );
    console.log(`    push used ${(pushCpu / copyCpu).toFixed(2)}x COPY's CPU time for the same rows`);
  }
  console.log(
    `  re-push, unchanged: ${(f.repush.ms / 1000).toFixed(2)} s, ${f.repush.bytes} bytes sent = ${((f.repush.ms / f.first.ms) * 100).toFixed(1)}% of the first push  (target < 5%)`,
  );
  console.log(
    `  ${f.grown.sessions} sessions grown by a turn, pushed again: ${(f.grown.ms / 1000).toFixed(2)} s, ${mb(f.grown.bytes).toFixed(2)} MB sent of ${mb(f.grown.storedBytes).toFixed(1)} MB on disk (session.json ${mb(f.grown.bytes - f.grown.sourceBytes).toFixed(2)} MB: ${f.grown.chunks.sent} chunks sent, ${f.grown.chunks.kept} kept; source-file parts ${mb(f.grown.sourceBytes).toFixed(2)} MB)`,
  );
  if (f.rest)
    console.log(
      `  push to ${f.rest.sessions} sessions (the rest): ${(f.rest.ms / 1000).toFixed(1)} s, ${mb(f.rest.bytes).toFixed(0)} MB, ${rate(f.rest.bytes, f.rest.ms)}`,
    );
  for (const s of f.search) {
    console.log(
      `  search at ${s.sessions} sessions, ${s.queries} queries x 5 (a page of 50 with snippets): p50 ${s.p50Ms.toFixed(1)} ms, p95 ${s.p95Ms.toFixed(1)} ms, max ${s.maxMs.toFixed(1)} ms (${JSON.stringify(s.slowest)})`,
    );
    console.log(
      `    baseline, the same pages without snippets: p50 ${s.bare.p50Ms.toFixed(1)} ms, p95 ${s.bare.p95Ms.toFixed(1)} ms (with snippets: ${(s.p95Ms / s.bare.p95Ms).toFixed(2)}x at p95)`,
    );
    console.log(
      `    without the ${s.phrases.queries} phrase queries: p50 ${s.withoutPhrases.p50Ms.toFixed(1)} ms, p95 ${s.withoutPhrases.p95Ms.toFixed(1)} ms; phrase search alone: p50 ${s.phrases.p50Ms.toFixed(1)} ms, p95 ${s.phrases.p95Ms.toFixed(1)} ms  (target p95 < 100 ms)`,
    );
  }
}
