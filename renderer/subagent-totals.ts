// A parent session's total including its sub-agents: its own figures plus each sub-agent's listed tokens and cost.
import { totalTokens } from '../shared/summarize.ts';
import type { Cost, SessionSummary, TokenUsage } from '../shared/session.ts';

export interface WithSubAgents {
  tokens: number | null;
  cost: Cost | null;
  /** Sub-agents whose summary is not loaded yet (or that recorded no cost), so the total may still grow. */
  missing: number;
}

export function withSubAgents(own: { usage: TokenUsage | null; cost: Cost | null }, children: Array<SessionSummary | undefined>): WithSubAgents {
  let tokens = totalTokens(own.usage);
  let cost: Cost | null = own.cost ? { ...own.cost } : null;
  let missing = 0;
  for (const child of children) {
    if (!child) {
      missing++;
      continue;
    }
    if (child.totalTokens !== null) tokens = (tokens ?? 0) + child.totalTokens;
    if (child.costUsd !== null) cost = { ...(cost ?? { usd: 0, estimated: true }), usd: (cost?.usd ?? 0) + child.costUsd };
    else if (child.totalTokens) missing++;
  }
  return { tokens, cost, missing };
}
