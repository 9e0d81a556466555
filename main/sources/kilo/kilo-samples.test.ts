// The facts each Kilo sample implies (samples/kilo: ccusage's usage-only kilo.db, agentsview's storage/ tree), read through OpenCode's reader under Kilo's name.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Session } from '../../../shared/session.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { kiloReader } from './kilo.ts';

const data = join(samplesDir, 'kilo', '.local', 'share', 'kilo');

describe('samples/kilo', () => {
  it('kilo.db (usage-only subset): one session from the message table, its tokens and recorded cost, and a warning that no content is stored', async () => {
    const store = join(data, 'kilo.db');
    expect(kiloReader.container?.isStore?.(store)).toBe(true);
    const listed = await kiloReader.container!.list(store);
    expect(listed.map((s) => s.id)).toEqual(['session-a']);
    const s = Session.parse(await kiloReader.container!.readOne(store, 'session-a'));
    expect(s).toMatchObject({
      key: 'kilo:session-a',
      format: 'kilo',
      title: 'Kilo session session-a',
      createdAt: '2026-01-02T00:00:00.000Z',
      project: { path: null },
    });
    expect(s.messages.map((m) => [m.role, m.parts.length, m.model])).toEqual([['assistant', 0, 'claude-sonnet-4-20250514']]);
    expect(s.usage).toEqual({ input: 100, output: 50, cacheRead: 10, cacheWrite: 20, reasoning: 5 });
    expect(s.cost).toEqual({ usd: 0.02, estimated: false });
    expect(s.model).toEqual({ provider: 'anthropic', name: 'claude-sonnet-4-20250514', parameters: {} });
    expect(s.warnings.map((w) => w.code)).toEqual(['usage_only_store']);
  });

  it('storage/ tree (no migration marker): the session under project global, its parent named though absent, its user message and text part', async () => {
    const s = Session.parse(await kiloReader.read(join(data, 'storage', 'session', 'global', 'ses_kilo.json')));
    expect(s).toMatchObject({
      key: 'kilo:ses_kilo',
      title: 'Kilo Session',
      parentKey: 'kilo:ses_parent',
      project: { path: '/home/user/code/kiloapp', name: 'kiloapp' },
      createdAt: '2023-11-14T22:13:20.000Z',
      updatedAt: '2023-11-14T22:14:20.000Z',
      model: null,
      warnings: [],
    });
    expect(s.messages.map((m) => [m.id, m.role, m.parts])).toEqual([['msg_1', 'user', [{ type: 'text', text: 'Hello from Kilo' }]]]);
  });

  it('claims only Kilo’s own files, looks in KILO_DATA_DIR or ~/.local/share/kilo, and resumes with kilo --session', () => {
    expect(kiloReader.claims(join(data, 'storage', 'message', 'ses_kilo', 'msg_1.json'))).toBe(false);
    expect(kiloReader.companion?.(join(data, 'storage', 'part', 'msg_1', 'prt_1.json'))).toBe(true);
    expect(kiloReader.claims('/home/ann/.local/share/opencode/opencode.db')).toBe(false);
    // The CLI's data folder first, then the legacy extension's task folders (kilo-legacy.test.ts).
    expect(kiloReader.defaultRoots({}, '/home/ann')[0]).toBe('/home/ann/.local/share/kilo');
    expect(kiloReader.defaultRoots({ KILO_DATA_DIR: '/data/kilo' }, '/home/ann').filter((r) => !r.includes('globalStorage'))).toEqual(['/data/kilo']);
    expect(kiloReader.resumeCommand({ id: 'ses_kilo', isSubAgent: false })).toBe('kilo --session ses_kilo');
  });
});
