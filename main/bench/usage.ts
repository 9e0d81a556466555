// Benchmark: `session-vault usage daily --json` over an indexed corpus vs ccusage `claude daily --offline --json` over its Claude Code files; then the dashboard's queries.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { realisticCorpus } from './realistic-corpus/corpus.ts';
import { benchDashboard, printDashboard, type DashboardFigures } from './usage-dashboard.ts';

const run = promisify(execFile);
const repo = join(import.meta.dirname, '..', '..');

export interface UsageFigures {
  sessions: number;
  claudeSessions: number;
  corpusMb: number;
  /** The first `usage daily` run: it builds the index. */
  coldMs: number;
  /** Each later whole-process run of `usage daily --json` (start, check the files are unchanged, add up, print). */
  oursMs: number[];
  ccusageMs: number[];
  /** The report's own time inside each of those processes (`tookMs`: the SQL over the index and the days). */
  reportMs: number[];
  /** Claude Code tokens per day, ours (with `--query source:claude-code`) against ccusage's: equal or not. */
  sameTokens: boolean;
  /** The dashboard's queries at DASHBOARD_SESSIONS indexed sessions (null: not run). */
  dashboard: DashboardFigures | null;
}

/** Issue #24 measures the dashboard at 100,000 indexed sessions (SV_BENCH_DASHBOARD_SESSIONS sets fewer for a quick look). */
const DASHBOARD_SESSIONS = Number(process.env.SV_BENCH_DASHBOARD_SESSIONS ?? 100_000);
/** The realistic corpus's size per session asked for (its sessions are scaled to fill it). */
const KB_PER_SESSION = 128;

/** The built CLI when `npm run bench` built one, else the sources. */
function cliEntry(): string {
  const built = join(repo, 'out', 'main', 'cli.js');
  return existsSync(built) && readFileSync(built, 'utf8').includes('usage daily') ? built : join(repo, 'main', 'cli', 'cli.ts');
}

async function timed(args: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; stdout: string }> {
  const t0 = performance.now();
  const { stdout } = await run(process.execPath, args, { env, maxBuffer: 256 << 20 });
  return { ms: performance.now() - t0, stdout };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

interface Day {
  date?: string;
  period?: string;
  inputTokens?: number;
  outputTokens?: number;
  input?: number;
  output?: number;
}

export interface UsageOptions {
  /** The corpus's size (its sessions' sizes scaled to fill it); KB_PER_SESSION a session by default. */
  corpusMb?: number | undefined;
  /** A folder that keeps the corpus for the next run (made there on first use); a temporary one by default. */
  corpusDir?: string | undefined;
  /** Run the dashboard's queries too (at DASHBOARD_SESSIONS synthetic sessions). */
  dashboard?: boolean;
}

export async function benchUsage(sessions: number, runs: number, options: UsageOptions = {}): Promise<UsageFigures> {
  const base = await mkdtemp(join(tmpdir(), 'sv-bench-usage-'));
  try {
    // main/bench/realistic-corpus: sessions written as the tools write them, in a real machine's proportions.
    const sizeMb = options.corpusMb ?? Math.max(64, Math.round((sessions * KB_PER_SESSION) / 1024));
    const corpus = await realisticCorpus(options.corpusDir ?? join(base, 'corpus'), { sizeMb, sessions });
    const root = corpus.root;
    const cli = cliEntry();
    const ours = (...extra: string[]) => [cli, 'usage', 'daily', '--json', '--timezone', 'UTC', '--no-defaults', '--root', root, ...extra];
    const oursEnv = { ...process.env, SESSION_VAULT_HOME: join(base, 'home') };
    const ccEnv = { PATH: process.env.PATH ?? '', HOME: base, CLAUDE_CONFIG_DIR: corpus.claudeDir, NO_COLOR: '1' };
    const ccusage = [join(repo, 'node_modules', 'ccusage', 'dist', 'cli.js'), 'claude', 'daily', '--offline', '--json', '--timezone', 'UTC'];
    const cold = await timed(ours(), oursEnv);
    const oursMs: number[] = [];
    const ccusageMs: number[] = [];
    const reportMs: number[] = [];
    let ccOut = '';
    for (let i = 0; i < runs; i++) {
      // Interleaved, so a busy moment of a shared machine falls on both.
      const mine = await timed(ours(), oursEnv);
      oursMs.push(mine.ms);
      reportMs.push((JSON.parse(mine.stdout) as { tookMs: number }).tookMs);
      const cc = await timed(ccusage, ccEnv);
      ccusageMs.push(cc.ms);
      ccOut = cc.stdout;
    }
    const claudeOnly = (JSON.parse((await timed(ours('--query', 'source:claude-code'), oursEnv)).stdout) as { rows: Day[] }).rows;
    const ccDays = (JSON.parse(ccOut) as { daily: Day[] }).daily;
    const key = (d: Day) => `${d.date ?? d.period} ${d.inputTokens ?? d.input} ${d.outputTokens ?? d.output}`;
    return {
      sessions,
      claudeSessions: corpus.files.filter((f) => f.format === 'claude-code').length,
      corpusMb: corpus.bytes / 1024 / 1024,
      dashboard: options.dashboard === false ? null : await benchDashboard(DASHBOARD_SESSIONS, Math.max(5, runs)),
      coldMs: cold.ms,
      oursMs,
      ccusageMs,
      reportMs,
      sameTokens: JSON.stringify(claudeOnly.map(key)) === JSON.stringify(ccDays.map(key)),
    };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

export function printUsage(f: UsageFigures): void {
  const ours = median(f.oursMs);
  const cc = median(f.ccusageMs);
  console.log(
    `\nUsage reports — ${f.sessions.toLocaleString('en-US')} sessions (${f.claudeSessions.toLocaleString('en-US')} Claude Code files), ${f.corpusMb.toFixed(0)} MB, realistic corpus (main/bench/realistic-corpus)`,
  );
  console.log(`  first usage daily (builds the index)         ${f.coldMs.toFixed(0)} ms`);
  console.log(`  usage daily --json, whole process (median)    ${ours.toFixed(0)} ms   [${f.oursMs.map((ms) => ms.toFixed(0)).join(', ')}] (every source)`);
  console.log(
    `    of which the report itself (SQL, days)      ${median(f.reportMs).toFixed(0)} ms; the rest: load, check nothing changed below the roots (the first run after the cold one starts the services and scans)`,
  );
  console.log(
    `  ccusage claude daily --offline --json        ${cc.toFixed(0)} ms   [${f.ccusageMs.map((ms) => ms.toFixed(0)).join(', ')}] (Claude Code files only)`,
  );
  console.log(`  ccusage / usage daily                        ${(cc / ours).toFixed(1)}x (issue #24 target: 10x at 100,000 sessions)`);
  console.log(`  Claude Code tokens per day equal ccusage's   ${f.sameTokens ? 'yes' : 'NO'}`);
  if (f.dashboard) printDashboard(f.dashboard);
}
