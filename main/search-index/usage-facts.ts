// Everything the scan worker works out of a session for the usage reports and the dashboard, stored beside its index rows.
import type { Session } from '../../shared/session.ts';
import { rateLimitRows, type RateLimitRow } from './usage-limits.ts';
import { usageRows, type UsageRow } from './usage-rows.ts';
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

export function usageFacts(session: Session): UsageFacts {
  return { hours: usageRows(session), tools: toolUses(session), turns: turnCount(session), limits: rateLimitRows(session) };
}
