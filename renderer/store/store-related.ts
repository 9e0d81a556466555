// Store slice for what the open session points at: the raw record behind a message or operation, and related sessions.
import type { Origin, SessionSummary } from '../../shared/session.ts';
import { describeError, type AppClient } from '../transport/client.ts';

export interface RawRecordView {
  loading: boolean;
  path: string | null;
  text: string;
  truncated: boolean;
  error: string | null;
}

export interface RelatedSlice {
  /** Open raw-record panels of the open session, by the id of the message or operation that owns them. */
  rawRecords: Record<string, RawRecordView>;
  /** Summaries of the open session's parent and sub-agent sessions (which the list hides). */
  related: Record<string, SessionSummary>;
  /** Keys asked for and not in the library (a sub-agent whose file is gone or was never written), until the sessions change. */
  relatedNotFound: Record<string, true>;
  relatedError: string | null;
  toggleRawRecord(ownerId: string, origin: Origin): Promise<void>;
  loadRelated(keys: readonly string[]): Promise<void>;
  /** Sessions changed on disk: related summaries are fetched again when next shown. */
  resetRelated(): void;
}

type Host = RelatedSlice & { open: { key: string } | null };

/** Only origins that name a line or a pointer can be looked up. */
export function canLoadRecord(origin: Origin | null): origin is Origin {
  return origin !== null && (origin.line !== null || origin.pointer !== null);
}

export function createRelatedSlice(client: AppClient, set: (partial: Partial<RelatedSlice>) => void, get: () => Host): RelatedSlice {
  // Keys asked for once and not found are not asked for again until the sessions change.
  const attempted = new Set<string>();
  return {
    rawRecords: {},
    related: {},
    relatedNotFound: {},
    relatedError: null,

    async toggleRawRecord(ownerId, origin) {
      const key = get().open?.key;
      if (!key) return;
      const { [ownerId]: existing, ...rest } = get().rawRecords;
      if (existing) {
        set({ rawRecords: rest });
        return;
      }
      const view: RawRecordView = { loading: true, path: null, text: '', truncated: false, error: null };
      set({ rawRecords: { ...get().rawRecords, [ownerId]: view } });
      let next: RawRecordView;
      try {
        const rec = await client.getRawRecord({
          key,
          fileIndex: origin.fileIndex,
          ...(origin.line !== null ? { line: origin.line } : {}),
          ...(origin.pointer !== null ? { pointer: origin.pointer } : {}),
        });
        next = { loading: false, path: rec.path, text: rec.text, truncated: rec.truncated, error: null };
      } catch (err) {
        next = { ...view, loading: false, error: describeError(err) };
      }
      // Closed meanwhile, or another session opened: drop the answer.
      if (get().open?.key !== key || get().rawRecords[ownerId] !== view) return;
      set({ rawRecords: { ...get().rawRecords, [ownerId]: next } });
    },

    async loadRelated(keys) {
      const missing = keys.filter((k) => !get().related[k] && !attempted.has(k));
      if (missing.length === 0) return;
      for (const k of missing) attempted.add(k);
      try {
        const { sessions } = await client.listSessions({ includeChildren: true });
        const wanted = new Set(missing);
        const found: Record<string, SessionSummary> = {};
        for (const s of sessions) if (wanted.has(s.key)) found[s.key] = s;
        const notFound = { ...get().relatedNotFound };
        for (const k of missing) if (!found[k]) notFound[k] = true;
        set({ related: { ...get().related, ...found }, relatedNotFound: notFound, relatedError: null });
      } catch (err) {
        for (const k of missing) attempted.delete(k);
        set({ relatedError: describeError(err) });
      }
    },

    resetRelated() {
      attempted.clear();
      set({ related: {}, relatedNotFound: {}, relatedError: null });
    },
  };
}
