// The sharing contract through dispatch, as the UI calls it: review findings, untick one, export, cancel, import an upload.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppEvent } from '../../shared/api.ts';
import type { BundleExport, BundleImport, BundleScan } from '../../shared/bundle-api.ts';
import { PLANTED_ENV, SECRETS } from '../store/fixtures/planted-secrets.ts';
import { createServices, type Services } from '../services.ts';
import { jidoSession } from '../test-support/session-files.ts';

let base: string;
let services: Services;
let events: AppEvent[];

async function call<T>(s: Services, method: string, input: unknown): Promise<T> {
  const result = await s.dispatch(method, input);
  if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code });
  return result.value as T;
}

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-bsvc-'));
  const dir = join(base, 'root', '.jido_code', 'sessions');
  await mkdir(dir, { recursive: true });
  const doc = JSON.parse(jidoSession('j-1', 'etl')) as { conversation: Array<{ content: string }> };
  doc.conversation[0]!.content = `token ${SECRETS.github} and ${SECRETS.anthropic}`;
  await writeFile(join(dir, 'j-1.json'), JSON.stringify(doc));
  await writeFile(join(dir, 'j-2.json'), jidoSession('j-2', 'clean'));
  services = createServices({ dataDir: join(base, 'data'), shell: 'web', extraRoots: [join(base, 'root')], discoverDefaults: false, watch: false, env: PLANTED_ENV });
  events = [];
  services.subscribe((e) => events.push(e));
  await services.start();
  await services.whenScanned();
});
afterEach(async () => {
  await services.close();
  await rm(base, { recursive: true, force: true });
});

describe('sharing through the contract', () => {
  it('scanBundle lists findings; exportBundle keeps the unticked one and redacts the rest', async () => {
    const scan = await call<BundleScan>(services, 'scanBundle', { keys: ['jido-code:j-1'] });
    expect(scan.sessions).toBe(1);
    expect(scan.findings.map((f) => f.rule).sort()).toEqual(['anthropic', 'anthropic', 'github', 'github']);
    const untick = scan.findings.filter((f) => f.rule === 'github').map((f) => f.id);
    const done = await call<BundleExport>(services, 'exportBundle', { exportId: 'exp-00000001', keys: ['jido-code:j-1'], keep: untick });
    expect(done).toMatchObject({ sessions: 1, files: 2, redacted: 2, kept: 2 });
    expect(done.path.startsWith(join(base, 'data', 'exports', 'exp-00000001'))).toBe(true);
    expect(events.some((e) => e.name === 'bundleProgress' && e.payload.exportId === 'exp-00000001')).toBe(true);
    const again = await call<BundleExport>(services, 'exportBundle', { exportId: 'exp-00000002', keys: ['jido-code:j-1'], format: 'md' });
    const md = await readFile(again.path, 'utf8');
    expect(md).not.toContain(SECRETS.github);
    expect(again.fileName).toMatch(/^2026-01-02_j-1\.md$/);
  });

  it('an export id cannot be reused, and cancelling an unknown export says so', async () => {
    await call(services, 'exportBundle', { exportId: 'exp-00000003', keys: ['jido-code:j-2'] });
    await expect(call(services, 'exportBundle', { exportId: 'exp-00000003', keys: ['jido-code:j-2'] })).rejects.toThrow('already used');
    expect(await call(services, 'cancelExport', { exportId: 'exp-nothing1' })).toEqual({ cancelled: false });
  });

  it('importBundle takes an uploaded bundle into the vault and lists its sessions; a bad upload is refused by rule', async () => {
    const done = await call<BundleExport>(services, 'exportBundle', { exportId: 'exp-00000004', keys: ['jido-code:j-1', 'jido-code:j-2'], redact: false });
    const other = createServices({ dataDir: join(base, 'other'), shell: 'web', discoverDefaults: false, watch: false, env: {} });
    await other.start();
    try {
      const uploads = join(base, 'other', 'uploads');
      await mkdir(uploads, { recursive: true });
      const id = 'a'.repeat(32);
      await copyFile(done.path, join(uploads, `${id}.zip`));
      const report = await call<BundleImport>(other, 'importBundle', { uploadId: id });
      expect(report.imported.map((s) => s.key).sort()).toEqual(['jido-code:j-1', 'jido-code:j-2']);
      expect(report).toMatchObject({ redactionEnabled: false, skipped: [] });
      const listed = await other.methods.listSessions({});
      expect(listed.sessions.map((s) => s.key).sort()).toEqual(['jido-code:j-1', 'jido-code:j-2']);
      expect(await readdir(uploads)).toEqual([]);

      const bad = 'b'.repeat(32);
      await writeFile(join(uploads, `${bad}.zip`), 'not a zip');
      await expect(call(other, 'importBundle', { uploadId: bad })).rejects.toThrow(/refused \(not-a-zip\)/);
      await expect(call(other, 'importBundle', { uploadId: 'c'.repeat(32) })).rejects.toThrow('No uploaded bundle with this id');
    } finally {
      await other.close();
    }
  });
});
