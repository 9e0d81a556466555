// Store slice for the open session: opening one (at a search result's message), its later windows of messages, its tab, and following changes to its file.
import type { OpenedSession } from '../../shared/api.ts';
import type { ErrorCode } from '../../shared/result.ts';
import type { SessionSummary, Unreadable } from '../../shared/session.ts';
import { ClientError, describeError, type AppClient } from '../transport/client.ts';
import type { RawSlice } from './store-raw.ts';
import type { RelatedSlice } from './store-related.ts';
import type { SearchFocus, SearchSlice } from './store-search.ts';

export interface OpenSession {
  key: string;
  /** `messages` holds the windows loaded so far; `messagesTotal` counts them all. */
  session: OpenedSession | null;
  /** A further window of messages is being fetched. */
  loadingMore?: boolean;
  loading: boolean;
  error: string | null;
  errorCode: ErrorCode | null;
  /** Set when the list marks the entry unreadable: there is no Session, only the reason and the raw file. */
  unreadable: Unreadable | null;
  /** The file went away while open; the last loaded copy stays visible. */
  removed: boolean;
  /** Opened from a search result: the message to show and mark, and the words to highlight in it. */
  focus?: SearchFocus | null;
}

export interface SessionSlice {
  open: OpenSession | null;
  /** The detail view's tab (conversation, operations, …): in the store so the URL can hold it. */
  detailTab: string;
  setDetailTab(tab: string): void;
  openSession(key: string, focus?: SearchFocus | null): Promise<void>;
  /** Fetches the next window of the open session's messages (huge sessions arrive in windows as you scroll), or up to `through`. */
  loadMoreMessages(through?: number): Promise<void>;
  /**
   * Brings the open session up to date after a burst of changes: what the burst said of its key (`said`), or a
   * resync (`all`). A removed file leaves the last copy shown, marked removed; a changed one is fetched again quietly.
   */
  followOpenSession(said: 'changed' | 'removed' | undefined, all: boolean): Promise<void>;
}

type Host = SessionSlice &
  Pick<RawSlice, 'raw' | 'loadRaw'> &
  Pick<RelatedSlice, 'rawRecords'> &
  Pick<SearchSlice, 'resultFor'> & { sessions: SessionSummary[]; selectedKey: string | null; settingsOpen: boolean };

/** Messages fetched per window after the first screen. */
const MESSAGE_WINDOW = 2000;

export function createSessionSlice(client: AppClient, set: (partial: Partial<Host>) => void, get: () => Host): SessionSlice {
  /** Bumped by every open (and by a removal): an answer for an older one is dropped. */
  let openSeq = 0;

  const fetchSession = async (key: string, quiet: boolean): Promise<void> => {
    const seq = ++openSeq;
    const current = get().open;
    if (quiet && current?.key === key) set({ open: { ...current, loading: true } });
    try {
      const session = await client.getSession({ key });
      if (seq !== openSeq) return;
      const focus = get().open?.key === key ? get().open?.focus : null;
      set({ open: { key, session, loading: false, error: null, errorCode: null, unreadable: null, removed: false, focus } });
    } catch (err) {
      if (seq !== openSeq) return;
      const prev = get().open;
      const keep = quiet && prev?.key === key ? prev.session : null;
      set({
        open: {
          key,
          session: keep,
          loading: false,
          error: describeError(err),
          errorCode: err instanceof ClientError ? err.code : null,
          unreadable: prev?.key === key ? prev.unreadable : null,
          removed: false,
        },
      });
    }
  };

  return {
    open: null,
    detailTab: 'conversation',
    setDetailTab: (detailTab) => set({ detailTab }),

    async openSession(key, focus = null) {
      const summary = get().sessions.find((s) => s.key === key) ?? get().resultFor(key)?.summary;
      const unreadable = summary?.unreadable ?? null;
      set({
        selectedKey: key,
        raw: null,
        rawRecords: {},
        open: { key, session: null, loading: !unreadable, error: null, errorCode: null, unreadable, removed: false, focus },
        settingsOpen: false,
        // A search result opens at its message, which lives in the conversation.
        ...(focus ? { detailTab: 'conversation' } : {}),
      });
      if (unreadable) {
        openSeq++;
        return;
      }
      await fetchSession(key, false);
      const opened = get().open;
      if (focus && opened?.key === key && opened.session && focus.messageIndex >= opened.session.messages.length) {
        await get().loadMoreMessages(focus.messageIndex);
      }
    },

    async loadMoreMessages(through) {
      const open = get().open;
      const session = open?.session;
      if (!open || !session || open.loadingMore || session.messages.length >= session.messagesTotal) return;
      if (through !== undefined && through < session.messages.length) return;
      const seq = openSeq;
      set({ open: { ...open, loadingMore: true } });
      // A search result deep in a huge session: one window reaching past its message (the service caps a window at 10,000).
      const limit = through === undefined ? MESSAGE_WINDOW : Math.min(10_000, Math.max(MESSAGE_WINDOW, through - session.messages.length + 200));
      try {
        const page = await client.getMessages({ key: open.key, offset: session.messages.length, limit });
        const now = get().open;
        // A session opened (or reloaded) meanwhile owns the view now.
        if (seq !== openSeq || !now?.session || now.key !== open.key || now.session.messages.length !== page.offset) return;
        set({
          open: { ...now, loadingMore: false, session: { ...now.session, messages: [...now.session.messages, ...page.messages], messagesTotal: page.total } },
        });
        if (through !== undefined && page.messages.length > 0) await get().loadMoreMessages(through);
      } catch (err) {
        const now = get().open;
        if (seq === openSeq && now?.key === open.key) set({ open: { ...now, loadingMore: false, error: describeError(err) } });
      }
    },

    async followOpenSession(said, all) {
      const open = get().open;
      if (!open) return;
      // A kept session whose source was deleted is still listed: the vault's copy takes over.
      const change = said === 'removed' && get().sessions.some((s) => s.key === open.key && s.kept) ? 'changed' : said;
      if (change === 'removed') {
        openSeq++;
        set({ open: { ...open, loading: false, removed: true } });
        return;
      }
      if (change === 'changed' || (all && !open.removed)) {
        const summary = get().sessions.find((s) => s.key === open.key);
        if (summary?.unreadable) {
          set({ open: { ...open, session: null, loading: false, error: null, unreadable: summary.unreadable, removed: false } });
        } else {
          await fetchSession(open.key, true);
        }
        const raw = get().raw;
        if (raw?.key === open.key) await get().loadRaw(raw.fileIndex);
      }
    },
  };
}
