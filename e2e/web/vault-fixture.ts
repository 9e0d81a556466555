// Playwright fixture: a real `session-vault serve` on a temporary seeded root and data dir, per test.
import { test as base, expect, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { jidoSession, vizierSession } from '../../main/test-support/session-files.ts';
import { COMPARE_FIXTURES } from '../../main/compare/fixture-paths.ts';

export interface Vault {
  url: string;
  root: string;
  dataDir: string;
  jidoDir: string;
}

const CLI = resolve('out/main/cli.js');

async function seed(root: string, withSessions: boolean): Promise<string> {
  const jidoDir = join(root, '.jido_code', 'sessions');
  await mkdir(jidoDir, { recursive: true });
  if (!withSessions) return jidoDir;
  await writeFile(join(jidoDir, 'j-1.json'), jidoSession('j-1', 'nightly-etl'));
  await writeFile(join(jidoDir, 'j-broken.json'), '{"version":1,"id":"j-broken","name":"cut');
  const vizier = join(root, 'orbit', '.vizier', 'sessions', 'v-1');
  await mkdir(vizier, { recursive: true });
  await writeFile(join(vizier, 'session.json'), vizierSession('v-1'));
  return jidoDir;
}

function waitForUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolveUrl, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`serve printed no URL in 15 s.\nstdout: ${out}\nstderr: ${err}`)), 15_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /running at (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
}

/** `prepare` writes more files into the seeded root before the server starts. */
export async function startVault(
  withSessions: boolean,
  use: (v: Vault) => Promise<void>,
  fixedRoot?: string,
  prepare?: (v: { root: string; jidoDir: string }) => Promise<void>,
) {
  const base = await mkdtemp(join(tmpdir(), 'sv-e2e-'));
  const root = fixedRoot ?? join(base, 'root');
  const dataDir = join(base, 'data');
  const jidoDir = fixedRoot ? '' : await seed(root, withSessions);
  await prepare?.({ root, jidoDir });
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--root', root], {
    env: { ...process.env, SESSION_VAULT_HOME: dataDir, HOME: join(base, 'home') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const url = await waitForUrl(child);
    await use({ url, root, dataDir, jidoDir });
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await rm(base, { recursive: true, force: true });
  }
}

/** The repository's copy of the sample corpus (samples/README.md says where it comes from). */
export const samplesRoot = resolve('samples');

export const test = base.extend<{ vault: Vault; emptyVault: Vault; samplesVault: Vault; compareVault: Vault }>({
  // Playwright reads a fixture's dependencies from its first parameter's pattern; these have none.
  // eslint-disable-next-line no-empty-pattern
  vault: async ({}, use) => startVault(true, use),
  // eslint-disable-next-line no-empty-pattern
  emptyVault: async ({}, use) => startVault(false, use),
  // eslint-disable-next-line no-empty-pattern
  samplesVault: async ({}, use) => startVault(false, use, samplesRoot),
  // One task done in Claude Code and in Codex (main/compare/fixtures), for the comparison view.
  // eslint-disable-next-line no-empty-pattern
  compareVault: async ({}, use) => startVault(false, use, COMPARE_FIXTURES),
});

/** Calls the API of a running vault from the test process (the token is in its URL). */
export async function callApi<T>(vault: Vault, method: string, input: unknown): Promise<T> {
  const url = new URL(vault.url);
  const res = await fetch(new URL(`/api/${method}`, url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${url.searchParams.get('token')}` },
    body: JSON.stringify(input),
  });
  const body = (await res.json()) as { ok: boolean; value: T; error?: { message: string } };
  if (!body.ok) throw new Error(body.error?.message);
  return body.value;
}

/** Types into the search box and waits until the index has answered that text, so rows no longer move under a click. */
export async function searchFor(page: Page, text: string): Promise<void> {
  await page.getByTestId('filter').fill(text);
  await expect(page.getByTestId('session-list')).toHaveAttribute('aria-busy', 'false');
}

export { expect, jidoSession };
