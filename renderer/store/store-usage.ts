// Store slice for the usage dashboard: its aggregates for the search box's query (debounced, stale answers dropped), and its breakdown.
import type { DashboardBreakdown, UsageDashboard } from '../../shared/usage-api.ts';
import { describeError, type AppClient } from '../transport/client.ts';
import { searchQueryFor } from '../search-query.ts';
import type { ListFilters } from './store-vault.ts';

export interface UsageView {
  /** The query the figures answer (the box's text with the vault chips). */
  query: string;
  data: UsageDashboard | null;
  loading: boolean;
  error: string | null;
}

export interface UsageSlice {
  usage: UsageView | null;
  usageBreakdown: DashboardBreakdown;
  /** How many dashboards are on screen: only then do query changes ask for new figures. */
  usageWatchers: number;
  /** A dashboard appears (returns what to call when it goes). */
  watchUsage(): () => void;
  setUsageBreakdown(breakdown: DashboardBreakdown): void;
  /** Asks again after the typing pauses, when a dashboard is shown. */
  scheduleUsage(): void;
  loadUsage(): Promise<void>;
  /** Shows the dashboard: no session open, no comparison. */
  showUsage(): void;
  disposeUsage(): void;
}

type Host = UsageSlice & {
  filter: string;
  listFilters: ListFilters;
  open: unknown;
  selectedKey: string | null;
  compare: unknown;
  closeCompare(): void;
};

export const USAGE_DEBOUNCE_MS = 200;

export function createUsageSlice(
  client: AppClient,
  set: (partial: Partial<UsageSlice> & { open?: null }) => void,
  get: () => Host,
  debounceMs = USAGE_DEBOUNCE_MS,
): UsageSlice {
  let seq = 0;
  /** The request whose answer is on screen, and what it asked (breakdown and query); the latest request's question. */
  let shownSeq = 0;
  let shownKey = '';
  let latestKey = '';
  let timer: ReturnType<typeof setTimeout> | null = null;
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

  return {
    usage: null,
    usageBreakdown: 'model',
    usageWatchers: 0,

    watchUsage() {
      set({ usageWatchers: get().usageWatchers + 1 });
      const { usage, filter, listFilters } = get();
      if (!usage || usage.query !== searchQueryFor(filter.trim(), listFilters)) void get().loadUsage();
      let gone = false;
      return () => {
        if (gone) return;
        gone = true;
        set({ usageWatchers: Math.max(0, get().usageWatchers - 1) });
      };
    },

    setUsageBreakdown(breakdown) {
      set({ usageBreakdown: breakdown });
      void get().loadUsage();
    },

    scheduleUsage() {
      if (get().usageWatchers === 0) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        void get().loadUsage();
      }, debounceMs);
    },

    async loadUsage() {
      const mine = ++seq;
      const { filter, listFilters, usage, usageBreakdown } = get();
      const query = searchQueryFor(filter.trim(), listFilters);
      const key = `${usageBreakdown}\n${query}`;
      latestKey = key;
      set({ usage: { query, data: usage?.data ?? null, loading: true, error: null } });
      try {
        const data = await client.usageDashboard({ query, timezone: timeZone, breakdown: usageBreakdown });
        // An answer to the question still asked is shown even if it was asked again since (the list's reload asks again
        // as the page starts): the page does not wait for the second answer. An older answer never replaces a newer one.
        if (mine <= shownSeq || (mine !== seq && key !== latestKey)) return;
        shownSeq = mine;
        const loading = mine !== seq;
        const shown = get().usage?.data;
        // The same figures again keep the drawn charts as they are (no second drawing of every chart).
        if (shown && shownKey === key && sameFigures(shown, data)) set({ usage: { query, data: shown, loading, error: null } });
        else set({ usage: { query, data, loading, error: null } });
        shownKey = key;
      } catch (err) {
        if (mine === seq) set({ usage: { query, data: null, loading: false, error: describeError(err) } });
      }
    },

    showUsage() {
      if (get().compare) get().closeCompare();
      set({ open: null });
    },

    disposeUsage() {
      seq++;
      latestKey = '';
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

/** The same figures, however long either took to add up. */
function sameFigures(a: UsageDashboard, b: UsageDashboard): boolean {
  return JSON.stringify({ ...a, tookMs: 0 }) === JSON.stringify({ ...b, tookMs: 0 });
}
