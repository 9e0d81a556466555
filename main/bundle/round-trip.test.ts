// Export then import, for every format the app reads: the vault gets the source files byte-for-byte and lists the same sessions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServices, type Services } from '../app/services.ts';
import { copyAllFixtures } from '../test-support/source-fixtures.ts';
import { copyPathFor, VaultStore } from '../vault/vault-store.ts';
import type { SourceFormat } from '../../shared/session.ts';
import { exportBundle } from './export-bundle.ts';
import { importBundle } from './import-bundle.ts';

let base: string;
let root: string;
let services: Services;
const formats: SourceFormat[] = ['vizier', 'jido-code', 'claude-code', 'projecthub', 'ai-agent', 'codex', 'gemini'];

async function servicesOver(dataDir: string, roots: string[]): Promise<Services> {
  const s = createServices({ dataDir, shell: 'cli', extraRoots: roots, discoverDefaults: false, watch: false, env: {} });
  await s.start();
  await s.whenScanned();
  return s;
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-bundle-rt-'));
  root = join(base, 'root');
  await copyAllFixtures(root);
  services = await servicesOver(join(base, 'data'), [root]);
});
afterAll(async () => {
  await services.close();
  await rm(base, { recursive: true, force: true });
});

describe.each(formats)('round trip: %s', (format) => {
  it('export then import into a fresh vault gives back every source file byte-for-byte and the same sessions', async () => {
    const { sessions } = await services.client.listSessions({ format, includeChildren: true });
    const readable = sessions.filter((s) => !s.unreadable);
    expect(readable.length).toBeGreaterThan(0);
    const keys = readable.map((s) => s.key);
    const zip = join(base, `${format}.zip`);
    const result = await exportBundle(keys, services.bundles.load, zip, { redact: false });
    expect(result.sessions.map((s) => s.key).sort()).toEqual([...keys].sort());
    expect((await stat(zip)).size).toBe(result.size);
    expect((await readdir(base)).filter((n) => n.includes('.partial'))).toEqual([]);

    const fresh = join(base, `fresh-${format}`);
    const report = await importBundle(zip, { dataDir: fresh });
    expect(report.skipped).toEqual([]);
    expect(report.imported.map((s) => s.key).sort()).toEqual([...keys].sort());

    const store = new VaultStore(fresh);
    let compared = 0;
    for (const s of result.sessions) {
      const kept = await store.get(s.key);
      expect(kept?.meta.origin).toBe('imported');
      for (const original of kept?.meta.sourcePaths ?? []) {
        expect(await readFile(copyPathFor(kept!.dir, original))).toEqual(await readFile(original));
        compared++;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(keys.length);

    const reopened = await servicesOver(fresh, []);
    try {
      const listed = await reopened.client.listSessions({ includeChildren: true });
      expect(listed.sessions.map((s) => s.key).sort()).toEqual([...keys].sort());
      for (const s of readable) {
        const back = listed.sessions.find((x) => x.key === s.key);
        expect(back).toMatchObject({ title: s.title, messageCount: s.messageCount, kept: true, sourceGone: true });
      }
    } finally {
      await reopened.close();
    }
  });
});
