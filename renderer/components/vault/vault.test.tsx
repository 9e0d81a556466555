// What the vault controls show for a given store state: keep/star/tags/note, resume, delete, list marks and filters, the panel.
import { describe, expect, it } from 'vitest';
import type { VaultStatus } from '../../../shared/vault-api.ts';
import type { OpenSession } from '../../store/store.ts';
import type { VaultView } from '../../store/store-vault.ts';
import { session, summary, textMessage } from '../../test-fixtures.ts';
import { count, render } from '../../test-render.tsx';
import { noteState } from './AnnotationEditor.tsx';
import { Detail } from '../Detail.tsx';
import { SessionList } from '../SessionList.tsx';
import { VaultActions, VaultNotes, keepingOf } from './VaultActions.tsx';
import { VaultDeleteDialog, deleteLabel } from './VaultDeleteDialog.tsx';
import { VaultPanel } from './VaultPanel.tsx';
import { VaultResume } from './VaultResume.tsx';

const KEY = 'claude-code:s1';
const msg = textMessage;
const s1 = session({
  key: KEY,
  title: 'Fix the flaky test',
  messages: [msg('m1', 'first'), msg('m2', 'second')],
  sourceFiles: [{ path: '/p/s1.jsonl', size: 2048, mtimeMs: 1, role: 'primary' }],
});
const open: OpenSession = { key: KEY, session: s1, loading: false, error: null, errorCode: null, unreadable: null, removed: false };
const annotations = { starred: true, tags: ['flaky', 'ci'], note: 'Retry once', updatedAt: null };
const status = (over: Partial<VaultStatus>): VaultStatus => ({ annotations, keptPath: null, keptAt: null, liveSourcePath: '/p/s1.jsonl', ...over });
const view = (over: Partial<VaultView>): VaultView => ({
  key: KEY,
  status: status({}),
  loading: false,
  busy: null,
  error: null,
  noteSavedAt: null,
  resume: null,
  notice: null,
  ...over,
});
const actions = (v: VaultView) => render(<VaultActions session={s1} />, { open, sessions: [summary({ key: KEY })], vault: v });

describe('VaultActions', () => {
  it('offers Keep for a live session, with the star; its tags and note are on the Info tab', () => {
    const html = actions(view({}));
    expect(html).toContain('data-testid="keep-button"');
    expect(html).toMatch(/data-testid="star-toggle" aria-pressed="true"[^>]*>★ Starred</);
    expect(html).not.toContain('data-testid="note-input"');
    expect(html).not.toContain('data-testid="source-gone"');
    const notes = render(<VaultNotes session={s1} />, { open, sessions: [summary({ key: KEY })], vault: view({}) });
    expect(count(notes, 'data-testid="tag-chip"')).toBe(2);
    expect(notes).toContain('aria-label="Remove tag flaky"');
    expect(notes).toMatch(/<textarea[^>]*data-testid="note-input"[^>]*>Retry once<\/textarea>/);
  });

  it('shows when it was kept and links the live source while it exists', () => {
    const html = actions(view({ status: status({ keptPath: '/vault/s1', keptAt: new Date(Date.now() - 3 * 60_000).toISOString() }) }));
    expect(html).toMatch(/data-testid="kept-status"[^>]*>Kept <time[^>]*>3 min ago</);
    expect(html).toMatch(/data-testid="live-source"[^>]*>Live source: <span class="mono">\/p\/s1.jsonl</);
    expect(html).not.toContain('data-testid="keep-button"');
  });

  it("says the source is gone and the vault's copy is shown", () => {
    const html = actions(view({ status: status({ keptPath: '/vault/s1', keptAt: '2026-01-01T00:00:00Z', liveSourcePath: null }) }));
    expect(html).toContain('Source deleted — showing the vault’s copy.');
    expect(html).toContain('data-keeping="gone"');
    expect(html).not.toContain('data-testid="live-source"');
  });

  it('shows an error as a sentence next to its control, never a stack', () => {
    const html = actions(view({ error: { control: 'keep', message: 'Cannot keep an unreadable file: cut off.' } }));
    expect(html).toContain('Could not keep this session: Cannot keep an unreadable file: cut off.');
    expect(html).not.toMatch(/at .*\.ts:\d+/);
  });

  it('tells live, kept, gone and vault-owned sessions apart', () => {
    expect(keepingOf(status({}))).toBe('live');
    expect(keepingOf(status({ keptPath: '/v', keptAt: 'x' }))).toBe('kept');
    expect(keepingOf(status({ keptPath: '/v', keptAt: 'x', liveSourcePath: null }))).toBe('gone');
    expect(keepingOf(status({ keptPath: '/f/session.json', liveSourcePath: '/f/session.json' }))).toBe('owned');
  });

  it('says whether the note is saving, unsaved or saved', () => {
    expect(noteState('a', 'a', true, null)).toBe('saving');
    expect(noteState('ab', 'a', false, 5)).toBe('unsaved');
    expect(noteState('a', 'a', false, 5)).toBe('saved');
    expect(noteState('a', 'a', false, null)).toBe('idle');
  });
});

describe('VaultResume', () => {
  it('shows the command in a copyable field and where to run it', () => {
    const html = render(<VaultResume info={{ command: 'claude --resume s1', cwd: '/p', available: true, reason: null }} loading={false} onClose={() => {}} />);
    expect(html).toMatch(/<input[^>]*readOnly=""[^>]*data-testid="resume-command"[^>]*value="claude --resume s1"/);
    expect(html).toContain('data-testid="resume-copy"');
    expect(html).toContain('data-testid="resume-cwd">/p<');
  });

  it('gives the reason instead of a command when it is not available', () => {
    const html = render(
      <VaultResume
        info={{ command: 'claude --resume s1', cwd: '/p', available: false, reason: 'The session is still being written (active); resume it once it is idle.' }}
        loading={false}
        onClose={() => {}}
      />,
    );
    expect(html).toContain('still being written (active)');
    expect(html).not.toContain('data-testid="resume-command"');
  });
});

describe('VaultDeleteDialog', () => {
  const files = s1.sourceFiles;

  it('lists a live session’s source files unticked and cannot confirm until one is ticked', () => {
    const html = render(
      <VaultDeleteDialog target={{ title: 'S1', inVault: false, sourceFiles: files }} busy={false} error={null} onConfirm={() => {}} onCancel={() => {}} />,
    );
    expect(html).toContain('/p/s1.jsonl');
    expect(html).toContain('2.0 KB');
    expect(html).toMatch(/<input type="checkbox" data-testid="delete-source-file"\/>/);
    expect(html).toMatch(/<button[^>]*data-testid="delete-confirm" disabled=""/);
  });

  it('moves a kept copy to the trash without ticking anything', () => {
    const html = render(
      <VaultDeleteDialog target={{ title: 'S1', inVault: true, sourceFiles: [] }} busy={false} error="Not allowed." onConfirm={() => {}} onCancel={() => {}} />,
    );
    expect(html).toMatch(/data-testid="delete-confirm">Move to trash</);
    expect(html).toContain('Could not delete: Not allowed.');
    expect([deleteLabel(true, 2), deleteLabel(false, 1), deleteLabel(false, 0)]).toEqual([
      'Move to trash and delete 2 source files',
      'Delete 1 source file',
      'Delete ticked files',
    ]);
  });
});

describe('list marks and filters', () => {
  const rows = [
    summary({ key: 'a:1', title: 'Starred one', starred: true, kept: true, tags: ['release'], hasNote: true }),
    summary({ key: 'a:2', title: 'Gone one', kept: true, sourceGone: true }),
  ];

  it('marks starred, kept and source-gone rows and shows tags as chips', () => {
    const html = render(<SessionList />, { loaded: true, sessions: rows });
    expect(html).toMatch(/data-key="a:1"[\s\S]*data-testid="row-kept"[^>]*>kept<[\s\S]*data-testid="row-star"/);
    expect(html).toMatch(/data-testid="row-tag"[^>]*>release</);
    expect(html).toMatch(/class="row source-gone"[^>]*data-key="a:2"/);
    expect(html).toMatch(/data-key="a:2"[\s\S]*>vault copy</);
  });

  it('shows the active filters and a note when nothing matches them', () => {
    const on = render(<SessionList />, { loaded: true, sessions: rows, listFilters: { starred: true, kept: false, tag: 'release' } });
    expect(on).toContain('data-testid="filter-starred" aria-pressed="true"');
    expect(on).toContain('data-testid="filter-kept" aria-pressed="false"');
    expect(on).toMatch(/<option value="release" selected="">#release<\/option>/);
    const none = render(<SessionList />, { loaded: true, sessions: [], listFilters: { starred: true, kept: false, tag: null } });
    expect(none).toContain('No session matches these filters.');
  });
});

describe('fork on messages', () => {
  it('offers "Fork from here" on every message and shows a failed fork on its message', () => {
    const html = render(<Detail />, { open, sessions: [summary({ key: KEY })], fork: { messageId: 'm2', busy: false, error: 'The vault is full.' } });
    expect(count(html, 'data-testid="fork-button"')).toBe(2);
    expect(html).toContain('Could not fork: The vault is full.');
  });
});

describe('VaultPanel', () => {
  const closed = {
    open: true,
    settings: { autoKeep: true },
    settingsError: null,
    prunePreview: null,
    pruned: null,
    pruneBusy: false,
    pruneError: null,
    trash: [],
    trashError: null,
    restoring: null,
    restoredKey: null,
    clearBusy: false,
    clearError: null,
    cleared: null,
  };

  it('renders nothing while closed', () => {
    expect(render(<VaultPanel />)).toBe('');
  });

  it('shows auto-keep, the dry-run list with a confirm, the trash with Restore and the clear count', () => {
    const html = render(<VaultPanel />, {
      vaultPanel: {
        ...closed,
        prunePreview: { dryRun: true, olderThanDays: 30, sessions: [{ key: 'a:1', title: 'Old one', at: '2025-01-01T00:00:00Z' }] },
        trash: [{ id: 't1', key: 'a:2', title: 'Deleted one', deletedAt: '2026-01-01T00:00:00Z', where: 'vault-trash' }],
        cleared: 3,
      },
    });
    expect(html).toMatch(/data-testid="auto-keep" checked=""/);
    expect(html).toContain('1 kept session older than 30 days would move to the trash');
    expect(html).toMatch(/data-testid="prune-item" data-key="a:1">Old one/);
    expect(html).toContain('Prune 1 session');
    expect(html).toMatch(/data-testid="trash-row" data-key="a:2">[\s\S]*Deleted one[\s\S]*>Restore</);
    expect(html).toContain('Moved 3 sessions to the trash.');
  });

  it('shows panel errors as sentences', () => {
    const html = render(<VaultPanel />, {
      vaultPanel: { ...closed, pruneError: 'Enter a whole number of days from 1 to 36500.', trashError: 'Nothing in the trash has the id x.' },
    });
    expect(html).toContain('Enter a whole number of days from 1 to 36500.');
    expect(html).toContain('Nothing in the trash has the id x.');
  });
});
