// Session totals for the header: the tool's own numbers when it recorded them, else the sum of what its parts recorded.
import type { Cost, Session, TokenUsage } from '../shared/session.ts';
import { addCost, addUsage } from './format.ts';
import { buildOpTree, opTotals } from './components/transcript/op-tree.ts';

export interface SessionTotals {
  usage: TokenUsage | null;
  cost: Cost | null;
  /** Where the numbers come from, so a summed figure is not mistaken for a recorded one. */
  source: 'session' | 'messages' | 'operations' | null;
}

export function sessionTotals(session: Session): SessionTotals {
  if (session.usage || session.cost) {
    return { usage: session.usage, cost: session.cost ?? messageCost(session), source: 'session' };
  }
  let usage: TokenUsage | null = null;
  for (const m of session.messages) usage = addUsage(usage, m.usage);
  const cost = messageCost(session);
  if (usage || cost) return { usage, cost, source: 'messages' };
  if (session.operations.length > 0) {
    const totals = opTotals(buildOpTree(session.operations));
    if (totals.usage || totals.cost) return { usage: totals.usage, cost: totals.cost, source: 'operations' };
  }
  return { usage: null, cost: null, source: null };
}

function messageCost(session: Session): Cost | null {
  let cost: Cost | null = null;
  for (const m of session.messages) cost = addCost(cost, m.cost);
  return cost;
}
