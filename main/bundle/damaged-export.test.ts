// Damaged copies of every agent's sample sessions that the readers accept (each number past any count, or one value replaced by an odd one) export into one bundle, which imports whole into a fresh vault.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { damagedSampleSessions } from '../test-support/damaged-sessions.ts';
import { testTempDir } from '../test-support/temp-dir.ts';
import { Session } from '../../shared/session.ts';
import { VaultStore } from '../vault/vault-store.ts';
import { exportBundle } from './export-bundle.ts';
import { importBundle } from './import-bundle.ts';

describe('damaged sessions in a bundle', () => {
  it('export into one bundle, redacted, and import whole into a fresh vault', async () => {
    const base = testTempDir('sv-damaged-export-');
    const sessions = await damagedSampleSessions(join(base, 'samples'));
    const byKey = new Map(sessions.map((s) => [s.key, s]));
    const zip = join(base, 'damaged.zip');
    const load = async (key: string) => {
      const s = byKey.get(key);
      if (!s) throw new Error(`asked for ${key}`);
      return structuredClone(s);
    };
    const result = await exportBundle([...byKey.keys()], load, zip);
    expect(result.sessions.map((s) => s.key).sort()).toEqual([...byKey.keys()].sort());
    const report = await importBundle(zip, { dataDir: join(base, 'vault') });
    expect(report.skipped).toEqual([]);
    expect(report.imported.map((s) => s.key).sort()).toEqual([...byKey.keys()].sort());
    // Each kept copy's session.json is a session the app can open, with the messages it was exported with.
    const vault = new VaultStore(join(base, 'vault'));
    for (const [key, exported] of byKey) {
      const kept = await vault.get(key);
      const parsed = Session.safeParse(JSON.parse(await readFile(join(kept!.dir, 'session.json'), 'utf8')));
      expect(parsed.success, key).toBe(true);
      expect(parsed.data?.messages.length, key).toBe(exported.messages.length);
    }
  }, 240_000);
});
