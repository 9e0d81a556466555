// Store slice for comparing two sessions: picking the pair in the list, fetching the comparison, swapping sides, live refresh.
import type { Comparison } from '../../shared/compare/comparison.ts';
import { swapComparison } from '../../shared/compare/swap.ts';
import { describeError, type AppClient } from '../transport/client.ts';

export interface CompareView {
  a: string;
  b: string;
  comparison: Comparison | null;
  loading: boolean;
  error: string | null;
}

export interface CompareSlice {
  compare: CompareView | null;
  /** Rows marked for comparing (Ctrl/⌘-click), oldest first, at most two. */
  compareMarks: string[];
  /** "Compare with…": the session waiting for its partner; the next row clicked becomes B. */
  comparePick: string | null;
  openCompare(a: string, b: string): Promise<void>;
  closeCompare(): void;
  /** B on the left: the comparison is turned around at once, without asking the services again. */
  swapCompare(): void;
  toggleCompareMark(key: string): void;
  clearCompareMarks(): void;
  startComparePick(key: string): void;
  cancelComparePick(): void;
  /**
   * A click on a list row. True when it was the comparison's (a mark, or the partner being picked);
   * otherwise any comparison is left so the row opens as usual.
   */
  compareRowClick(key: string, toggle: boolean): boolean;
  disposeCompare(): void;
}

/** Files being written change in bursts; a comparison is fetched again once a burst settles. */
const REFRESH_MS = 400;

export function createCompareSlice(client: AppClient, set: (partial: Partial<CompareSlice>) => void, get: () => CompareSlice): CompareSlice {
  let seq = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const load = async (a: string, b: string, quiet: boolean) => {
    const mine = ++seq;
    const prev = get().compare;
    const keep = quiet && prev?.a === a && prev.b === b ? prev.comparison : null;
    set({ compare: { a, b, comparison: keep, loading: true, error: null } });
    try {
      const comparison = await client.compareSessions({ a, b });
      if (mine !== seq) return;
      set({ compare: { a, b, comparison, loading: false, error: null } });
    } catch (err) {
      if (mine !== seq) return;
      set({ compare: { a, b, comparison: keep, loading: false, error: describeError(err) } });
    }
  };

  // Listens for file changes only while a comparison is shown.
  let unsubscribe: (() => void) | null = null;
  const listen = () => {
    unsubscribe ??= client.subscribe((event) => {
      if (event.name !== 'sessionsChanged') return;
      const view = get().compare;
      if (!view) return;
      const touched = [...event.payload.changed, ...event.payload.removed];
      // An empty event means "resync everything".
      if (touched.length > 0 && !touched.includes(view.a) && !touched.includes(view.b)) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        const now = get().compare;
        if (now) void load(now.a, now.b, true);
      }, REFRESH_MS);
    });
  };
  const stop = () => {
    unsubscribe?.();
    unsubscribe = null;
    if (timer) clearTimeout(timer);
    timer = null;
  };

  return {
    compare: null,
    compareMarks: [],
    comparePick: null,

    async openCompare(a, b) {
      set({ compareMarks: [], comparePick: null });
      listen();
      await load(a, b, false);
    },

    closeCompare() {
      seq++;
      stop();
      set({ compare: null });
    },

    swapCompare() {
      const view = get().compare;
      if (!view) return;
      set({ compare: { ...view, a: view.b, b: view.a, comparison: view.comparison ? swapComparison(view.comparison) : null } });
      // A fetch still under way answers for the old order; ask again in the new one.
      if (view.loading) void load(view.b, view.a, true);
    },

    toggleCompareMark(key) {
      const marks = get().compareMarks;
      set({ compareMarks: marks.includes(key) ? marks.filter((k) => k !== key) : [...marks, key].slice(-2), comparePick: null });
    },

    clearCompareMarks: () => set({ compareMarks: [] }),

    startComparePick: (key) => set({ comparePick: key, compareMarks: [] }),

    cancelComparePick: () => set({ comparePick: null }),

    compareRowClick(key, toggle) {
      const { comparePick } = get();
      if (toggle) {
        get().toggleCompareMark(key);
        return true;
      }
      if (comparePick && comparePick !== key) {
        void get().openCompare(comparePick, key);
        return true;
      }
      if (comparePick) set({ comparePick: null });
      if (get().compare) get().closeCompare();
      return false;
    },

    disposeCompare: stop,
  };
}
