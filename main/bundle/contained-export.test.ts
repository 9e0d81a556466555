// Exporting a session that lives inside a store: the bundle carries its session.json and its own rows, never the store with the other sessions in it; imported, it reads back.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type { BundleExport } from '../../shared/bundle-api.ts';
import { createServices, type Services } from '../app/services.ts';
import { createOpenCodeStore, writeSession } from '../sources/opencode/opencode-test-store.ts';
import { PLANTED_ENV, SECRETS } from '../test-support/planted-secrets.ts';
import { testTempDir } from '../test-support/temp-dir.ts';
import { importBundle } from './import-bundle.ts';
import { Manifest } from './manifest.ts';
import { unzipAll } from './test-zip.ts';

let base: string;
let store: string;
let writer: DatabaseSync;
let services: Services;
const opened: Services[] = [];

beforeEach(async () => {
  base = testTempDir('sv-contained-export-');
  const dir = join(base, 'root', '.local', 'share', 'opencode');
  await mkdir(dir, { recursive: true });
  store = join(dir, 'opencode.db');
  writer = createOpenCodeStore(store);
  writeSession(writer, {
    id: 'ses_shared',
    title: 'Deploy the API',
    directory: '/home/dev/harbor-api',
    startMs: 1767225600000,
    turns: [{ prompt: `deploy with token ${SECRETS.github}`, answer: 'deployed', tools: [{ tool: 'bash', input: { command: 'make deploy' }, output: 'ok' }] }],
  });
  writeSession(writer, {
    id: 'ses_private',
    title: 'Private',
    directory: '/home/dev/diary',
    startMs: 1767229200000,
    turns: [{ prompt: 'a private matter', answer: 'noted' }],
  });
  services = createServices({
    dataDir: join(base, 'data'),
    shell: 'web',
    extraRoots: [join(base, 'root')],
    discoverDefaults: false,
    watch: false,
    env: PLANTED_ENV,
  });
  opened.push(services);
  await services.start();
  await services.whenScanned();
});
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
  writer.close();
});

async function exported(keys: string[]): Promise<BundleExport> {
  const result = await services.dispatch('exportBundle', { exportId: 'exp-00000042', keys });
  if (!result.ok) throw new Error(result.error.message);
  return result.value as BundleExport;
}

describe('exporting a session inside a store', () => {
  it('carries session.json and the session’s own rows (redacted), never the store or another session', async () => {
    const done = await exported(['opencode:ses_shared']);
    expect(done).toMatchObject({ sessions: 1, files: 2 });
    const entries = await unzipAll(done.path);
    const names = [...entries.keys()].sort();
    expect(names.some((n) => n.endsWith('opencode.db'))).toBe(false);
    expect(names.filter((n) => n.endsWith('.session-rows.json'))).toEqual([
      expect.stringMatching(/\/source\/.*\/opencode\.db\.ses_shared\.session-rows\.json$/),
    ]);
    const all = [...entries.values()].map((b) => b.toString('utf8')).join('\n');
    expect(all).not.toContain('a private matter');
    expect(all).not.toContain('ses_private');
    expect(all).not.toContain('SQLite format 3');
    expect(all).not.toContain(SECRETS.github);
    const manifest = Manifest.parse(JSON.parse(entries.get('manifest.json')!.toString()));
    const rows = manifest.files.find((f) => f.kind === 'source')!;
    expect(rows).toMatchObject({ role: 'primary', originalPath: `${store}.ses_shared.session-rows.json`, redacted: true });
    const sessionJson = JSON.parse([...entries].find(([n]) => n.endsWith('session.json'))![1].toString()) as { sourceFiles: Array<{ path: string }> };
    expect(sessionJson.sourceFiles.map((f) => f.path)).toEqual([`${store}.ses_shared.session-rows.json`]);
  });

  it('imports into another vault and lists the session there, read back from its rows', async () => {
    const done = await exported(['opencode:ses_shared']);
    const otherData = join(base, 'other-data');
    const report = await importBundle(done.path, { dataDir: otherData });
    expect(report.imported.map((s) => s.key)).toEqual(['opencode:ses_shared']);
    const other = createServices({ dataDir: otherData, shell: 'cli', extraRoots: [], discoverDefaults: false, watch: false });
    opened.push(other);
    await other.start();
    await other.whenScanned();
    const list = await other.client.listSessions({ limit: 10 });
    expect(list.sessions.map((s) => [s.key, s.title, s.messageCount, s.kept])).toEqual([['opencode:ses_shared', 'Deploy the API', 2, true]]);
    const session = await other.client.getSession({ key: 'opencode:ses_shared', messageLimit: 10 });
    expect(session.messages[1]?.parts.map((p) => p.type)).toEqual(['tool_call', 'tool_result', 'text']);
    expect(JSON.stringify(session)).not.toContain(SECRETS.github);
  });

  it('refuses a rows document whose tables are not what Session Vault writes, saying why', async () => {
    const dir = join(base, 'loose');
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, 'x.db.ses_1.session-rows.json'),
      JSON.stringify({
        format: 'session-vault-store-rows',
        formatVersion: 1,
        source: { format: 'opencode', store: '/x.db', session: 'ses_1' },
        columns: { session: 'DROP TABLE x' },
        rows: {},
      }),
    );
    const other = createServices({ dataDir: join(base, 'd2'), shell: 'cli', extraRoots: [dir], discoverDefaults: false, watch: false });
    opened.push(other);
    await other.start();
    await other.whenScanned();
    const list = await other.client.listSessions({ limit: 10 });
    expect(list.sessions.map((s) => s.unreadable?.code)).toEqual(['wrong_shape']);
    expect(list.sessions[0]?.unreadable?.message).toMatch(/Not a rows document Session Vault writes: columns\.session/);
  });
});
