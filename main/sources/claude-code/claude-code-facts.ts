// Session-level facts derived from a read Claude Code conversation: prompts, model, estimated cost, liveness.
import { ACTIVE_WINDOW_MS } from '../../../shared/activity.ts';
import type { Cost, Message, ModelInfo } from '../../../shared/session.ts';
import { builtinPricing } from '../../pricing/pricing-table.ts';
import { CostTotal } from '../../pricing/cost-total.ts';
import type { WarningList } from '../coerce.ts';
import { textOf } from './claude-code-blocks.ts';
import type { Conversation } from './claude-code-state.ts';

/** Annotated records (command caveats, slash commands) and sub-agent prompts are not what the user asked. */
export function isPrompt(m: Message): boolean {
  const notes = (m.annotations ?? {}) as Record<string, unknown>;
  return m.role === 'user' && m.agentId === null && notes.isMeta !== true && notes.command !== true && textOf(m.parts).trim() !== '';
}

export function mostUsedModel(conv: Conversation): ModelInfo | null {
  let best: string | null = null;
  let bestCount = 0;
  for (const [model, count] of conv.models) if (count > bestCount) [best, bestCount] = [model, count];
  if (best === null) return null;
  return { provider: 'anthropic', name: best, parameters: conv.effort !== null ? { effort: conv.effort } : {} };
}

/** Per-message costs: the one the tool recorded (costUSD), else the pricing table's; unknown models stay unpriced. */
export function priceMessages(messages: Message[], warnings: WarningList): Cost | null {
  const total = new CostTotal();
  for (const m of messages) {
    if (!m.usage) continue;
    if (!m.cost || m.cost.estimated) m.cost = builtinPricing.estimate(m.model, m.usage);
    const before = total.unpriced;
    total.add(m.cost, m.usage);
    if (total.unpriced > before) {
      warnings.add('unpriced_model', `No price is known for model ${JSON.stringify(m.model ?? 'unknown')}; its tokens are not in the estimated cost.`);
    }
  }
  return total.total();
}

/** Still running: the file changed within ACTIVE_WINDOW_MS and the main conversation has no final answer yet. */
export function isRunning(messages: Message[], mtimeMs: number, now: number): boolean {
  if (now - mtimeMs >= ACTIVE_WINDOW_MS) return false;
  // The records' own clock wins over the file's: a session copied (or touched) today is not running again.
  const lastWritten = messages.reduce((t, m) => Math.max(t, m.timestamp ? Date.parse(m.timestamp) || 0 : 0), 0);
  if (lastWritten > 0 && now - lastWritten >= ACTIVE_WINDOW_MS) return false;
  const last = messages.filter((m) => m.agentId === null && m.role !== 'system').at(-1);
  return !(last?.role === 'assistant' && !last.parts.some((p) => p.type === 'tool_call'));
}
