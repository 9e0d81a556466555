// A strip the height of a line showing where along the alignment the differences are; a mark jumps to its turn.
import type { Comparison } from '../../../shared/compare/comparison.ts';
import { STATUS_LABEL } from './compare-rows.ts';

export function CompareSummaryBar(props: {
  c: Comparison;
  diffs: readonly number[];
  current: number | null;
  onJump(row: number): void;
  onStep(delta: 1 | -1): void;
}) {
  const { c, diffs, current, onJump, onStep } = props;
  const total = Math.max(1, c.rows.length);
  const at = current === null ? -1 : diffs.indexOf(current);
  const { same, changed, inserted, deleted } = c.stats;
  return (
    <div className="cmp-summary" data-testid="compare-summary">
      <div className="cmp-counts">
        <span className="st-changed">{changed} changed</span> · <span className="st-deleted">{deleted} only in A</span> ·{' '}
        <span className="st-inserted">{inserted} only in B</span> · <span className="muted">{same} identical</span>
      </div>
      <div className="cmp-strip" role="group" aria-label="Where the differences are">
        {diffs.map((row) => {
          const status = c.rows[row]?.status ?? 'changed';
          return (
            <button
              key={row}
              type="button"
              className={`cmp-mark st-${status}${row === current ? ' current' : ''}`}
              style={{ left: `${(row / total) * 100}%`, width: `${Math.max(100 / total, 0.8)}%` }}
              title={`Turn ${row + 1}: ${STATUS_LABEL[status]}`}
              data-testid="compare-mark"
              onClick={() => onJump(row)}
            />
          );
        })}
      </div>
      <div className="cmp-nav">
        <button type="button" onClick={() => onStep(-1)} disabled={diffs.length === 0} title="Previous difference (p)">
          ↑ p
        </button>
        <span data-testid="compare-position">{diffs.length === 0 ? 'no differences' : `${at >= 0 ? at + 1 : '–'} of ${diffs.length}`}</span>
        <button type="button" onClick={() => onStep(1)} disabled={diffs.length === 0} title="Next difference (n)">
          n ↓
        </button>
      </div>
    </div>
  );
}
