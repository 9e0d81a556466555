// What the aligned transcript shows: changed and one-sided turns in full, runs of identical turns folded, and where the differences are.
import type { Comparison, RowStatus, TurnRow } from '../../../shared/compare/comparison.ts';

export const STATUS_LABEL: Record<RowStatus, string> = { same: 'identical', changed: 'changed', inserted: 'only in B', deleted: 'only in A' };

export type DisplayRow =
  /** `count` identical turns starting at comparison row `start`, collapsed to one line until expanded. */
  { kind: 'fold'; key: string; start: number; count: number } | { kind: 'turn'; key: string; row: number };

/** Runs of identical turns at least this long fold; a single one between differences stays visible as context. */
export const MIN_FOLD = 2;

export function displayRows(rows: readonly TurnRow[], expanded: ReadonlySet<number>): DisplayRow[] {
  const out: DisplayRow[] = [];
  let i = 0;
  while (i < rows.length) {
    if (rows[i]?.status === 'same' && !expanded.has(i)) {
      let j = i;
      while (j < rows.length && rows[j]?.status === 'same' && !expanded.has(j)) j++;
      if (j - i >= MIN_FOLD) {
        out.push({ kind: 'fold', key: `fold:${i}`, start: i, count: j - i });
        i = j;
        continue;
      }
    }
    out.push({ kind: 'turn', key: `turn:${i}`, row: i });
    i++;
  }
  return out;
}

/** Comparison rows that differ (changed, or only on one side), in order. */
export function differences(c: Comparison): number[] {
  const out: number[] = [];
  c.rows.forEach((r, i) => {
    if (r.status !== 'same') out.push(i);
  });
  return out;
}

/** The next (n) or previous (p) difference from the current row; stays put at either end. */
export function stepDifference(diffs: readonly number[], current: number | null, delta: 1 | -1): number | null {
  if (diffs.length === 0) return null;
  if (current === null) return delta > 0 ? (diffs[0] as number) : (diffs[diffs.length - 1] as number);
  if (delta > 0) return diffs.find((d) => d > current) ?? current;
  for (let k = diffs.length - 1; k >= 0; k--) if ((diffs[k] as number) < current) return diffs[k] as number;
  return current;
}

/** Which display row holds a comparison row (a folded one is never a difference, but may be asked for). */
export function displayIndexOf(display: readonly DisplayRow[], row: number): number {
  return display.findIndex((d) => (d.kind === 'turn' ? d.row === row : row >= d.start && row < d.start + d.count));
}
