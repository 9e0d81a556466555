// A session's cumulative token and cost curve per turn (lazy chunk, with the charts), from the messages loaded so far.
import { useMemo } from 'react';
import type { OpenedSession } from '../../../shared/api.ts';
import '../../usage.css';
import { useChartTheme } from './chart-theme.ts';
import { EChart } from './EChart.tsx';
import { cumulativeCurve } from './session-curve.ts';
import { compact, curveOption, usd } from './usage-options.ts';

/** The time of the last loaded message that has one: model calls after it belong to messages not loaded yet. */
function lastTime(messages: OpenedSession['messages']): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const at = messages[i]?.timestamp;
    if (at) return at;
  }
  return null;
}

export default function SessionUsageCurve({ session }: { session: OpenedSession }) {
  const theme = useChartTheme();
  const partial = session.messages.length < session.messagesTotal;
  const { messages, operations } = session;
  const points = useMemo(() => cumulativeCurve(messages, operations, partial ? lastTime(messages) : null), [messages, operations, partial]);
  const option = useMemo(() => curveOption(theme, points), [theme, points]);
  const last = points.at(-1);
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
            ? `${points.length} ${points.length === 1 ? 'turn' : 'turns'}; after the last, ${last.tokens.toLocaleString()} tokens and ${usd(last.costUsd)} in all.`
            : 'No token usage recorded in this session.'
        }
        option={option}
        empty={points.length ? null : 'This session records no token usage per message or model call.'}
        height={280}
        table={() => ({ columns: ['Turn', 'Tokens so far', 'Cost so far'], rows: points.map((p) => ({ cells: [p.turn, compact(p.tokens), usd(p.costUsd)] })) })}
      />
    </section>
  );
}
