// The two operations timelines side by side, aligned by type and name, with offsets from each session's start.
import type { AlignRow, ComparedSide } from '../../../shared/compare/comparison.ts';
import { formatDuration } from '../../../shared/compare/delta.ts';
import { STATUS_LABEL } from './compare-rows.ts';

function Op({ side, index }: { side: ComparedSide; index: number | null }) {
  const op = index !== null ? side.operations[index] : undefined;
  if (!op) return <td className="cmp-gap" />;
  return (
    <td style={{ paddingLeft: 8 + op.depth * 14 }}>
      <span className="mono">{op.type}</span>
      {op.name && <span> {op.name}</span>}
      {op.status && <span className={`status status-${op.status}`}> {op.status}</span>}
      {op.vcs && <span className="chip">{op.vcs}</span>}
      <span className="muted">
        {op.offsetMs !== null ? ` +${formatDuration(op.offsetMs)}` : ''}
        {op.latencyMs !== null ? ` · ${formatDuration(op.latencyMs)}` : ''}
      </span>
    </td>
  );
}

export function CompareOperations({ a, b, rows }: { a: ComparedSide; b: ComparedSide; rows: readonly AlignRow[] }) {
  if (rows.length === 0) return <p className="muted">Neither session recorded operations.</p>;
  return (
    <table className="grid cmp-ops">
      <thead>
        <tr>
          <th>A ({a.operations.length})</th>
          <th>B ({b.operations.length})</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={i} className={`st-${r.status}`} data-testid="compare-op" data-status={r.status}>
            <Op side={a} index={r.a} />
            <Op side={b} index={r.b} />
            <td className="muted">{r.status === 'same' ? '' : STATUS_LABEL[r.status]}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
