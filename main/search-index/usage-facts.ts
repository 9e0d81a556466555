// Everything the scan worker works out of a session for the usage reports and the dashboard, stored beside its index rows.
import type { Session } from '../../shared/session.ts';
import { rateLimitRows, type RateLimitRow } from './usage-limits.ts';
import { machineHourCut, usageRows, type UsageRow } from './usage-rows.ts';
import { toolUses, turnCount, type ToolUse } from './usage-tools.ts';

export interface UsageFacts {
  /** Tokens and cost per hour and model. */
  hours: UsageRow[];
  tools: ToolUse[];
  turns: number;
  /** The provider's rate-limit state, where the format records one. */
  limits: RateLimitRow[];
}

export const noUsageFacts = (): UsageFacts => ({ hours: [], tools: [], turns: 0, limits: [] });

/** `cutAt`: where hourly rows are cut besides the UTC hour (usage-rows.ts: the machine's local hour; a test passes a zone's). */
export function usageFacts(session: Session, cutAt: (atMs: number) => number = machineHourCut): UsageFacts {
  return { hours: usageRows(session, cutAt), tools: toolUses(session), turns: turnCount(session), limits: rateLimitRows(session) };
}
