// A small inline-SVG chart of cumulative tokens (or cost, when no tokens were recorded) over each session's turns.
import type { Comparison } from '../../../shared/compare/comparison.ts';
import { formatNumber, formatUsd } from '../../../shared/compare/delta.ts';
import { chartGeometry } from './compare-chart.ts';
import { plural } from '../../format.ts';

const W = 260;
const H = 80;

export function CompareChart({ c }: { c: Comparison }) {
  const tokens = (c.a.cumulativeTokens.at(-1) ?? 0) > 0 || (c.b.cumulativeTokens.at(-1) ?? 0) > 0;
  const a = tokens ? c.a.cumulativeTokens : c.a.cumulativeCostUsd;
  const b = tokens ? c.b.cumulativeTokens : c.b.cumulativeCostUsd;
  const g = chartGeometry(a, b, W, H);
  if (!g.a && !g.b) return <p className="muted cmp-chart-empty">Neither session recorded tokens or cost per turn.</p>;
  const show = (n: number) => (tokens ? formatNumber(n) : formatUsd(n));
  return (
    <figure className="cmp-chart" data-testid="compare-chart">
      <svg width={W} height={H} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Cumulative ${tokens ? 'tokens' : 'cost'} per turn`}>
        <line x1={4} y1={H - 4} x2={W - 4} y2={H - 4} className="axis" />
        {g.a && <polyline points={g.a.points} className="line-a" data-testid="chart-line-a" />}
        {g.b && <polyline points={g.b.points} className="line-b" data-testid="chart-line-b" />}
      </svg>
      <figcaption>
        <span className="key-a">A {g.a ? show(g.a.last) : '—'}</span> <span className="key-b">B {g.b ? show(g.b.last) : '—'}</span>
        <span className="muted">
          {' '}
          cumulative {tokens ? 'tokens' : 'cost'} over {plural(g.turns, 'turn')}
        </span>
      </figcaption>
    </figure>
  );
}
