// Warm start as a user meets it: the built `session-vault serve` on an indexed corpus, timed from spawn to the list's first page.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { builtFile } from './built.ts';

export interface WarmFigures {
  firstPageMs: number;
  listed: number;
  /** Resident memory once the start-up rescan is over and the process has been idle for a second. */
  restRssMb: number;
}

const CLI = builtFile('main/cli.js');

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

export async function warmStart(dataDir: string, root: string): Promise<WarmFigures> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (\`npm run bench\` does).`);
  const home = await mkdtemp(join(tmpdir(), 'sv-bench-home-'));
  const t0 = performance.now();
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--root', root], {
    env: { ...process.env, SESSION_VAULT_HOME: dataDir, HOME: home },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const url = await new Promise<URL>((resolveUrl, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /running at (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
        if (match?.[1]) resolveUrl(new URL(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
    });
    const call = async <T>(method: string, input: unknown): Promise<T> => {
      const res = await fetch(new URL(`/api/${method}`, url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${url.searchParams.get('token')}` },
        body: JSON.stringify(input),
      });
      const body = (await res.json()) as { ok: boolean; value: T; error?: { message: string } };
      if (!body.ok) throw new Error(body.error?.message);
      return body.value;
    };
    const page = await call<{ sessions: unknown[]; total: number }>('listSessions', { limit: 100 });
    const firstPageMs = performance.now() - t0;
    // At rest: the start-up rescan (a stat of every file) is over, and the watcher is in place.
    while ((await call<{ phase: string }>('getIndexProgress', {})).phase !== 'idle') await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 1000));
    const restRssMb = await rssOf(child.pid ?? 0);
    return { firstPageMs, listed: page.total, restRssMb };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    await rm(home, { recursive: true, force: true });
  }
}

// Run alone: `node main/bench/search-warm.ts <dataDir> <root>` (after `npm run build`).
if (import.meta.main) {
  const [dataDir, root] = process.argv.slice(2);
  if (!dataDir || !root) throw new Error('usage: search-warm.ts <dataDir> <root>');
  process.stdout.write(`${JSON.stringify(await warmStart(resolve(dataDir), resolve(root)))}\n`);
}
