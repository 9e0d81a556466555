// Joins updates.jsonl to the chat_history messages: times by matching anchors in order, tool outcomes by call id, usage per prompt turn.
import type { Cost, Message, TokenUsage } from '../../../shared/session.ts';
import { builtinPricing } from '../../pricing/pricing-table.ts';
import { CostTotal } from '../../pricing/cost-total.ts';
import { addUsage, emptyUsage, type WarningList } from '../coerce.ts';
import { textOf } from '../claude-code/claude-code-blocks.ts';
import type { Anchor, GrokUpdates, TurnUsage } from './grok-updates.ts';

function callIds(m: Message, type: 'tool_call' | 'tool_result'): string[] {
  return m.parts.flatMap((p) => (p.type === type && p.callId ? [p.callId] : []));
}

function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function matches(m: Message, a: Anchor): boolean {
  const results = callIds(m, 'tool_result');
  if (m.role === 'tool') return a.toolResultId !== null && results.includes(a.toolResultId);
  const calls = callIds(m, 'tool_call');
  if (m.role === 'assistant' && calls.length && a.toolCallIds.length) return a.toolCallIds.some((id) => calls.includes(id));
  if (a.toolCallIds.length || a.toolResultId !== null) return false;
  const text = squash(textOf(m.parts));
  const anchor = squash(a.text);
  if (m.role === 'user' && a.role === 'user') return text !== '' && (text === anchor || text.includes(anchor) || anchor.includes(text));
  return m.role === 'assistant' && a.role === 'assistant' && text !== '' && text === anchor;
}

/** Each message takes the time of the first anchor after the last matched one that it matches; unmatched messages keep none. */
export function applyTimes(messages: Message[], anchors: readonly Anchor[]): void {
  let next = 0;
  for (const m of messages) {
    for (let i = next; i < anchors.length; i++) {
      const anchor = anchors[i] as Anchor;
      if (!matches(m, anchor)) continue;
      m.timestamp = anchor.at;
      next = i + 1;
      break;
    }
  }
}

/** A failed tool call update marks its result as an error; a completed one as a success. */
export function applyToolStatus(messages: Message[], status: ReadonlyMap<string, 'completed' | 'failed'>): void {
  for (const m of messages) {
    for (const p of m.parts) {
      if (p.type !== 'tool_result' || p.callId === null) continue;
      const s = status.get(p.callId);
      if (s) p.isError = s === 'failed';
    }
  }
}

function turnCost(turn: TurnUsage, model: string | null): Cost | null {
  if (turn.costUsd !== null) return { usd: turn.costUsd, estimated: false };
  return builtinPricing.estimate(model, turn.usage);
}

/**
 * Turn k's tokens go on the last assistant message of the k-th prompt turn in chat_history; turns with no such
 * message count for the session only. Grok records each turn's cost in ticks; turns without ticks are priced.
 */
export function applyTurnUsage(
  messages: Message[],
  turnEnds: readonly number[],
  updates: GrokUpdates,
  sessionModel: string | null,
  warnings: WarningList,
): { usage: TokenUsage | null; cost: Cost | null } {
  if (!updates.turns.length) return { usage: null, cost: null };
  const usage = emptyUsage();
  const total = new CostTotal();
  updates.turns.forEach((turn, k) => {
    addUsage(usage, turn.usage);
    const target = messages[turnEnds[k] ?? -1];
    // Flat (older) payloads name no model: the turn ran on the answer's model, else the session's.
    const model = turn.model ?? target?.model ?? sessionModel;
    const cost = turnCost(turn, model);
    total.add(cost, turn.usage);
    if (!cost)
      warnings.add(
        'unpriced_model',
        `No price is known for model ${JSON.stringify(model ?? 'unknown')} and the turn recorded no cost; its tokens are not in the cost.`,
      );
    if (!target) return;
    target.usage = turn.usage;
    target.cost = cost;
    target.model ??= turn.model;
  });
  return { usage, cost: total.total() };
}
