// Store slice for the vault as the open session sees it: keep, star/tags/note, resume, delete, fork, and the list's vault filters.
import type { MethodInput } from '../../shared/api.ts';
import type { Message, SessionSummary } from '../../shared/session.ts';
import type { Annotations, ResumeInfo, VaultStatus } from '../../shared/vault-api.ts';
import { ClientError, describeError, type AppClient } from '../transport/client.ts';
import { createVaultPanelSlice, type VaultPanelSlice } from './store-vault-panel.ts';
import { plural } from '../format.ts';

export type { VaultPanelState } from './store-vault-panel.ts';

/** The controls of the detail header that can fail; an error is shown next to the one it belongs to. */
export type VaultControl = 'status' | 'keep' | 'star' | 'tags' | 'note' | 'resume' | 'delete';

export interface VaultView {
  key: string;
  status: VaultStatus | null;
  loading: boolean;
  busy: VaultControl | null;
  error: { control: VaultControl; message: string } | null;
  /** When the note was last saved, for the "saved" indicator. */
  noteSavedAt: number | null;
  resume: ResumeInfo | null;
  /** What the last delete did, as a sentence. */
  notice: string | null;
}

export interface ListFilters {
  starred: boolean;
  kept: boolean;
  tag: string | null;
}

export interface ForkState {
  messageId: string;
  busy: boolean;
  error: string | null;
}

export interface VaultSlice extends VaultPanelSlice {
  vault: VaultView | null;
  listFilters: ListFilters;
  fork: ForkState | null;
  /** Fetches the open session's vault status (called when a session opens or its list row changes). */
  loadVault(key: string): Promise<void>;
  keepOpen(): Promise<void>;
  setStar(starred: boolean): Promise<void>;
  /** The `s` key: flips the open session's star. */
  toggleStar(): Promise<void>;
  setTags(tags: string[]): Promise<void>;
  saveNote(note: string): Promise<void>;
  loadResume(): Promise<void>;
  /** Opens a terminal running the open session's resume command; the sentence to show (where it opened, or why not). */
  resumeInTerminal(): Promise<{ ok: boolean; text: string }>;
  /** Moves the vault's copy to the trash; deletes live source files only when they are listed here. */
  deleteOpen(confirmSourceFiles: string[]): Promise<boolean>;
  /** A new vault session holding the open session's messages up to this one; it opens once written. */
  forkFrom(messageId: string): Promise<void>;
  setListFilters(change: Partial<ListFilters>): void;
}

type Host = VaultSlice & {
  open: { key: string; session: { messages: Message[] } | null } | null;
  sessions: SessionSummary[];
  refresh(): Promise<void>;
  openSession(key: string): Promise<void>;
};

export const NO_FILTERS: ListFilters = { starred: false, kept: false, tag: null };

/** The listSessions input for the current filters; off toggles are left out so they filter nothing. */
export function listQuery(state: { listFilters: ListFilters }): MethodInput<'listSessions'> {
  const f = state.listFilters;
  return { ...(f.starred ? { starred: true } : {}), ...(f.kept ? { kept: true } : {}), ...(f.tag ? { tag: f.tag } : {}) };
}

/** Tags as the user typed them, trimmed, without blanks or repeats. */
export function cleanTags(tags: readonly string[]): string[] {
  const out: string[] = [];
  for (const t of tags) {
    const tag = t.trim();
    if (tag && !out.includes(tag)) out.push(tag);
  }
  return out;
}

function deleteNotice(result: { trashed: unknown[]; sourceFilesDeleted: string[] }): string {
  const parts: string[] = [];
  if (result.trashed.length) parts.push("Moved the vault's copy to the trash; restore it from the Vault panel.");
  const n = result.sourceFilesDeleted.length;
  if (n) parts.push(`Deleted ${plural(n, 'source file')}.`);
  return parts.join(' ') || 'Nothing was deleted.';
}

export function createVaultSlice(client: AppClient, set: (partial: Partial<VaultSlice>) => void, get: () => Host): VaultSlice {
  let annotationSeq = 0;
  /** The vault view of the open session, or null when it belongs to another session. */
  const current = (): VaultView | null => {
    const v = get().vault;
    return v && v.key === get().open?.key ? v : null;
  };
  const patch = (key: string, change: Partial<VaultView>): void => {
    const v = get().vault;
    if (v?.key === key) set({ vault: { ...v, ...change } });
  };
  const fail = (key: string, control: VaultControl, err: unknown): void => patch(key, { busy: null, error: { control, message: describeError(err) } });

  const annotate = async (control: VaultControl, change: Partial<Omit<Annotations, 'updatedAt'>>): Promise<void> => {
    const v = current();
    const key = get().open?.key;
    if (!key) return;
    const seq = ++annotationSeq;
    const before = v?.status?.annotations ?? null;
    // Shown at once; the answer (or a failure) settles it.
    if (v?.status && before) patch(key, { status: { ...v.status, annotations: { ...before, ...change } }, busy: control, error: null });
    try {
      const annotations = await client.setAnnotations({ key, ...change });
      const now = get().vault;
      if (seq === annotationSeq && now?.key === key && now.status) {
        patch(key, { status: { ...now.status, annotations }, busy: null, ...(control === 'note' ? { noteSavedAt: Date.now() } : {}) });
      }
      await get().refresh();
    } catch (err) {
      const now = get().vault;
      if (seq === annotationSeq && now?.key === key && now.status && before) patch(key, { status: { ...now.status, annotations: before } });
      fail(key, control, err);
    }
  };

  return {
    ...createVaultPanelSlice(client, set, get),
    vault: null,
    listFilters: NO_FILTERS,
    fork: null,

    async loadVault(key) {
      const prev = get().vault;
      const same = prev?.key === key;
      set({
        vault:
          same && prev
            ? { ...prev, loading: true }
            : { key, status: null, loading: true, busy: null, error: null, noteSavedAt: null, resume: null, notice: null },
      });
      try {
        const status = await client.getVaultStatus({ key });
        patch(key, { status, loading: false, ...(get().vault?.error?.control === 'status' ? { error: null } : {}) });
      } catch (err) {
        // A session deleted meanwhile has no status: its detail says so already.
        if (err instanceof ClientError && err.code === 'NOT_FOUND') patch(key, { status: null, loading: false });
        else patch(key, { loading: false, error: { control: 'status', message: describeError(err) } });
      }
    },

    async keepOpen() {
      const key = get().open?.key;
      if (!key || !current()) return;
      patch(key, { busy: 'keep', error: null });
      try {
        const status = await client.keepSession({ key });
        patch(key, { status, busy: null });
        await get().refresh();
      } catch (err) {
        fail(key, 'keep', err);
      }
    },

    setStar: (starred) => annotate('star', { starred }),

    async toggleStar() {
      const key = get().open?.key;
      if (!key) return;
      const known = current()?.status?.annotations.starred ?? get().sessions.find((s) => s.key === key)?.starred ?? false;
      await annotate('star', { starred: !known });
    },

    setTags: (tags) => annotate('tags', { tags: cleanTags(tags) }),

    saveNote: (note) => annotate('note', { note }),

    async loadResume() {
      const key = get().open?.key;
      if (!key || !current()) return;
      patch(key, { busy: 'resume', error: null, resume: null });
      try {
        patch(key, { resume: await client.getResumeInfo({ key }), busy: null });
      } catch (err) {
        fail(key, 'resume', err);
      }
    },

    async resumeInTerminal() {
      const key = get().open?.key;
      if (!key) return { ok: false, text: 'No session is open.' };
      try {
        const { terminal } = await client.resumeInTerminal({ key });
        return { ok: true, text: `Opened in ${terminal}.` };
      } catch (err) {
        return { ok: false, text: describeError(err) };
      }
    },

    async deleteOpen(confirmSourceFiles) {
      const key = get().open?.key;
      if (!key || !current()) return false;
      patch(key, { busy: 'delete', error: null, notice: null });
      try {
        const result = await client.deleteSession(confirmSourceFiles.length ? { key, confirmSourceFiles } : { key });
        patch(key, { busy: null, notice: deleteNotice(result) });
        await get().refresh();
        if (get().open?.key === key) await get().loadVault(key);
        await get().loadTrash();
        return true;
      } catch (err) {
        fail(key, 'delete', err);
        return false;
      }
    },

    async forkFrom(messageId) {
      const open = get().open;
      const messages = open?.session?.messages;
      if (!open || !messages) return;
      const index = messages.findIndex((m) => m.id === messageId);
      if (index < 0) return;
      const state: ForkState = { messageId, busy: true, error: null };
      set({ fork: state });
      try {
        const forked = await client.forkSession({ key: open.key, throughMessage: index });
        if (get().fork !== state) return;
        set({ fork: null });
        await get().refresh();
        await get().openSession(forked.key);
      } catch (err) {
        if (get().fork === state) set({ fork: { ...state, busy: false, error: describeError(err) } });
      }
    },

    setListFilters(change) {
      set({ listFilters: { ...get().listFilters, ...change } });
      void get().refresh();
    },
  };
}
