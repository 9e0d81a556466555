// The Settings slice: folders scanned again (the list follows), auto-keep saved, pricing.json read; Settings gives way to a session or the dashboard.
import { describe, expect, it } from 'vitest';
import type { Root } from '../../shared/api.ts';
import { ClientError } from '../../shared/api-client.ts';
import { fakeClient, session, summary } from '../test-fixtures.ts';
import { createAppStore } from './store.ts';

const root = (over: Partial<Root> = {}): Root => ({
  id: 'r1',
  path: '/work/sessions',
  kind: 'user',
  format: null,
  exists: true,
  sessionCount: 1,
  unreadableCount: 0,
  unreadableReasons: [],
  error: null,
  ...over,
});

describe('the settings slice', () => {
  it('scans a folder again, then shows its new counts and lists what it found', async () => {
    let listed = [summary({ key: 'a:1' })];
    const fake = fakeClient({
      rescanRoots: async () => {
        listed = [...listed, summary({ key: 'a:2' })];
        return [root({ sessionCount: 2 })];
      },
      listSessions: async () => ({ sessions: listed, total: listed.length }),
    });
    const store = createAppStore(fake.client);
    const scanning = store.getState().rescanRoots('r1');
    expect(store.getState().rescanning).toBe('r1');
    await scanning;
    expect(store.getState().rescanning).toBeNull();
    expect(store.getState().roots[0]?.sessionCount).toBe(2);
    expect(store.getState().sessions.map((s) => s.key)).toEqual(['a:1', 'a:2']);
    expect(fake.calls.find((c) => c.method === 'rescanRoots')?.input).toEqual({ id: 'r1' });
  });

  it('says why a rescan failed, and scans every folder when none is named', async () => {
    const fake = fakeClient({ rescanRoots: async () => Promise.reject(new Error('No folder with id "x" is in the list.')) });
    const store = createAppStore(fake.client);
    await store.getState().rescanRoots();
    expect(fake.calls.find((c) => c.method === 'rescanRoots')?.input).toEqual({});
    expect(store.getState().rescanError).toContain('No folder with id');
    expect(store.getState().rescanning).toBeNull();
  });

  it('reads and saves auto-keep, and reads pricing.json', async () => {
    const fake = fakeClient({
      getVaultSettings: async () => ({ autoKeep: false }),
      setVaultSettings: async (input) => ({ autoKeep: (input as { autoKeep: boolean }).autoKeep }),
      getPricingFile: async () => ({ path: '/data/pricing.json', exists: false, problem: null, entries: [] }),
    });
    const store = createAppStore(fake.client);
    await store.getState().loadVaultSettings();
    await store.getState().setAutoKeepSetting(true);
    expect(store.getState().vaultSettings).toEqual({ autoKeep: true });
    await store.getState().loadPricingFile();
    expect(store.getState().pricingFile?.path).toBe('/data/pricing.json');
  });

  it('gives way to a session opened from the list, and to the dashboard', async () => {
    const fake = fakeClient({ getSession: async () => session({ key: 'a:1' }) });
    const store = createAppStore(fake.client);
    store.getState().showSettings(true);
    await store.getState().openSession('a:1');
    expect(store.getState().settingsOpen).toBe(false);
    store.getState().showSettings(true);
    store.getState().showUsage();
    expect(store.getState().settingsOpen).toBe(false);
    expect(store.getState().open).toBeNull();
  });
});

describe('auto-keep from Settings', () => {
  it('moves the switch at once, and puts it back with the reason when the vault refuses', async () => {
    let refuse: (err: Error) => void = () => {};
    const fake = fakeClient({
      getVaultSettings: async () => ({ autoKeep: false }),
      setVaultSettings: () => new Promise((_resolve, reject) => (refuse = reject)),
    });
    const store = createAppStore(fake.client);
    await store.getState().loadVaultSettings();
    const saving = store.getState().setAutoKeepSetting(true);
    expect(store.getState().vaultSettings).toEqual({ autoKeep: true });
    refuse(new Error('The vault folder is read-only.'));
    await saving;
    expect(store.getState().vaultSettings).toEqual({ autoKeep: false });
    expect(store.getState().vaultSettingsError).toContain('read-only');
  });

  it('saves a price and shows the file as saved; a refusal says why and shows the file as it is now', async () => {
    const saved = {
      path: '/data/pricing.json',
      exists: true,
      problem: null,
      entries: [{ model: 'my-model', input: 3, output: 15, cacheRead: 0, cacheWrite: 0 }],
    };
    const broken = { path: '/data/pricing.json', exists: true, problem: '/data/pricing.json is not valid JSON', entries: [] };
    let refuse = false;
    const fake = fakeClient({
      setPricingEntry: async () => {
        if (refuse) throw new ClientError('CONFLICT', 'pricing.json was left as it is, because it cannot be used: /data/pricing.json is not valid JSON');
        return saved;
      },
      getPricingFile: async () => broken,
    });
    const store = createAppStore(fake.client);
    const change = { model: 'my-model', price: { input: 3, output: 15, cacheRead: 0, cacheWrite: 0 } };
    expect(await store.getState().savePricingEntry(change)).toBe(true);
    expect(store.getState().pricingFile).toEqual(saved);
    expect(fake.calls.find((c) => c.method === 'setPricingEntry')?.input).toEqual(change);

    refuse = true;
    expect(await store.getState().savePricingEntry(change)).toBe(false);
    expect(store.getState().pricingSaveError).toMatch(/left as it is, because it cannot be used/);
    expect(store.getState().pricingFile?.problem).toBe('/data/pricing.json is not valid JSON');
  });
});
