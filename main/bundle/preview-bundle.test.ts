// previewBundle through the contract: what an upload would bring in (conflicts, the sender's findings), with nothing written.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BundleExport, BundleImport, BundlePreview, BundleScan } from '../../shared/bundle-api.ts';
import { PLANTED_ENV, SECRETS } from '../test-support/planted-secrets.ts';
import { createServices, type Services } from '../app/services.ts';
import { jidoSession } from '../test-support/session-files.ts';

let base: string;
let services: Services;

async function call<T>(s: Services, method: string, input: unknown): Promise<T> {
  const result = await s.dispatch(method, input);
  if (!result.ok) throw new Error(result.error.message);
  return result.value as T;
}

async function upload(s: Services, bytes: Buffer): Promise<string> {
  const { uploadId } = await call<{ uploadId: string }>(s, 'beginUpload', { size: bytes.length });
  await call(s, 'uploadChunk', { uploadId, offset: 0, data: bytes.toString('base64') });
  return uploadId;
}

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-preview-'));
  const dir = join(base, 'root', '.jido_code', 'sessions');
  await mkdir(dir, { recursive: true });
  const doc = JSON.parse(jidoSession('j-1', 'etl')) as { conversation: Array<{ content: string }> };
  doc.conversation[0]!.content = `token ${SECRETS.github}`;
  await writeFile(join(dir, 'j-1.json'), JSON.stringify(doc));
  await writeFile(join(dir, 'j-2.json'), jidoSession('j-2', 'clean'));
  services = createServices({
    dataDir: join(base, 'data'),
    shell: 'web',
    extraRoots: [join(base, 'root')],
    discoverDefaults: false,
    watch: false,
    env: PLANTED_ENV,
  });
  await services.start();
  await services.whenScanned();
});
afterEach(async () => {
  await services.close();
  await rm(base, { recursive: true, force: true });
});

describe('previewBundle', () => {
  it('lists the sessions, marks the ones already known, reports the findings left in, and imports nothing', async () => {
    const scan = await call<BundleScan>(services, 'scanBundle', { keys: ['jido-code:j-1'] });
    const leftIn = scan.findings.slice(0, 1).map((f) => f.id);
    const done = await call<BundleExport>(services, 'exportBundle', { exportId: 'exp-preview1', keys: ['jido-code:j-1', 'jido-code:j-2'], keep: leftIn });
    const bytes = await readFile(done.path);

    // The exporting app lists both sessions already: each is a conflict there.
    const here = await call<BundlePreview>(services, 'previewBundle', { uploadId: await upload(services, bytes) });
    expect(here.sessions.map((s) => [s.key, s.conflict])).toEqual([
      ['jido-code:j-1', true],
      ['jido-code:j-2', true],
    ]);

    const other = createServices({ dataDir: join(base, 'other'), shell: 'web', discoverDefaults: false, watch: false, env: {} });
    await other.start();
    try {
      const uploadId = await upload(other, bytes);
      const preview = await call<BundlePreview>(other, 'previewBundle', { uploadId });
      expect(preview.sessions.map((s) => ({ key: s.key, title: s.title, conflict: s.conflict }))).toEqual([
        { key: 'jido-code:j-1', title: 'etl', conflict: false },
        { key: 'jido-code:j-2', title: 'clean', conflict: false },
      ]);
      expect(preview.sessions.every((s) => s.files > 0 && s.bytes > 0)).toBe(true);
      expect(preview).toMatchObject({ redactionEnabled: true, files: done.files });
      expect(preview.keptFindings).toHaveLength(1);
      expect(preview.keptFindings[0]?.rule).toBe('github');
      // Nothing came in, and the upload is still there for the confirmation.
      expect((await other.client.listSessions({})).sessions).toEqual([]);
      const vaultSessions = join(base, 'other', 'vault', 'sessions');
      expect(existsSync(vaultSessions) ? await readdir(vaultSessions) : []).toEqual([]);
      expect(await readdir(join(base, 'other', 'uploads'))).toEqual([`${uploadId}.zip`]);

      const report = await call<BundleImport>(other, 'importBundle', { uploadId });
      expect(report.imported.map((s) => s.key).sort()).toEqual(['jido-code:j-1', 'jido-code:j-2']);

      const junk = await upload(other, Buffer.from('not a zip'));
      await expect(call(other, 'previewBundle', { uploadId: junk })).rejects.toThrow(/refused \(not-a-zip\)/);
    } finally {
      await other.close();
    }
  });
});
