// The vault slice against a fake client: keep, annotations, delete with and without source files, fork, list filters, the panel.
import { describe, expect, it, vi } from 'vitest';
import type { Annotations, PruneResult, TrashEntry, VaultStatus } from '../../shared/vault-api.ts';
import { ClientError } from '../transport/client.ts';
import { createAppStore } from './store.ts';
import { LIST_FIRST_PAGE } from '../../shared/list-pages.ts';
import { parseDays } from './store-vault-panel.ts';
import { cleanTags } from './store-vault.ts';
import { fakeClient, session, summary, textMessage } from '../test-fixtures.ts';

/** The list's first page asked with these filters. */
const first = (filters: object) => ({ ...filters, limit: LIST_FIRST_PAGE });

const KEY = 'claude-code:s1';
const noNotes: Annotations = { starred: false, tags: [], note: '', updatedAt: null };
const liveStatus: VaultStatus = { annotations: noNotes, keptPath: null, keptAt: null, liveSourcePath: '/p/s1.jsonl' };
const keptStatus: VaultStatus = { ...liveStatus, keptPath: '/vault/s1', keptAt: '2026-11-01T10:00:00Z' };
const msg = textMessage;
const opened = session({
  key: KEY,
  messages: [msg('m1', 'first'), msg('m2', 'second'), msg('m3', 'third')],
  sourceFiles: [{ path: '/p/s1.jsonl', size: 10, mtimeMs: 1, role: 'primary' }],
});
const trashed: TrashEntry = { id: 't1', key: KEY, title: 'S1', deletedAt: '2026-11-02T10:00:00Z', where: 'vault-trash' };

function setup(over: Parameters<typeof fakeClient>[0] = {}) {
  let status = liveStatus;
  let annotations = noNotes;
  const listed = [summary({ key: KEY }), summary({ key: 'codex:s2', format: 'codex' })];
  const fake = fakeClient({
    listSessions: async () => ({ sessions: listed, total: listed.length }),
    getSession: async ({ key }: { key: string }) => (key === KEY ? opened : session({ key, messages: [msg('f1', 'first')] })),
    getVaultStatus: async () => ({ ...status, annotations }),
    keepSession: async () => (status = keptStatus),
    setAnnotations: async ({ key: _k, ...change }: { key: string } & Partial<Annotations>) =>
      (annotations = { ...annotations, ...change, updatedAt: '2026-11-03T00:00:00Z' }),
    listTrash: async () => [trashed],
    ...over,
  });
  const store = createAppStore(fake.client);
  const calls = (method: string) => fake.calls.filter((c) => c.method === method).map((c) => c.input);
  const openIt = async () => {
    await store.getState().load();
    await store.getState().openSession(KEY);
    await store.getState().loadVault(KEY);
  };
  return { store, fake, calls, openIt };
}

describe('vault slice: the open session', () => {
  it('keeps the open session and shows it kept, then refreshes the list', async () => {
    const { store, calls, openIt } = setup();
    await openIt();
    expect(store.getState().vault?.status?.keptPath).toBeNull();
    const listsBefore = calls('listSessions').length;
    await store.getState().keepOpen();
    expect(calls('keepSession')).toEqual([{ key: KEY }]);
    expect(store.getState().vault?.status?.keptAt).toBe('2026-11-01T10:00:00Z');
    expect(calls('listSessions').length).toBe(listsBefore + 1);
  });

  it('stars, tags and notes through setAnnotations, sending only what changed', async () => {
    const { store, calls, openIt } = setup();
    await openIt();
    await store.getState().toggleStar();
    await store.getState().setTags([' release ', 'release', '', 'bug']);
    await store.getState().saveNote('Look again');
    expect(calls('setAnnotations')).toEqual([
      { key: KEY, starred: true },
      { key: KEY, tags: ['release', 'bug'] },
      { key: KEY, note: 'Look again' },
    ]);
    const v = store.getState().vault;
    expect(v?.status?.annotations).toMatchObject({ starred: true, tags: ['release', 'bug'], note: 'Look again' });
    expect(v?.noteSavedAt).not.toBeNull();
    expect(v?.busy).toBeNull();
  });

  it('puts a failed annotation back and says why next to the control', async () => {
    const { store, openIt } = setup({
      setAnnotations: async () => {
        throw new ClientError('IO_ERROR', 'The vault folder is read-only.');
      },
    });
    await openIt();
    await store.getState().setStar(true);
    const v = store.getState().vault;
    expect(v?.status?.annotations.starred).toBe(false);
    expect(v?.error).toEqual({ control: 'star', message: 'The vault folder is read-only.' });
  });

  it('deletes a kept copy without touching source files when none are confirmed', async () => {
    const { store, calls, openIt } = setup({
      deleteSession: async () => ({ trashed: [trashed], sourceFilesDeleted: [] }),
    });
    await openIt();
    expect(await store.getState().deleteOpen([])).toBe(true);
    expect(calls('deleteSession')).toEqual([{ key: KEY }]);
    expect(store.getState().vault?.notice).toMatch(/Moved the vault's copy to the trash/);
    expect(store.getState().vaultPanel.trash).toEqual([trashed]);
  });

  it('passes exactly the ticked source files and reports how many were deleted', async () => {
    const { store, calls, openIt } = setup({
      deleteSession: async ({ confirmSourceFiles }: { confirmSourceFiles: string[] }) => ({ trashed: [], sourceFilesDeleted: confirmSourceFiles }),
    });
    await openIt();
    await store.getState().deleteOpen(['/p/s1.jsonl']);
    expect(calls('deleteSession')).toEqual([{ key: KEY, confirmSourceFiles: ['/p/s1.jsonl'] }]);
    expect(store.getState().vault?.notice).toBe('Deleted 1 source file.');
  });

  it('keeps a refused delete as a sentence on the delete control', async () => {
    const { store, openIt } = setup({
      deleteSession: async () => {
        throw new ClientError('INVALID_INPUT', 'This session is not in the vault; to delete its source files, list them in confirmSourceFiles.');
      },
    });
    await openIt();
    expect(await store.getState().deleteOpen([])).toBe(false);
    expect(store.getState().vault?.error?.control).toBe('delete');
    expect(store.getState().vault?.error?.message).toMatch(/^This session is not in the vault/);
  });

  it('forks through the chosen message by its index and opens the new session', async () => {
    const { store, calls, openIt } = setup({ forkSession: async () => ({ key: 'vizier:fork-1', path: '/vault/forks/fork-1/session.json' }) });
    await openIt();
    await store.getState().forkFrom('m2');
    expect(calls('forkSession')).toEqual([{ key: KEY, throughMessage: 1 }]);
    expect(store.getState().open?.key).toBe('vizier:fork-1');
    expect(store.getState().open?.session?.messages).toHaveLength(1);
    expect(store.getState().fork).toBeNull();
  });

  it('shows a failed fork on the message it was started from', async () => {
    const { store, openIt } = setup({
      forkSession: async () => {
        throw new ClientError('CONFLICT', 'Session logging is off for the vault, so the fork was not written.');
      },
    });
    await openIt();
    await store.getState().forkFrom('m1');
    expect(store.getState().fork).toEqual({ messageId: 'm1', busy: false, error: 'Session logging is off for the vault, so the fork was not written.' });
    expect(store.getState().open?.key).toBe(KEY);
  });

  it('loads the resume command, or keeps why it cannot be offered', async () => {
    const { store, openIt } = setup({
      getResumeInfo: async () => ({ command: 'claude --resume s1', cwd: '/p', available: false, reason: 'The project folder no longer exists: /p' }),
    });
    await openIt();
    await store.getState().loadResume();
    expect(store.getState().vault?.resume?.reason).toBe('The project folder no longer exists: /p');
  });
});

describe('vault slice: list filters', () => {
  it('sends starred, kept and tag to listSessions and leaves out filters that are off', async () => {
    const { store, calls } = setup();
    await store.getState().load();
    const listed = async (n: number) => vi.waitFor(() => expect(calls('listSessions')).toHaveLength(n));
    store.getState().setListFilters({ starred: true });
    await listed(2);
    store.getState().setListFilters({ kept: true, tag: 'release' });
    await listed(3);
    store.getState().setListFilters({ starred: false, kept: false, tag: null });
    await listed(4);
    expect(calls('listSessions')).toEqual([first({}), first({ starred: true }), first({ starred: true, kept: true, tag: 'release' }), first({})]);
  });

  it('filters changed faster than the list answers ask only for the last ones', async () => {
    const { store, calls } = setup();
    await store.getState().load();
    store.getState().setListFilters({ starred: true });
    store.getState().setListFilters({ kept: true, tag: 'release' });
    await vi.waitFor(() => expect(store.getState().listLoading).toBe(false));
    expect(calls('listSessions')).toEqual([first({}), first({ starred: true, kept: true, tag: 'release' })]);
  });
});

describe('vault slice: the Vault panel', () => {
  const preview: PruneResult = { dryRun: true, olderThanDays: 45, sessions: [{ key: KEY, title: 'S1', at: '2026-01-01T00:00:00Z' }] };

  it('prunes only after a dry run, with the days of that dry run', async () => {
    const { store, calls } = setup({
      pruneVault: async ({ dryRun }: { dryRun: boolean }) => ({ ...preview, dryRun }),
    });
    await store.getState().confirmPrune();
    expect(calls('pruneVault')).toEqual([]);
    await store.getState().previewPrune(' 45 ');
    expect(store.getState().vaultPanel.prunePreview?.sessions).toHaveLength(1);
    await store.getState().confirmPrune();
    expect(calls('pruneVault')).toEqual([
      { olderThanDays: 45, dryRun: true },
      { olderThanDays: 45, dryRun: false },
    ]);
    expect(store.getState().vaultPanel.prunePreview).toBeNull();
    expect(store.getState().vaultPanel.pruned?.sessions).toHaveLength(1);
  });

  it('refuses a day count that is not a whole number of days, without calling the vault', async () => {
    const { store, calls } = setup();
    await store.getState().previewPrune('ten');
    expect(store.getState().vaultPanel.pruneError).toBe('Enter a whole number of days from 1 to 36500.');
    expect(calls('pruneVault')).toEqual([]);
    expect([parseDays('0'), parseDays('1.5'), parseDays('30'), parseDays('36501')]).toEqual([null, null, 30, null]);
  });

  it('opens with settings and trash, toggles auto-keep and restores from the trash', async () => {
    let trash = [trashed];
    const { store, calls } = setup({
      getVaultSettings: async () => ({ autoKeep: false }),
      setVaultSettings: async (s: { autoKeep: boolean }) => s,
      listTrash: async () => trash,
      restoreSession: async () => {
        trash = [];
        return { key: KEY };
      },
    });
    await store.getState().showVaultPanel(true);
    expect(store.getState().vaultPanel).toMatchObject({ open: true, settings: { autoKeep: false }, trash: [trashed] });
    await store.getState().setAutoKeep(true);
    expect(store.getState().vaultPanel.settings?.autoKeep).toBe(true);
    await store.getState().restoreTrashed('t1');
    expect(calls('restoreSession')).toEqual([{ id: 't1' }]);
    expect(store.getState().vaultPanel).toMatchObject({ restoredKey: KEY, trash: [] });
    await store.getState().showVaultPanel(false);
    expect(store.getState().vaultPanel.open).toBe(false);
  });

  it('clears all only when CLEAR was typed, and reports the count', async () => {
    const { store, calls } = setup({ clearVault: async () => ({ cleared: 4 }) });
    expect(await store.getState().clearAll('clear')).toBe(false);
    expect(store.getState().vaultPanel.clearError).toMatch(/Type CLEAR/);
    expect(calls('clearVault')).toEqual([]);
    expect(await store.getState().clearAll('CLEAR')).toBe(true);
    expect(calls('clearVault')).toEqual([{ confirm: 'CLEAR' }]);
    expect(store.getState().vaultPanel.cleared).toBe(4);
  });
});

describe('cleanTags', () => {
  it('trims, drops blanks and repeats, keeps order', () => {
    expect(cleanTags(['  a', 'b ', 'a', ' ', 'c'])).toEqual(['a', 'b', 'c']);
  });
});
