// The aligned transcripts in one scrolling list (so both columns always scroll together), identical stretches folded.
import { useEffect, useMemo } from 'react';
import type { Comparison } from '../../../shared/compare/comparison.ts';
import { displayIndexOf, displayRows, type DisplayRow } from './compare-rows.ts';
import { useVirtualRows } from '../../use-virtual-rows.ts';
import { CompareTurn } from './CompareTurn.tsx';

function estimate(c: Comparison, d: DisplayRow | undefined): number {
  if (!d || d.kind === 'fold') return 40;
  const row = c.rows[d.row];
  const steps = row?.status === 'changed' ? row.steps.length : Math.max(c.a.turns[row?.a ?? -1]?.steps.length ?? 0, c.b.turns[row?.b ?? -1]?.steps.length ?? 0);
  return 90 + steps * 56;
}

/** "turns 3–7", by A's numbering (identical turns exist on both sides). */
function foldSpan(c: Comparison, d: Extract<DisplayRow, { kind: 'fold' }>): string {
  const first = (c.rows[d.start]?.a ?? 0) + 1;
  const last = (c.rows[d.start + d.count - 1]?.a ?? 0) + 1;
  return `turns ${first}–${last}`;
}

export function CompareTranscript(props: { c: Comparison; current: number | null; expanded: ReadonlySet<number>; onExpand(rows: number[]): void }) {
  const { c, current, expanded, onExpand } = props;
  const rows = useMemo(() => displayRows(c.rows, expanded), [c, expanded]);
  const { listRef, virtualizer } = useVirtualRows({
    count: rows.length,
    estimateSize: (i) => estimate(c, rows[i]),
    getItemKey: (i) => rows[i]?.key ?? i,
  });

  useEffect(() => {
    if (current === null) return;
    const at = displayIndexOf(rows, current);
    if (at < 0) return;
    virtualizer.scrollToIndex(at, { align: 'start' });
  }, [current, rows, virtualizer]);

  if (c.rows.length === 0) return <p className="muted">Neither session has any turns.</p>;
  const margin = virtualizer.options.scrollMargin;
  return (
    <div className="cmp-transcript">
      <div className="cmp-columns">
        <span>A · {c.a.title}</span>
        <span>B · {c.b.title}</span>
      </div>
      <div ref={listRef} className="vlist" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((v) => {
          const d = rows[v.index];
          if (!d) return null;
          return (
            <div key={v.key} data-index={v.index} ref={virtualizer.measureElement} className="vrow" style={{ transform: `translateY(${v.start - margin}px)` }}>
              {d.kind === 'fold' ? (
                <button
                  type="button"
                  className="cmp-fold"
                  data-testid="compare-fold"
                  onClick={() => onExpand(Array.from({ length: d.count }, (_, k) => d.start + k))}
                >
                  {d.count} identical turns
                  <span className="muted"> ({foldSpan(c, d)}) · click to show</span>
                </button>
              ) : (
                <CompareTurn c={c} index={d.row} current={d.row === current} />
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
