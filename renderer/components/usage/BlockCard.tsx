// The current (or latest) 5-hour Claude block: its tokens and cost, time left, burn rate and projection; and the latest rate limits a tool recorded.
import type { RateLimitOut, UsageBlock } from '../../../shared/usage-api.ts';
import { useNow } from '../../use-now.ts';
import { compact, usd } from './usage-options.ts';
import { clockTime } from './clock-time.ts';

const span = (ms: number) => `${Math.floor(ms / 3_600_000)}h ${Math.round((ms % 3_600_000) / 60_000)}m`;

function windowName(l: RateLimitOut): string {
  if (l.windowMinutes === 300) return '5-hour';
  if (l.windowMinutes === 10080) return 'Weekly';
  return l.windowMinutes ? `${l.windowMinutes}-minute` : l.window;
}

function Limit({ limit, now }: { limit: RateLimitOut; now: number }) {
  const reset = limit.resetsAt ? Date.parse(limit.resetsAt) : null;
  return (
    <li data-testid="usage-limit">
      <span className="usage-limit-name">
        {limit.source} {windowName(limit)} limit{limit.plan ? ` (${limit.plan})` : ''}
      </span>
      <meter min={0} max={100} value={Math.min(100, limit.usedPercent)} aria-label={`${limit.source} ${windowName(limit)} limit used`} />
      <span>
        {limit.usedPercent}% used as of {clockTime(limit.at, now)}
        {reset !== null &&
          (reset <= now ? ` · reset since ${clockTime(limit.resetsAt as string, now)}` : ` · resets ${clockTime(limit.resetsAt as string, now)}`)}
      </span>
    </li>
  );
}

export function BlockCard({ block, limits }: { block: UsageBlock | null; limits: RateLimitOut[] }) {
  const now = useNow(60_000);
  return (
    <section className="usage-block" data-testid="usage-block" aria-labelledby="usage-block-title">
      <h2 id="usage-block-title">{block?.isActive ? 'Current 5-hour block' : 'Latest 5-hour block'}</h2>
      {!block && <p className="muted">No Claude Code usage in these sessions.</p>}
      {block && (
        <dl className="usage-figures">
          <div>
            <dt>Window</dt>
            <dd>
              {clockTime(block.startTime, now)} – {clockTime(block.endTime, now)}
              {block.isActive && <span className="badge active"> active, {span(Date.parse(block.endTime) - now)} left</span>}
            </dd>
          </div>
          <div>
            <dt>Tokens</dt>
            <dd>{block.totalTokens.toLocaleString()}</dd>
          </div>
          <div>
            <dt>Cost</dt>
            <dd>{block.unpricedCalls ? `≥ ${usd(block.costUsd)}` : usd(block.costUsd)}</dd>
          </div>
          {block.burnRate && (
            <div>
              <dt>Burn rate</dt>
              <dd>
                {compact(block.burnRate.tokensPerMinute)} tokens/min · {usd(block.burnRate.costPerHour)}/h
              </dd>
            </div>
          )}
          {block.projection && (
            <div>
              <dt>Projected at the end</dt>
              <dd>
                {compact(block.projection.totalTokens)} tokens · {usd(block.projection.totalCost)}
              </dd>
            </div>
          )}
        </dl>
      )}
      {limits.length > 0 && (
        <>
          <h3>Latest rate limits recorded</h3>
          <ul className="usage-limits">
            {limits.map((l) => (
              <Limit key={`${l.source}-${l.window}-${l.windowMinutes}`} limit={l} now={now} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
