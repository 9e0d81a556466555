// `session-vault usage blocks`: Claude's 5-hour blocks (active one with burn rate and projection) and the latest rate limits, as text.
import type { MethodOutput } from '../../shared/api.ts';
import type { RateLimitOut, UsageBlock } from '../../shared/usage-api.ts';
import { sanitizeForTerminal } from './terminal-text.ts';
import { costText } from '../search-index/usage-cost-text.ts';
import { countText } from './count-text.ts';

type Blocks = MethodOutput<'usageBlocks'>;

const minutesText = (min: number) => `${Math.floor(min / 60)}h ${Math.round(min % 60)}m`;
/** `2026-01-31 14:00` in UTC: the blocks are UTC hours, as ccusage's are. */
const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;

function status(b: UsageBlock, now: number): string {
  const start = Date.parse(b.startTime);
  if (b.isGap) return `(${Math.round((Date.parse(b.endTime) - start) / 3_600_000)}h gap)`;
  if (b.isActive) return `ACTIVE: ${minutesText((now - start) / 60_000)} elapsed, ${minutesText((Date.parse(b.endTime) - now) / 60_000)} left`;
  return minutesText((Date.parse(b.actualEndTime ?? b.startTime) - start) / 60_000);
}

function activeLines(b: UsageBlock): string[] {
  const lines: string[] = [];
  if (b.burnRate) lines.push(`Burn rate: ${countText(b.burnRate.tokensPerMinute)} tokens/min, $${b.burnRate.costPerHour.toFixed(2)}/hour`);
  if (b.projection)
    lines.push(
      `Projected by ${when(b.endTime)} UTC: ${countText(b.projection.totalTokens)} tokens, $${b.projection.totalCost.toFixed(2)} (${b.projection.remainingMinutes} min left at this rate)`,
    );
  return lines;
}

function limitLine(l: RateLimitOut, now: number): string {
  const window =
    l.windowMinutes === 300 ? '5-hour' : l.windowMinutes === 10080 ? 'weekly' : l.windowMinutes ? `${countText(l.windowMinutes)}-minute` : l.window;
  const reset = l.resetsAt ? (Date.parse(l.resetsAt) <= now ? `, reset since ${when(l.resetsAt)} UTC` : `, resets ${when(l.resetsAt)} UTC`) : '';
  const plan = l.plan ? ` (${sanitizeForTerminal(l.plan)} plan)` : '';
  return `  ${sanitizeForTerminal(l.source)} ${window} limit${plan}: ${l.usedPercent}% used as of ${when(l.at)} UTC${reset}`;
}

export function formatBlocks(report: Blocks, now = Date.now()): string {
  const out: string[] = [];
  if (!report.blocks.length) out.push('No Claude Code usage in these sessions and days.');
  else {
    const head = ['Block start (UTC)', 'Duration/status', 'Models', 'Tokens', 'Cost'];
    // With a breakdown, each block's groups follow it, indented.
    const body = report.blocks.flatMap((b) => [
      [
        when(b.startTime),
        status(b, now),
        b.isGap ? '-' : sanitizeForTerminal(b.models.join(', ')),
        b.isGap ? '-' : countText(b.totalTokens),
        b.isGap ? '-' : costText(b),
      ],
      ...(b.groups ?? []).map((g) => [
        '',
        `  ${sanitizeForTerminal(g.group ?? '(none)')}`,
        '',
        countText(g.totalTokens),
        costText({ costUsd: g.costUsd, unpricedCalls: g.unpricedCalls }),
      ]),
    ]);
    const rows = [head, ...body];
    const widths = head.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
    const line = (r: string[]) =>
      r
        .map((c, i) => (i >= 3 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd();
    out.push(line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line));
    const active = report.blocks.find((b) => b.isActive);
    if (active) out.push('', ...activeLines(active));
  }
  if (report.limits.length) out.push('', 'Latest rate limits recorded:', ...report.limits.map((l) => limitLine(l, now)));
  return `${out.join('\n')}\n`;
}
