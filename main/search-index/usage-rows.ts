// A session's token usage and cost per hour and model, worked out in the scan worker and stored in the index's `usage` table.
import type { Cost, Session, TokenUsage } from '../../shared/session.ts';

/** The five token counts every usage row and total carries. */
export interface TokenCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
}

/** Usage of one hour (UTC, start in ms) and one model of one session file. */
export interface UsageRow extends TokenCounts {
  hourMs: number;
  model: string | null;
  /** Dollars of the priced calls (recorded by the tool, or estimated). */
  costUsd: number;
  /** Calls with tokens and no known price, left out of costUsd. */
  unpriced: number;
  /** Calls with usage. */
  calls: number;
  /** The first and last call's time in this hour (ms): what 5-hour blocks need to match ccusage's to the second. */
  firstMs: number;
  lastMs: number;
}

const HOUR_MS = 3_600_000;

const hasTokens = (u: TokenUsage) => u.input + u.output + u.cacheRead + u.cacheWrite + u.reasoning > 0;
/** A call with neither tokens nor a cost (an error turn, a synthetic message) counts for nothing, as in ccusage. */
const counts = (c: { usage: TokenUsage | null; cost: Cost | null }) => (c.usage !== null && hasTokens(c.usage)) || (c.cost !== null && c.cost.usd !== 0);

function timeOf(iso: string | null | undefined): number | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
}

interface Call {
  timestamp: string | null;
  model: string | null;
  usage: TokenUsage | null;
  cost: Cost | null;
}

/**
 * Each call counts in the hour it happened (ccusage gives each message its own day too), so a session spanning
 * midnight is split between the days. Calls come from the messages; a format that records usage only on its
 * operations, or only for the whole session, counts those instead (the session's last activity then dates it).
 */
export function usageRows(session: Session): UsageRow[] {
  const fallbackMs = timeOf(session.updatedAt) ?? timeOf(session.createdAt) ?? 0;
  const sessionModel = session.model?.name ?? null;
  const fromMessages = session.messages.filter(counts);
  const fromOperations = session.operations.filter(counts);
  const calls: Call[] = fromMessages.length
    ? fromMessages
    : fromOperations.length
      ? fromOperations.map((o) => ({ timestamp: o.timestamp, model: null, usage: o.usage, cost: o.cost }))
      : counts(session)
        ? [{ timestamp: null, model: null, usage: session.usage, cost: session.cost }]
        : [];
  const rows = new Map<string, UsageRow>();
  for (const call of calls) {
    const at = timeOf(call.timestamp) ?? fallbackMs;
    const hourMs = Math.floor(at / HOUR_MS) * HOUR_MS;
    const model = call.model ?? sessionModel;
    const id = `${hourMs}\n${model ?? ''}`;
    let row = rows.get(id);
    if (!row) {
      row = { hourMs, model, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, costUsd: 0, unpriced: 0, calls: 0, firstMs: at, lastMs: at };
      rows.set(id, row);
    }
    row.firstMs = Math.min(row.firstMs, at);
    row.lastMs = Math.max(row.lastMs, at);
    const u = call.usage;
    if (u) {
      row.input += u.input;
      row.output += u.output;
      row.cacheRead += u.cacheRead;
      row.cacheWrite += u.cacheWrite;
      row.reasoning += u.reasoning;
    }
    row.calls++;
    if (call.cost) {
      row.costUsd += call.cost.usd;
      row.unpriced += call.cost.unpricedMessages ?? 0;
    } else if (u && hasTokens(u)) {
      row.unpriced++;
    }
  }
  return [...rows.values()];
}
