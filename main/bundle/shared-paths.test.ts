// Issue #20: a re-shared kept or imported copy never names the exporter's data folder (entries, manifest, session.json, Markdown, HTML), and imports and round-trips with its original paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BundleExport } from '../../shared/bundle-api.ts';
import type { Session } from '../../shared/session.ts';
import { createServices, type Services } from '../app/services.ts';
import { copyAllFixtures } from '../test-support/source-fixtures.ts';
import type { Manifest } from './manifest.ts';
import { sharedText } from './shared-paths.ts';
import { unzipAll } from './test-zip.ts';

let base: string;
let root: string;
const opened: Services[] = [];

async function servicesOver(dataDir: string, roots: string[]): Promise<Services> {
  const s = createServices({ dataDir, shell: 'cli', extraRoots: roots, discoverDefaults: false, watch: false, env: {} });
  opened.push(s);
  await s.start();
  await s.whenScanned();
  return s;
}

async function call<T>(s: Services, method: string, input: unknown): Promise<T> {
  const result = await s.dispatch(method, input);
  if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code });
  return result.value as T;
}

async function topKeys(s: Services): Promise<string[]> {
  const { sessions } = await s.client.listSessions({ includeChildren: false });
  return sessions
    .filter((x) => !x.unreadable)
    .map((x) => x.key)
    .sort();
}

let exportCount = 0;
async function exportAll(s: Services, keys: string[], format: 'zip' | 'md' | 'html' = 'zip'): Promise<Map<string, Buffer>> {
  const done = await call<BundleExport>(s, 'exportBundle', { exportId: `shared-paths-${++exportCount}`, keys, format, redact: false, includeChildren: false });
  if (format !== 'zip') return new Map([[done.fileName, await readFile(done.path)]]);
  return unzipAll(done.path);
}

/** The bundle's own session.json (a Vizier source file is named session.json too, below `source/`). */
function isSessionJson(name: string): boolean {
  return /^sessions\/[^/]+\/session\.json$/.test(name);
}

function manifestOf(entries: Map<string, Buffer>): Manifest {
  return JSON.parse((entries.get('manifest.json') as Buffer).toString('utf8')) as Manifest;
}

/** No entry name, and no byte of session.json, the manifest or a document, names the data folder (sources are the user's own bytes). */
function expectNoTrace(entries: Map<string, Buffer>, dataDir: string): void {
  for (const [name, bytes] of entries) {
    expect(name.includes(dataDir.slice(1)), name).toBe(false);
    if (isSessionJson(name) || name === 'manifest.json' || !name.includes('/'))
      expect(bytes.toString('utf8').includes(dataDir), `${name} names the data folder`).toBe(false);
  }
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-shared-paths-'));
  root = join(base, 'root');
  await copyAllFixtures(root);
});
afterAll(async () => {
  for (const s of opened) await s.close();
  await rm(base, { recursive: true, force: true });
});

describe('sharedText', () => {
  it("names a kept copy's file by its original path, a Windows one with its drive, and any other vault path by a placeholder", () => {
    const vault = '/home/alice/.config/Session Vault/vault';
    expect(sharedText(`${vault}/sessions/claude-code_x-0123456789/source/home/alice/p/a.jsonl`, vault, '/')).toBe('/home/alice/p/a.jsonl');
    expect(sharedText(`read ${vault}/sessions/k-0123456789/source/srv/a b.txt: gone`, vault, '/')).toBe('read /srv/a b.txt: gone');
    expect(sharedText(`${vault}/forks/.vizier/sessions/f.json`, vault, '/')).toBe('/session-vault/forks/.vizier/sessions/f.json');
    expect(sharedText(`${vault}-old/x`, vault, '/')).toBe(`${vault}-old/x`);
    const win = 'C:\\Users\\Alice\\AppData\\Roaming\\Session Vault\\vault';
    expect(sharedText(`${win}\\sessions\\k-0123456789\\source\\D\\work\\a.jsonl`, win, '\\')).toBe('D:\\work\\a.jsonl');
  });
});

describe('re-sharing a kept copy (issue #20)', () => {
  it(
    'names no file by the data folder in the bundle, Markdown or HTML; the bundle imports, and exporting the import again gives the same original paths',
    { timeout: 120_000 },
    async () => {
      const dataDir = join(base, 'Alice Private Data Folder');
      const live = await servicesOver(dataDir, [root]);
      const keys = await topKeys(live);
      expect(keys.length).toBeGreaterThan(5);
      for (const key of keys) await call(live, 'keepSession', { key });
      const liveManifest = manifestOf(await exportAll(live, keys));
      await live.close();
      // The live files are gone: what is listed (and shared) now is the vault's copy.
      await rm(root, { recursive: true, force: true });
      const vaultOnly = await servicesOver(dataDir, []);
      expect(await topKeys(vaultOnly)).toEqual(keys);

      const entries = await exportAll(vaultOnly, keys);
      const manifest = manifestOf(entries);
      expectNoTrace(entries, dataDir);
      for (const f of manifest.files) expect(f.originalPath ?? '', f.path).not.toContain(dataDir);
      // The same names as the live sessions' own bundle: their original paths.
      const sources = (m: Manifest) =>
        m.files
          .filter((f) => f.kind === 'source')
          .map((f) => `${f.path} <- ${f.originalPath}`)
          .sort();
      expect(sources(manifest)).toEqual(sources(liveManifest));
      for (const [name, bytes] of entries) {
        if (!isSessionJson(name)) continue;
        const session = JSON.parse(bytes.toString('utf8')) as Session;
        for (const f of session.sourceFiles) expect(f.path.startsWith(root), `${name}: ${f.path}`).toBe(true);
      }
      for (const format of ['md', 'html'] as const) {
        for (const key of keys) {
          for (const [name, bytes] of await exportAll(vaultOnly, [key], format)) expect(bytes.toString('utf8').includes(dataDir), `${key} ${name}`).toBe(false);
        }
      }

      // Imported into a fresh vault and shared again: the same original paths, entries and session.json paths.
      const first = await call<BundleExport>(vaultOnly, 'exportBundle', { exportId: 'shared-paths-rt', keys, redact: false, includeChildren: false });
      const bobData = join(base, 'Bob Data Folder');
      await mkdir(bobData, { recursive: true });
      const bob = await servicesOver(bobData, []);
      const bytes = await readFile(first.path);
      const { uploadId } = await call<{ uploadId: string }>(bob, 'beginUpload', { size: bytes.length });
      await call(bob, 'uploadChunk', { uploadId, offset: 0, data: bytes.toString('base64') });
      const imported = await call<{ imported: Array<{ key: string }> }>(bob, 'importBundle', { uploadId });
      expect(imported.imported.map((s) => s.key).sort()).toEqual(keys);
      await bob.close();
      const bobAgain = await servicesOver(bobData, []);
      const again = await exportAll(bobAgain, keys);
      expectNoTrace(again, bobData);
      expect(sources(manifestOf(again))).toEqual(sources(manifest));
      const pathsIn = (m: Map<string, Buffer>) =>
        [...m]
          .filter(([n]) => isSessionJson(n))
          .map(([n, b]) => `${n}: ${(JSON.parse(b.toString('utf8')) as Session).sourceFiles.map((f) => f.path).join(', ')}`)
          .sort();
      expect(pathsIn(again)).toEqual(pathsIn(entries));
    },
  );
});

describe('a file the roots check refuses (issue #20)', () => {
  it('is named in the review, but not in the shipped session.json', { timeout: 60_000 }, async () => {
    const repo = join(base, 'repo');
    const dir = join(repo, '.vizier', 'sessions', 's-9');
    await mkdir(dir, { recursive: true });
    await writeFile(join(repo, 'notes.md'), "the user's own notes\n");
    await writeFile(
      join(dir, 'session.json'),
      JSON.stringify({ id: 's-9', repo: { root: repo }, chat: [{ role: 'user', content: 'hi' }], artifacts: ['notes.md'] }),
    );
    const s = await servicesOver(join(base, 'data-refused'), [join(repo, '.vizier')]);
    const key = 'vizier:s-9';
    const outside = join(repo, 'notes.md');
    const shared = await call<BundleExport>(s, 'exportBundle', { exportId: 'refused-1', keys: [key], redact: true });
    expect((shared.refused ?? []).map((r) => r.path)).toEqual([outside]);
    const entries = await unzipAll(shared.path);
    const json = [...entries].find(([n]) => isSessionJson(n))?.[1].toString('utf8') ?? '';
    expect(json).toContain('"sourceFiles"');
    expect(json).not.toContain(outside);
  });
});
