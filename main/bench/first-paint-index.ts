// Benchmark: the first paint at 100,000 sessions: `serve` on an index of the dashboard bench's synthetic sessions, each indexed path given a placeholder file of its indexed size and time, so the start's scan keeps every row.
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, open, rm, utimes } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { FirstPaintFigures } from './first-paint.ts';
import { launchBrowser, measurePageLoads, startServe, waitForIdleScan } from './first-paint-page.ts';
import { CLI } from './list-vs-ccusage.ts';
import { buildDashboardIndex } from './usage-dashboard.ts';

/** Where the dashboard bench's generator says its sessions' files are (no such folder exists). */
const GENERATED_PREFIX = '/bench/';

/** An index at `file`: a copy of a kept one (SV_BENCH_DASHBOARD_INDEX, never written to) or built by the dashboard bench's generator. */
async function syntheticIndex(file: string, sessions: number, kept: string | undefined): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  if (kept && existsSync(kept)) {
    await copyFile(kept, file);
    if (existsSync(`${kept}-wal`)) await copyFile(`${kept}-wal`, `${file}-wal`);
    return;
  }
  const { index } = await buildDashboardIndex(file, sessions);
  index.close();
}

/** Moves the index's generated paths below `root` and writes each a placeholder of the size and time the index holds. */
async function placeholders(file: string, root: string): Promise<number> {
  const db = new DatabaseSync(file);
  let rows: Array<{ path: string; size: number; mtime_ms: number }>;
  try {
    const moved = db
      .prepare('UPDATE files SET path = ? || substr(path, ?) WHERE substr(path, 1, ?) = ?')
      .run(root + '/', GENERATED_PREFIX.length + 1, GENERATED_PREFIX.length, GENERATED_PREFIX);
    if (!moved.changes) throw new Error(`the index has no path under ${GENERATED_PREFIX}: not one the dashboard bench's generator made`);
    rows = db.prepare('SELECT path, size, mtime_ms FROM files').all() as typeof rows;
  } finally {
    db.close();
  }
  for (const dir of new Set(rows.map((r) => dirname(r.path)))) await mkdir(dir, { recursive: true });
  const filler = Buffer.alloc(Math.max(0, ...rows.map((r) => r.size)), 0x20);
  for (let i = 0; i < rows.length; i += 256) {
    await Promise.all(
      rows.slice(i, i + 256).map(async (r) => {
        const handle = await open(r.path, 'w');
        try {
          await handle.write(filler, 0, r.size);
        } finally {
          await handle.close();
        }
        await utimes(r.path, r.mtime_ms / 1000, r.mtime_ms / 1000);
      }),
    );
  }
  return rows.length;
}

/** How many sessions the server lists (its list's total). */
async function listedSessions(url: string): Promise<number> {
  const at = new URL(url);
  const res = await fetch(new URL('/api/listSessions', at), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${at.searchParams.get('token')}` },
    body: '{}',
  });
  const body = (await res.json()) as { value?: { total?: number } };
  return body.value?.total ?? Number.NaN;
}

export async function benchFirstPaintIndexed(o: { sessions: number; runs: number; keptIndex?: string | undefined }): Promise<FirstPaintFigures> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (\`npm run bench\` does).`);
  const base = await mkdtemp(join(tmpdir(), 'sv-bench-paint-index-'));
  let serve: ChildProcess | null = null;
  const browser = await launchBrowser();
  try {
    const dataDir = join(base, 'data');
    const root = join(base, 'root');
    await syntheticIndex(join(dataDir, 'index.sqlite'), o.sessions, o.keptIndex);
    const files = await placeholders(join(dataDir, 'index.sqlite'), root);
    const home = join(base, 'home');
    await mkdir(home, { recursive: true });
    const started = await startServe({ ...process.env, SESSION_VAULT_HOME: dataDir, HOME: home }, root);
    serve = started.child;
    // The start's scan stats every placeholder (minutes at this size): measured after it, as a user's second look.
    await waitForIdleScan(started.url);
    const sessions = await listedSessions(started.url);
    const load0 = loadavg()[0] ?? 0;
    const loads = await measurePageLoads(browser, started.url, o.runs);
    return {
      sessions,
      scope: `(${files.toLocaleString('en-US')} index rows with sub-agents, the dashboard bench's synthetic sessions)`,
      ...loads,
      load: [load0, loadavg()[0] ?? 0],
    };
  } finally {
    await browser.close();
    serve?.kill();
    await rm(base, { recursive: true, force: true });
  }
}
