// The first-paint bench's page side: `serve` started on a data dir and a root, headless Chromium, and the paint marks and arrival times read from each page load.
import { spawn, type ChildProcess } from 'node:child_process';
import { chromium, type Browser } from '@playwright/test';
import { DASHBOARD_CHARTS_DRAWN, DASHBOARD_PAINTED, LIST_PAINTED } from '../../shared/paint-marks.ts';
import { CLI } from './list-vs-ccusage.ts';

/** Per page load, from navigation start (ms). */
export interface PaintLoads {
  listMs: number[];
  /** The totals and the first charts drawn (DASHBOARD_PAINTED). */
  dashboardMs: number[];
  /** Every chart drawn (the lower ones after the first paint). */
  allChartsMs: number[];
  /** When the first usageDashboard answer and the chart chunk had arrived (resource timing's responseEnd). */
  figuresMs: number[];
  chunkMs: number[];
}

/** `serve` on a free port; resolves with the address it prints (token included). */
export function startServe(env: NodeJS.ProcessEnv, root: string): Promise<{ child: ChildProcess; url: string }> {
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

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** Waits until the server's start scan is over (its index progress idle), so the page loads do not race it. */
export async function waitForIdleScan(url: string, timeoutMs = 15 * 60_000): Promise<void> {
  const at = new URL(url);
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const res = await fetch(new URL('/api/getIndexProgress', at), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${at.searchParams.get('token')}` },
      body: '{}',
    });
    const body = (await res.json()) as { ok: boolean; value?: { phase: string } };
    if (body.value?.phase === 'idle') return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`the server's start scan was not over after ${timeoutMs / 1000} s`);
}

/** One page load first (not counted), then `runs` measured ones, each in a fresh context at 1440×900. */
export async function measurePageLoads(browser: Browser, url: string, runs: number): Promise<PaintLoads> {
  const loads: PaintLoads = { listMs: [], dashboardMs: [], allChartsMs: [], figuresMs: [], chunkMs: [] };
  for (let r = -1; r < runs; r++) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(url);
    const marks = await page.waitForFunction(
      (names: { list: string; dashboard: string; all: string }) => {
        const at = (name: string) => performance.getEntriesByName(name)[0]?.startTime;
        const l = at(names.list);
        const d = at(names.dashboard);
        const a = at(names.all);
        // The first answer of each: the page asks again when its event stream opens.
        const arrived = (part: string) =>
          (performance.getEntriesByType('resource') as unknown as Array<{ name: string; responseEnd: number }>).find((e) =>
            new URL(e.name).pathname.includes(part),
          )?.responseEnd;
        return l !== undefined && d !== undefined && a !== undefined
          ? { l, d, a, figures: arrived('/api/usageDashboard') ?? Number.NaN, chunk: arrived('/assets/UsageDashboard-') ?? Number.NaN }
          : null;
      },
      { list: LIST_PAINTED, dashboard: DASHBOARD_PAINTED, all: DASHBOARD_CHARTS_DRAWN },
      { timeout: 120_000 },
    );
    const m = (await marks.jsonValue()) as { l: number; d: number; a: number; figures: number; chunk: number };
    if (r >= 0) {
      loads.listMs.push(m.l);
      loads.dashboardMs.push(m.d);
      loads.allChartsMs.push(m.a);
      loads.figuresMs.push(m.figures);
      loads.chunkMs.push(m.chunk);
    }
    await context.close();
  }
  return loads;
}
