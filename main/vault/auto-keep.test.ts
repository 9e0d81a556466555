// Auto-keep's sweeps: only closed or idle live sessions are kept, at most one sweep waits behind the running one, close() waits for it, and a failure is logged.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACTIVE_WINDOW_MS } from '../../shared/activity.ts';
import type { Catalogue } from '../catalogue/catalogue.ts';
import { AutoKeep, type AutoKeepDeps } from './auto-keep.ts';
import { VaultStore } from './vault-store.ts';

const NOW = Date.parse('2026-11-29T12:00:00Z');

interface Row {
  key: string;
  path: string;
  mtimeMs: number;
  closed: boolean;
  unreadable: boolean;
  store: string | null;
}

const row = (key: string, change: Partial<Row> = {}): Row => ({
  key,
  path: `/live/${key}.jsonl`,
  mtimeMs: NOW - ACTIVE_WINDOW_MS - 1,
  closed: false,
  unreadable: false,
  store: null,
  ...change,
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-auto-keep-'));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

/** An AutoKeep over these catalogue rows, recording what it keeps, how many sweeps read the catalogue, and the rescans. */
function autoKeep(rows: Row[], change: Partial<AutoKeepDeps> = {}) {
  const seen = { kept: [] as string[], sweeps: 0, rescans: 0 };
  const catalogue = {
    entries: () => {
      seen.sweeps++;
      return rows.values();
    },
    keptCopy: () => undefined,
  } as unknown as Catalogue;
  const keeper = new AutoKeep({
    catalogue,
    store: new VaultStore(dir),
    enabled: () => true,
    kindOf: (path) => (path.startsWith('/vault/') ? 'copy' : null),
    keepLive: async (key) => void seen.kept.push(key),
    rescanVault: async () => void seen.rescans++,
    ...change,
  });
  return { keeper, seen };
}

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('auto-keep', () => {
  it('keeps the closed and the idle live sessions, not an active one, an unreadable one or the vault’s own, then rescans the vault once', async () => {
    const rows = [
      row('closed', { closed: true, mtimeMs: NOW - 1000 }),
      row('idle'),
      row('active', { mtimeMs: NOW - 1000 }),
      row('broken', { unreadable: true }),
      row('copy', { path: '/vault/sessions/copy/session.json' }),
    ];
    const { keeper, seen } = autoKeep(rows);
    expect(await keeper.sweep(NOW)).toBe(2);
    expect(seen.kept).toEqual(['closed', 'idle']);
    expect(seen.rescans).toBe(1);
  });

  it('keeps at most its budget in one sweep, and rescans nothing when it kept nothing', async () => {
    const { keeper, seen } = autoKeep(['a', 'b', 'c'].map((k) => row(k)));
    expect(await keeper.sweep(NOW, 2)).toBe(2);
    expect(seen.kept).toEqual(['a', 'b']);
    const idle = autoKeep([row('active', { mtimeMs: NOW })]);
    expect(await idle.keeper.sweep(NOW)).toBe(0);
    expect(idle.seen.rescans).toBe(0);
  });

  it('does nothing while auto-keep is off', async () => {
    const { keeper, seen } = autoKeep([row('idle')], { enabled: () => false });
    keeper.inBackground();
    expect(await keeper.sweep(NOW)).toBe(0);
    await keeper.close();
    expect(seen.sweeps).toBe(0);
    expect(seen.kept).toEqual([]);
  });

  it('runs one sweep at a time: requests during a long sweep start one more after it, not one each', async () => {
    const slow = gate();
    const { keeper, seen } = autoKeep([row('idle')], {
      keepLive: async () => {
        await slow.opened;
      },
    });
    keeper.inBackground();
    await vi.waitFor(() => expect(seen.sweeps).toBe(1));
    // A timer ticking, scans ending, the setting switched: ten requests while the first sweep still runs.
    for (let i = 0; i < 10; i++) keeper.inBackground();
    slow.open();
    await vi.waitFor(() => expect(seen.sweeps).toBe(2));
    await keeper.close();
    expect(seen.sweeps).toBe(2);
  });

  it('close() waits for the running sweep and starts no other; a failed sweep is written to the log, not thrown', async () => {
    const slow = gate();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { keeper, seen } = autoKeep([row('idle')], {
      keepLive: async (key) => {
        await slow.opened;
        seen.kept.push(key);
      },
      rescanVault: async () => {
        throw new Error('statement has been finalized');
      },
    });
    keeper.inBackground();
    await vi.waitFor(() => expect(seen.sweeps).toBe(1));
    keeper.inBackground();
    let closed = false;
    const closing = keeper.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closed).toBe(false);
    slow.open();
    await closing;
    expect(seen.kept).toEqual(['idle']);
    // Closed while it ran: the kept session is not followed by a rescan of a closed index, and the waiting sweep never starts.
    expect(seen.sweeps).toBe(1);
    expect(errors).not.toHaveBeenCalled();
    keeper.inBackground();
    await keeper.close();
    expect(seen.sweeps).toBe(1);
  });

  it('logs a failed sweep and keeps sweeping on the next request', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    let fail = true;
    const { keeper, seen } = autoKeep([row('idle')], {
      rescanVault: async () => {
        if (fail) throw new Error('disk full');
      },
    });
    keeper.inBackground();
    await vi.waitFor(() => expect(errors).toHaveBeenCalledWith('Auto-keep failed:', 'disk full'));
    fail = false;
    keeper.inBackground();
    await vi.waitFor(() => expect(seen.kept).toEqual(['idle', 'idle']));
    await keeper.close();
    expect(seen.sweeps).toBe(2);
    expect(errors).toHaveBeenCalledTimes(1);
  });
});
