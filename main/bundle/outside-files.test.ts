// Issue #20.1 end to end: a session whose own content names files outside every root never gets them exported, kept or deleted.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BundleExport, BundleImport, BundleScan } from '../../shared/bundle-api.ts';
import type { VaultStatus } from '../../shared/vault-api.ts';
import { createServices, type Services } from '../app/services.ts';
import { readDocument } from '../sources/coerce.ts';
import { parseVizierDocument } from '../sources/vizier/vizier.ts';
import { exportBundle } from './export-bundle.ts';
import { unzipAll } from './test-zip.ts';

const MARKER = 'PRIVATE-MARKER-7f3a9c';

let base: string;
/** The victim's only added folder. */
let root: string;
/** A private file of the victim's, outside every folder they added and outside the data folder. */
let secret: string;
let services: Services;

async function call<T>(method: string, input: unknown): Promise<T> {
  const result = await services.dispatch(method, input);
  if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code });
  return result.value as T;
}

/** A Vizier session.json that claims the whole disk as its repository and names `artifacts` as its own. */
function hostileSession(id: string, artifacts: string[]): string {
  return JSON.stringify({
    id,
    repo: { root: '/' },
    chat: [
      { role: 'user', content: 'Please review this run' },
      { role: 'assistant', content: 'Looks fine.' },
    ],
    artifacts,
    outcome: { status: 'accepted', summary: 'ok' },
  });
}

/**
 * The attacker's bundle: built with the app's own exporter from the session parsed as it is (no artifact looked
 * up on the attacker's machine), so it passes every import check.
 */
async function hostileBundle(): Promise<string> {
  const dir = join(base, 'attacker', 'repo', '.vizier', 'sessions', 'evil-1');
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'session.json');
  await writeFile(file, hostileSession('evil-1', [secret]));
  const { value, ctx } = await readDocument(file);
  const session = parseVizierDocument(value, ctx);
  const zip = join(base, 'attacker', 'evil.zip');
  await exportBundle([session.key], async () => session, zip, { redact: false });
  return zip;
}

/** Imports a bundle through the contract, as the Share dialog's drop does. */
async function importThroughContract(zip: string): Promise<BundleImport> {
  const bytes = await readFile(zip);
  const { uploadId } = await call<{ uploadId: string }>('beginUpload', { size: bytes.length });
  await call('uploadChunk', { uploadId, offset: 0, data: bytes.toString('base64') });
  return call<BundleImport>('importBundle', { uploadId });
}

async function expectNoSecretIn(zip: string): Promise<void> {
  const entries = await unzipAll(zip);
  for (const [name, data] of entries) {
    expect(name.endsWith('secret.txt'), name).toBe(false);
    expect(data.toString('latin1').includes(MARKER), `the private file's bytes in ${name}`).toBe(false);
  }
}

async function filesBelow(dir: string): Promise<string[]> {
  const names = await readdir(dir, { recursive: true, withFileTypes: true });
  return names.filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name));
}

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-outside-'));
  root = join(base, 'root');
  await mkdir(join(base, 'private'), { recursive: true });
  secret = join(base, 'private', 'secret.txt');
  await writeFile(secret, `${MARKER} the victim's own private file\n`);
  await mkdir(root, { recursive: true });
});
afterEach(async () => {
  await services?.close();
  await rm(base, { recursive: true, force: true });
});

async function startVictim(): Promise<void> {
  services = createServices({ dataDir: join(base, 'data'), shell: 'web', extraRoots: [root], discoverDefaults: false, watch: false, env: {} });
  await services.start();
  await services.whenScanned();
}

describe('files a session names outside every root (issue #20.1)', () => {
  it('a bundle that plants a repo.root "/" session cannot make the re-share ship, or the delete touch, the victim\'s private file', async () => {
    const zip = await hostileBundle();
    await startVictim();
    const imported = await importThroughContract(zip);
    expect(imported.imported.map((s) => s.key)).toEqual(['vizier:evil-1']);
    const key = 'vizier:evil-1';

    // The session's files are only what the reader found in its own place: the kept session.json.
    const opened = await services.client.getSession({ key, messageLimit: 10 });
    expect(opened.sourceFiles.map((f) => f.path)).not.toContain(secret);

    // The review names the file as refused; the re-share leaves it out.
    const review = await call<BundleScan>('scanBundle', { keys: [key] });
    expect(review.refused).toEqual([expect.objectContaining({ session: key, path: secret })]);
    expect(review.refused?.[0]?.reason).toMatch(/outside/);
    const shared = await call<BundleExport>('exportBundle', { exportId: 'reshare-0001', keys: [key], redact: true });
    expect((shared.refused ?? []).map((r) => r.path)).toEqual([secret]);
    await expectNoSecretIn(shared.path);

    // A delete that lists the file is refused before anything happens: the kept copy stays, the file stays.
    const before = await call<VaultStatus>('getVaultStatus', { key });
    expect(before.keptPath).not.toBeNull();
    const refused = await services.dispatch('deleteSession', { key, confirmSourceFiles: [secret] });
    expect(refused.ok).toBe(false);
    expect(existsSync(secret)).toBe(true);
    expect((await call<VaultStatus>('getVaultStatus', { key })).keptPath).toBe(before.keptPath);
    expect(existsSync(before.keptPath as string)).toBe(true);
    expect(await call<unknown[]>('listTrash', {})).toEqual([]);
  });

  it('a live session in an added folder (a cloned repo) that names the outside file is kept without it, and its delete is refused with no side effect', async () => {
    const dir = join(root, 'cloned', '.vizier', 'sessions', 'evil-2');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'session.json'), hostileSession('evil-2', [secret]));
    await startVictim();
    const key = 'vizier:evil-2';

    const kept = await call<VaultStatus>('keepSession', { key });
    expect(kept.keptPath).not.toBeNull();
    const copied = await filesBelow(kept.keptPath as string);
    for (const file of copied) expect((await readFile(file)).toString('latin1').includes(MARKER), file).toBe(false);
    const meta = JSON.parse(await readFile(join(kept.keptPath as string, 'meta.json'), 'utf8')) as { sourcePaths: string[] };
    expect(meta.sourcePaths).toEqual([join(dir, 'session.json')]);

    const shared = await call<BundleExport>('exportBundle', { exportId: 'reshare-0002', keys: [key], redact: false });
    await expectNoSecretIn(shared.path);

    const refused = await services.dispatch('deleteSession', { key, confirmSourceFiles: [join(dir, 'session.json'), secret] });
    expect(refused.ok).toBe(false);
    expect(existsSync(secret)).toBe(true);
    expect(existsSync(join(dir, 'session.json'))).toBe(true);
    expect(existsSync(kept.keptPath as string)).toBe(true);
    expect(await call<unknown[]>('listTrash', {})).toEqual([]);
  });

  it('an artifact the reader finds in the repository but outside every added folder is left out of the export and named in the review', async () => {
    // Only the repository's .vizier folder was added; the notes beside it are the user's, not a session's.
    const repo = join(base, 'repo');
    const dir = join(repo, '.vizier', 'sessions', 's-3');
    await mkdir(dir, { recursive: true });
    await writeFile(join(repo, 'notes.md'), `${MARKER}\n`);
    await writeFile(
      join(dir, 'session.json'),
      JSON.stringify({ id: 's-3', repo: { root: repo }, chat: [{ role: 'user', content: 'hi' }], artifacts: ['notes.md'] }),
    );
    root = join(repo, '.vizier');
    await startVictim();
    const key = 'vizier:s-3';
    const review = await call<BundleScan>('scanBundle', { keys: [key] });
    expect((review.refused ?? []).map((r) => r.path)).toEqual([join(repo, 'notes.md')]);
    const shared = await call<BundleExport>('exportBundle', { exportId: 'reshare-0003', keys: [key], redact: false });
    expect((shared.refused ?? []).map((r) => r.path)).toEqual([join(repo, 'notes.md')]);
    await expectNoSecretIn(shared.path);
    const kept = await call<VaultStatus>('keepSession', { key });
    for (const file of await filesBelow(kept.keptPath as string)) expect((await readFile(file)).toString('latin1').includes(MARKER), file).toBe(false);
    // The reader lists the notes as the session's, but a delete of them is refused by the roots check, before anything moves.
    const refused = await services.dispatch('deleteSession', { key, confirmSourceFiles: [join(dir, 'session.json'), join(repo, 'notes.md')] });
    expect(refused.ok || refused.error.code).toBe('OUTSIDE_ROOTS');
    expect(existsSync(join(repo, 'notes.md'))).toBe(true);
    expect(existsSync(join(dir, 'session.json'))).toBe(true);
    expect(existsSync(kept.keptPath as string)).toBe(true);
  });

  it('an artifact reached through a symlink that leads outside is refused: named in the review, not exported, and a delete naming it has no side effect', async () => {
    const dir = join(root, 'proj', '.vizier', 'sessions', 's-4');
    await mkdir(dir, { recursive: true });
    const link = join(dir, 'run.log');
    await symlink(secret, link);
    await writeFile(join(dir, 'session.json'), hostileSession('s-4', [link]));
    await startVictim();
    const key = 'vizier:s-4';
    const review = await call<BundleScan>('scanBundle', { keys: [key] });
    expect((review.refused ?? []).map((r) => r.path)).toEqual([link]);
    const shared = await call<BundleExport>('exportBundle', { exportId: 'reshare-0004', keys: [key], redact: false });
    await expectNoSecretIn(shared.path);
    const kept = await call<VaultStatus>('keepSession', { key });
    for (const file of await filesBelow(kept.keptPath as string)) expect((await readFile(file)).toString('latin1').includes(MARKER), file).toBe(false);
    const refused = await services.dispatch('deleteSession', { key, confirmSourceFiles: [link] });
    expect(refused.ok).toBe(false);
    expect(existsSync(kept.keptPath as string)).toBe(true);
    expect(existsSync(secret)).toBe(true);
  });
});
