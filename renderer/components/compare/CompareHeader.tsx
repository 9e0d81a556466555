// The header diff: each field of A and B side by side with the difference; identical fields folded behind a toggle.
import { useState } from 'react';
import type { HeaderRow } from '../../../shared/compare/comparison.ts';
import { formatTimestamp, plural } from '../../format.ts';
import { isoFromMs } from '../../../shared/iso-time.ts';

const GROUPS: Record<HeaderRow['group'], string> = {
  session: 'Session',
  model: 'Model',
  config: 'Effective config',
  time: 'Time',
  counts: 'Counts',
  tokens: 'Tokens',
  cost: 'Cost',
};

/** Times are shown in the viewer's own zone (the comparison carries them as numbers too). */
function value(row: HeaderRow, side: 'a' | 'b'): string {
  const n = side === 'a' ? row.av : row.bv;
  const iso = row.unit === 'time' && n !== null ? isoFromMs(n) : null;
  if (iso !== null) return formatTimestamp(iso);
  return (side === 'a' ? row.a : row.b) ?? '—';
}

/** More tokens, cost or time reads as worse (red), less as better (green); counts and dates stay neutral. */
function deltaTone(row: HeaderRow): string {
  if (!row.delta || row.delta === 'same' || row.av === null || row.bv === null) return '';
  if (row.unit !== 'tokens' && row.unit !== 'usd' && row.unit !== 'ms') return '';
  return row.bv > row.av ? 'up' : 'down';
}

export function CompareHeader({ rows }: { rows: readonly HeaderRow[] }) {
  const [all, setAll] = useState(false);
  const shown = all ? rows : rows.filter((r) => !r.same);
  const differing = rows.filter((r) => !r.same).length;
  const hidden = rows.length - differing;
  return (
    <details className="cmp-header" data-testid="compare-header" open>
      <summary>
        Header{' '}
        <span className="muted">
          — {differing} of {rows.length} fields differ
        </span>
      </summary>
      <table className="grid cmp-header-table">
        <colgroup>
          <col className="c-label" />
          <col className="c-side" />
          <col className="c-side" />
          <col className="c-delta" />
        </colgroup>
        <thead>
          <tr>
            <th>Field</th>
            <th>A</th>
            <th>B</th>
            <th>Difference</th>
          </tr>
        </thead>
        <tbody>
          {shown.flatMap((r, i) => {
            const out = [];
            if (i === 0 || shown[i - 1]?.group !== r.group) {
              out.push(
                <tr key={`g${i}`} className="cmp-group">
                  <th colSpan={4}>{GROUPS[r.group]}</th>
                </tr>,
              );
            }
            out.push(
              <tr key={i} className={r.same ? 'same' : 'differs'} data-testid="compare-header-row" data-label={r.label}>
                <th scope="row" title={r.label}>
                  {r.label}
                </th>
                <td className="mono">{value(r, 'a')}</td>
                <td className="mono">{value(r, 'b')}</td>
                <td className={`cmp-delta ${deltaTone(r)}`} data-testid="compare-delta">
                  {r.delta && r.delta !== 'same' ? (
                    r.delta
                  ) : r.same ? (
                    ''
                  ) : (
                    <span className="muted" title="differs">
                      ≠
                    </span>
                  )}
                </td>
              </tr>,
            );
            return out;
          })}
        </tbody>
      </table>
      {hidden > 0 && (
        <button type="button" className="link-button" onClick={() => setAll((v) => !v)}>
          {all ? 'Hide identical fields' : `Show ${plural(hidden, 'identical field')}`}
        </button>
      )}
    </details>
  );
}
