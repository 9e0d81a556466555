// Benchmark: the first paint of the list and of the usage dashboard in headless Chromium, `serve` started warm on an indexed realistic corpus; the dashboard's paint against the list's, in the same page load.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { DASHBOARD_PAINTED, LIST_PAINTED } from '../../shared/paint-marks.ts';
import { CLI } from './list-vs-ccusage.ts';
import { realisticCorpus } from './realistic-corpus/corpus.ts';
import { timedProcess } from './timed-process.ts';

/** Issue #24: the dashboard's first paint under 500 ms after the list's. */
export const DASHBOARD_AFTER_LIST_TARGET_MS = 500;

export interface FirstPaintFigures {
  sessions: number;
  files: number;
  corpusMb: number;
  /** Per page load, from navigation start (ms). */
  listMs: number[];
  dashboardMs: number[];
  load: [number, number];
}

/** `serve` on a free port; resolves with the address it prints (token included). */
function startServe(env: NodeJS.ProcessEnv, root: string): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'serve', '--no-open', '--port', '0', '--root', root], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`serve printed no address in 120 s: ${out}`)), 120_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /https?:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(out)?.[0];
      if (url) {
        clearTimeout(timer);
        resolve({ child, url });
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`serve ended (${code}): ${out}`)));
  });
}

export async function benchFirstPaint(o: {
  corpusMb: number;
  sessions?: number | undefined;
  runs: number;
  corpusDir?: string | undefined;
}): Promise<FirstPaintFigures> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (\`npm run bench\` does).`);
  const base = await mkdtemp(join(tmpdir(), 'sv-bench-paint-'));
  let serve: ChildProcess | null = null;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const corpus = await realisticCorpus(o.corpusDir ?? join(base, 'corpus'), { sizeMb: o.corpusMb, sessions: o.sessions });
    const home = join(base, 'home');
    await mkdir(home, { recursive: true });
    const env = { ...process.env, SESSION_VAULT_HOME: join(base, 'data'), HOME: home };
    // Indexed first (a user's second start): the cold scan is the search bench's business.
    const listed = await timedProcess(process.execPath, [CLI, 'list', '--json', '--no-defaults', '--root', corpus.root], env);
    const sessions = (JSON.parse(listed.stdout) as unknown[]).length;
    const started = await startServe(env, corpus.root);
    serve = started.child;
    const load0 = loadavg()[0] ?? 0;
    const listMs: number[] = [];
    const dashboardMs: number[] = [];
    // One page load first (its start's rescan finishes meanwhile), then the measured ones, each in a fresh context.
    for (let r = -1; r < o.runs; r++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.goto(started.url);
      const marks = await page.waitForFunction(
        (names: { list: string; dashboard: string }) => {
          const at = (name: string) => performance.getEntriesByName(name)[0]?.startTime;
          const l = at(names.list);
          const d = at(names.dashboard);
          return l !== undefined && d !== undefined ? { l, d } : null;
        },
        { list: LIST_PAINTED, dashboard: DASHBOARD_PAINTED },
        { timeout: 120_000 },
      );
      const { l, d } = (await marks.jsonValue()) as { l: number; d: number };
      if (r >= 0) {
        listMs.push(l);
        dashboardMs.push(d);
      }
      await context.close();
    }
    return { sessions, files: corpus.files.length, corpusMb: corpus.bytes / 1024 ** 2, listMs, dashboardMs, load: [load0, loadavg()[0] ?? 0] };
  } finally {
    await browser.close();
    serve?.kill();
    await rm(base, { recursive: true, force: true });
  }
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1] ?? Number.NaN;
const range = (v: number[]) => `[${Math.round(Math.min(...v))}–${Math.round(Math.max(...v))}]`;

export function printFirstPaint(f: FirstPaintFigures): void {
  const after = f.dashboardMs.map((d, i) => d - (f.listMs[i] ?? 0));
  console.log(
    `\nFirst paint in headless Chromium — serve warm on ${f.sessions.toLocaleString('en-US')} listed sessions (${f.files.toLocaleString('en-US')} files, ${Math.round(f.corpusMb)} MB), ${f.listMs.length} page loads, load ${f.load[0].toFixed(1)} → ${f.load[1].toFixed(1)}`,
  );
  console.log(`  list painted (from navigation start):      ${Math.round(median(f.listMs))} ms ${range(f.listMs)}`);
  console.log(`  dashboard painted (from navigation start): ${Math.round(median(f.dashboardMs))} ms ${range(f.dashboardMs)}`);
  console.log(
    `  dashboard after the list:                  ${Math.round(median(after))} ms ${range(after)} (target < ${DASHBOARD_AFTER_LIST_TARGET_MS} ms, issue #24 at 100,000 sessions)`,
  );
}
