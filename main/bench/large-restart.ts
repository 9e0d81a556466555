// Benchmark: a 200 MB Claude Code transcript's first window after a restart, read through its page table vs read whole.
import { mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchServices } from './bench-services.ts';
import { timedProcess } from './timed-process.ts';
import { writeClaudeTranscript } from './generate-large.ts';
import { ReadPool } from '../workers/read-pool.ts';
import { pagingIn } from '../library/paged-sessions.ts';

export interface RestartRun {
  /** getSession, from the call to the answer, in the restarted process; and the CPU time it took (every thread). */
  openMs: number;
  openCpuMs: number;
  /** From the process's start to the answer (module loading, services' start, the call). */
  sinceSpawnMs: number;
  /** A window from the middle, asked for next (the worker running). */
  scrollMs: number;
  /** Resident memory with the session open, and the process's peak. */
  rssMb: number;
  peakRssMb: number;
}

export interface RestartFigures {
  megabytes: number;
  messagesTotal: number;
  /** The first run: the full read answered, then the table written (ms after the answer). */
  tableWrittenMs: number;
  tableKb: number;
  /** Opened as soon as the services have started, beside the start's scan. */
  paged: RestartRun[];
  whole: RestartRun[];
  /** Opened once the start's scan is over. */
  pagedSettled: RestartRun[];
  wholeSettled: RestartRun[];
  /** The session worker's part, in this process: a fresh worker's start (its first answer, on a small file), then the first window through the table. */
  workerStartMs: number[];
  tableWindowMs: number[];
}

const SESSION = 'bbbbbbbb-0000-4000-8000-000000000201';
const KEY = `claude-code:${SESSION}`;

async function restartedOpen(dataDir: string, root: string, settled: boolean): Promise<RestartRun & { messagesTotal: number }> {
  const args = [join(import.meta.dirname, 'restart-open.ts'), dataDir, root, KEY, ...(settled ? ['settled'] : [])];
  const run = await timedProcess(process.execPath, args, process.env);
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  const figures = JSON.parse(line) as { openMs: number; openCpuMs: number; sinceSpawnMs: number; scrollMs: number; rssMb: number; messagesTotal: number };
  return { ...figures, peakRssMb: run.peakRssMb };
}

async function waitForTable(pages: string, timeoutMs: number): Promise<string> {
  const t0 = performance.now();
  for (;;) {
    const names = await readdir(pages).catch(() => [] as string[]);
    const table = names.find((n) => n.endsWith('.json'));
    if (table) return table;
    if (performance.now() - t0 > timeoutMs) throw new Error(`No page table in ${pages} after ${timeoutMs} ms.`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * One 200 MB transcript (`megabytes` to change it) opened once, so its table is written; then `runs` restarts that open
 * it through the table, each beside a restart that reads it whole (its table moved aside), alternating which goes first.
 * The OS cache is warm for both (the file was just written and read; nothing here can drop it).
 */
export async function benchLargeRestart(runs = 3, megabytes = 200): Promise<RestartFigures> {
  const base = await mkdtemp(join(tmpdir(), 'sv-bench-restart-'));
  const root = join(base, 'root');
  const dataDir = join(base, 'data');
  const pages = join(dataDir, 'pages');
  try {
    await writeClaudeTranscript(join(root, 'claude/projects/-home-dev-src-big', `${SESSION}.jsonl`), megabytes * 1024 * 1024, SESSION);
    const services = benchServices({ dataDir, shell: 'web', extraRoots: [root], discoverDefaults: false });
    let tableWrittenMs: number;
    let messagesTotal: number;
    let tableKb: number;
    try {
      await services.start();
      await services.whenScanned();
      const opened = await services.client.getSession({ key: KEY });
      const answered = performance.now();
      messagesTotal = opened.messagesTotal;
      const table = await waitForTable(pages, 120_000);
      tableWrittenMs = Math.round(performance.now() - answered);
      tableKb = Math.round((await stat(join(pages, table))).size / 1024);
    } finally {
      await services.close();
    }
    const runsOf = { paged: [] as RestartRun[], whole: [] as RestartRun[], pagedSettled: [] as RestartRun[], wholeSettled: [] as RestartRun[] };
    const aside = `${pages}.aside`;
    for (let r = 0; r < runs; r++) {
      const order = r % 2 === 0 ? (['paged', 'whole'] as const) : (['whole', 'paged'] as const);
      for (const settled of [false, true]) {
        for (const mode of order) {
          if (mode === 'whole') await rename(pages, aside);
          try {
            const run = await restartedOpen(dataDir, root, settled);
            if (run.messagesTotal !== messagesTotal) throw new Error(`${mode}: ${run.messagesTotal} messages, the first read had ${messagesTotal}.`);
            runsOf[settled ? (`${mode}Settled` as const) : mode].push(run);
          } finally {
            if (mode === 'whole') {
              await rm(pages, { recursive: true, force: true });
              await rename(aside, pages);
            }
          }
        }
      }
    }
    // What the first window costs in the session worker: the worker's start, then the pages read and parsed.
    const small = join(root, 'claude/projects/-home-dev-src-small', 'bbbbbbbb-0000-4000-8000-000000000202.jsonl');
    await writeClaudeTranscript(small, 4096, 'bbbbbbbb-0000-4000-8000-000000000202');
    const workerStartMs: number[] = [];
    const tableWindowMs: number[] = [];
    for (let r = 0; r < runs; r++) {
      const pool = new ReadPool(1);
      try {
        let t0 = performance.now();
        await pool.window(small, 0, 1000);
        workerStartMs.push(performance.now() - t0);
        t0 = performance.now();
        const window = await pool.window(join(root, 'claude/projects/-home-dev-src-big', `${SESSION}.jsonl`), 0, 1000, 'interactive', pagingIn(dataDir));
        tableWindowMs.push(performance.now() - t0);
        if (!window.ok || window.messagesTotal !== messagesTotal) throw new Error('The window through the table did not read back.');
      } finally {
        await pool.close();
      }
    }
    return { megabytes, messagesTotal, tableWrittenMs, tableKb, ...runsOf, workerStartMs, tableWindowMs };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

const range = (values: number[], unit: string) => {
  const lo = Math.round(Math.min(...values));
  const hi = Math.round(Math.max(...values));
  return lo === hi ? `${lo} ${unit}` : `${lo}-${hi} ${unit}`;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

export function printLargeRestart(f: RestartFigures): void {
  console.log(
    `\nBig session after a restart (target: first window < 500 ms; ${f.megabytes} MB Claude Code transcript, ${f.messagesTotal} messages, warm OS cache, ${f.paged.length} runs each)`,
  );
  console.log(`page table: written ${f.tableWrittenMs} ms after the first (whole) read answered, ${f.tableKb} KB`);
  console.log('restarted process (opened ...)  first window    its CPU   spawn->window   next window     RSS open    peak RSS');
  const rows = [
    ['at start: read whole (before)', f.whole],
    ['at start: page table', f.paged],
    ['settled: read whole (before)', f.wholeSettled],
    ['settled: page table', f.pagedSettled],
  ] as const;
  for (const [name, runs] of rows) {
    console.log(
      `${name.padEnd(30)} ${range(
        runs.map((r) => r.openMs),
        'ms',
      ).padStart(12)}  ${range(
        runs.map((r) => r.openCpuMs),
        'ms',
      ).padStart(9)}  ${range(
        runs.map((r) => r.sinceSpawnMs),
        'ms',
      ).padStart(14)}  ${range(
        runs.map((r) => r.scrollMs),
        'ms',
      ).padStart(12)}  ${range(
        runs.map((r) => r.rssMb),
        'MB',
      ).padStart(11)}  ${range(
        runs.map((r) => r.peakRssMb),
        'MB',
      ).padStart(10)}`,
    );
  }
  console.log(
    `of which in the session worker: its start ${range(f.workerStartMs, 'ms')}, then the first window through the table ${range(f.tableWindowMs, 'ms')}`,
  );
  const ratio = (whole: RestartRun[], paged: RestartRun[]) => (median(whole.map((r) => r.openMs)) / median(paged.map((r) => r.openMs))).toFixed(1);
  console.log(
    `first window through the table: ${ratio(f.whole, f.paged)}x faster at start, ${ratio(f.wholeSettled, f.pagedSettled)}x settled (medians); ` +
      `RSS open: ${Math.round(median(f.wholeSettled.map((r) => r.rssMb)) - median(f.pagedSettled.map((r) => r.rssMb)))} MB less`,
  );
}
