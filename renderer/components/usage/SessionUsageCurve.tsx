// A session's cumulative token and cost curve per turn (lazy chunk, with the charts), from the messages loaded so far.
import { useMemo } from 'react';
import type { OpenedSession } from '../../../shared/api.ts';
import '../../usage.css';
import { useChartTheme } from './chart-theme.ts';
import { EChart } from './EChart.tsx';
import { cumulativeCurve } from './session-curve.ts';
import { compact, curveOption, usd } from './usage-options.ts';

export default function SessionUsageCurve({ session }: { session: OpenedSession }) {
  const theme = useChartTheme();
  const points = useMemo(() => cumulativeCurve(session.messages), [session.messages]);
  const option = useMemo(() => curveOption(theme, points), [theme, points]);
  const last = points.at(-1);
  const partial = session.messages.length < session.messagesTotal;
  return (
    <section className="usage-curve" data-testid="usage-curve">
      {partial && (
        <p className="muted" role="status">
          The first {session.messages.length.toLocaleString()} of {session.messagesTotal.toLocaleString()} messages are loaded; the curve covers those (scroll
          the conversation to load more).
        </p>
      )}
      <EChart
        id="session-curve"
        title="Tokens and cost per turn (cumulative)"
        summary={
          last
            ? `${points.length} turns; after the last, ${last.tokens.toLocaleString()} tokens and ${usd(last.costUsd)} in all.`
            : 'No token usage recorded in this session.'
        }
        option={option}
        empty={points.length ? null : 'This session records no token usage per message.'}
        height={280}
        table={() => ({ columns: ['Turn', 'Tokens so far', 'Cost so far'], rows: points.map((p) => ({ cells: [p.turn, compact(p.tokens), usd(p.costUsd)] })) })}
      />
    </section>
  );
}
