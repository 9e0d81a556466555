// Rescanning folders and reading pricing.json through the services: what the settings page's buttons do.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServices, type Services } from '../app/services.ts';
import { jidoSession } from '../test-support/session-files.ts';

let base: string;
let dataDir: string;
let services: Services | null;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-rescan-'));
  dataDir = join(base, 'data');
  services = null;
});
afterEach(async () => {
  await services?.close();
  await rm(base, { recursive: true, force: true });
});

/** Services that do not watch: a file written after the scan is seen only when the folders are scanned again. */
async function unwatched(root: string): Promise<Services> {
  services = createServices({ dataDir, shell: 'web', discoverDefaults: false, extraRoots: [root], watch: false });
  await services.start();
  await services.whenScanned();
  return services;
}

async function writeJido(root: string, id: string): Promise<void> {
  await mkdir(join(root, '.jido_code', 'sessions'), { recursive: true });
  await writeFile(join(root, '.jido_code', 'sessions', `${id}.json`), jidoSession(id, id));
}

describe('rescanRoots', () => {
  it('lists a session written while nothing watched, for every folder or the one named', async () => {
    const root = join(base, 'root');
    await writeJido(root, 'first');
    const s = await unwatched(root);
    const titles = async () => (await s.client.listSessions({})).sessions.map((x) => x.title).sort();
    expect(await titles()).toEqual(['first']);

    await writeJido(root, 'second');
    expect(await titles()).toEqual(['first']);
    const roots = await s.client.rescanRoots({});
    expect(await titles()).toEqual(['first', 'second']);
    expect(roots.find((r) => r.path === root)?.sessionCount).toBe(2);

    await writeJido(root, 'third');
    const id = roots.find((r) => r.path === root)!.id;
    await s.client.rescanRoots({ id });
    expect(await titles()).toEqual(['first', 'second', 'third']);
  });

  it('refuses a folder id that is not in the list, by name', async () => {
    const root = join(base, 'root');
    await writeJido(root, 'only');
    const s = await unwatched(root);
    expect(await s.dispatch('rescanRoots', { id: 'nope' })).toEqual({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'No folder with id "nope" is in the list.', field: 'id' },
    });
  });
});

describe('getPricingFile', () => {
  it('names the file, and lists its prices or says why it is not used', async () => {
    const root = join(base, 'root');
    await writeJido(root, 'only');
    const s = await unwatched(root);
    const path = join(dataDir, 'pricing.json');
    expect(await s.client.getPricingFile({})).toEqual({ path, exists: false, problem: null, entries: [] });

    await writeFile(path, JSON.stringify({ 'gpt-5': { input: 1, output: 8 }, 'acme-*': { input: 2, output: 2, cacheRead: 0.2 } }));
    expect(await s.client.getPricingFile({})).toEqual({
      path,
      exists: true,
      problem: null,
      entries: [
        { model: 'acme-*', input: 2, output: 2, cacheRead: 0.2, cacheWrite: 0 },
        { model: 'gpt-5', input: 1, output: 8, cacheRead: 0, cacheWrite: 0 },
      ],
    });

    await writeFile(path, '{"gpt-5": {"input": "cheap"}}');
    const broken = await s.client.getPricingFile({});
    expect(broken).toMatchObject({ exists: true, entries: [] });
    expect(broken.problem).toContain('gpt-5.input');
  });
});
