// Store slice for the open session's structured summary: load it, save a hand-written one, remove it (the Summary card's state).
import type { MethodInput } from '../../shared/api.ts';
import type { SummaryRecord } from '../../shared/summary-api.ts';
import { describeError, type AppClient } from '../transport/client.ts';

/** What the detail view's Summary card shows for one session. */
export interface SummaryView {
  key: string;
  /** The vault's summary, else the session's own; null when it has neither. */
  summary: SummaryRecord | null;
  loading: boolean;
  saving: boolean;
  error: string | null;
}

/** The fields a person writes; lists left out are empty. */
export type SummaryDraft = NonNullable<MethodInput<'setSummary'>['summary']>;

/** Who a summary written in the app is by. */
export const HAND_AUTHOR = 'you';

export interface SummarySlice {
  summaryView: SummaryView | null;
  /** Fetches a session's summary (when it opens, or its file changed). */
  loadSummary(key: string): Promise<void>;
  /** Saves (or with null removes) the vault's summary of a session; true when it was saved. */
  saveSummary(key: string, draft: SummaryDraft | null): Promise<boolean>;
}

export function createSummarySlice(client: AppClient, set: (partial: Partial<SummarySlice>) => void, get: () => SummarySlice): SummarySlice {
  let seq = 0;
  const patch = (key: string, change: Partial<SummaryView>) => {
    const v = get().summaryView;
    if (v?.key === key) set({ summaryView: { ...v, ...change } });
  };
  return {
    summaryView: null,

    async loadSummary(key) {
      const mine = ++seq;
      const before = get().summaryView;
      // Another session's summary is never shown while this one loads.
      set({ summaryView: { key, summary: before?.key === key ? before.summary : null, loading: true, saving: false, error: null } });
      try {
        const { summary } = await client.getSummary({ key });
        if (mine === seq) patch(key, { summary, loading: false });
      } catch (err) {
        if (mine === seq) patch(key, { loading: false, error: describeError(err) });
      }
    },

    async saveSummary(key, draft) {
      const mine = ++seq;
      patch(key, { saving: true, error: null });
      try {
        const { summary } = await client.setSummary({ key, summary: draft, author: HAND_AUTHOR });
        if (mine === seq) patch(key, { summary, saving: false });
        return true;
      } catch (err) {
        if (mine === seq) patch(key, { saving: false, error: describeError(err) });
        return false;
      }
    },
  };
}
