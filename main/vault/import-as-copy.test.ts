// A bundle imported twice (the second time as a copy) lists two sessions, each opening under its own key, across restarts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BundleExport } from '../../shared/bundle-api.ts';
import { importBundle } from '../bundle/import-bundle.ts';
import { createServices, type Services } from '../app/services.ts';
import { jidoSession } from '../test-support/session-files.ts';

let base: string;
const open: Services[] = [];

async function started(dataDir: string, roots: string[] = []): Promise<Services> {
  const s = createServices({ dataDir, shell: 'web', extraRoots: roots, discoverDefaults: false, watch: false, env: {} });
  open.push(s);
  await s.start();
  await s.whenScanned();
  return s;
}

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-ascopy-'));
  const dir = join(base, 'root', '.jido_code', 'sessions');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'j-1.json'), jidoSession('j-1', 'etl pipeline'));
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  await rm(base, { recursive: true, force: true });
});

describe('importing a session the vault already has, as a copy', () => {
  it('lists the original and the copy as two sessions, each opening under its own key, also after a restart', async () => {
    const source = await started(join(base, 'data'), [join(base, 'root')]);
    const result = await source.dispatch('exportBundle', { exportId: 'exp-ascopy-1', keys: ['jido-code:j-1'], redact: false });
    if (!result.ok) throw new Error(result.error.message);
    const bundle = (result.value as BundleExport).path;

    const vault = join(base, 'other');
    expect((await importBundle(bundle, { dataDir: vault })).imported.map((s) => s.key)).toEqual(['jido-code:j-1']);
    expect((await importBundle(bundle, { dataDir: vault, asCopy: true })).imported.map((s) => s.key)).toEqual(['jido-code:j-1~copy-1']);

    for (let run = 0; run < 2; run++) {
      const app = await started(vault);
      const listed = await app.client.listSessions({});
      expect(listed.sessions.map((s) => s.key).sort()).toEqual(['jido-code:j-1', 'jido-code:j-1~copy-1']);
      expect(listed.sessions.every((s) => s.kept && s.sourceGone && s.title === 'etl pipeline')).toBe(true);
      const copy = await app.client.getSession({ key: 'jido-code:j-1~copy-1', messageLimit: 100 });
      expect(copy.key).toBe('jido-code:j-1~copy-1');
      expect(copy.sourceFiles[0]?.path).toContain('copy-1');
      await app.close();
      open.splice(open.indexOf(app), 1);
    }
  });
});
