// An Amp thread's totals: tokens from the usage ledger or the messages, credits, estimated cost and the model most used.
import type { Cost, Message, TokenUsage } from '../../../shared/session.ts';
import { builtinPricing } from '../../pricing/pricing-table.ts';
import { CostTotal } from '../../pricing/cost-total.ts';
import { addUsage, emptyUsage, type Fields, type WarningList } from '../coerce.ts';
import type { Converted } from './amp-messages.ts';
import { ledgerEvents, readLedger } from './amp-usage.ts';

/** With a ledger, its events are the tokens (attached to the message they produced); otherwise messages[].usage. */
export function applyLedger(
  doc: Fields,
  converted: Converted,
  warnings: WarningList,
): { usage: TokenUsage | null; credits: number | null; unattached: number } {
  const events = ledgerEvents(doc);
  const credits = { sum: 0, any: false };
  const usage = emptyUsage();
  let any = false;
  let unattached = 0;
  if (events === null) {
    for (const m of converted.messages) {
      if (!m.usage) continue;
      addUsage(usage, m.usage);
      any = true;
      const c = (m.annotations as { credits?: number } | undefined)?.credits;
      if (typeof c === 'number') {
        credits.sum += c;
        credits.any = true;
      }
    }
    return { usage: any ? usage : null, credits: credits.any ? credits.sum : null, unattached };
  }
  for (const m of converted.messages) m.usage = null;
  for (const event of readLedger(events, converted.usageByMessageId, warnings)) {
    addUsage(usage, event.usage);
    any = true;
    if (event.credits !== null) {
      credits.sum += event.credits;
      credits.any = true;
    }
    const target = event.toMessageId !== null ? converted.messageByAmpId.get(event.toMessageId) : undefined;
    if (!target) {
      unattached++;
      continue;
    }
    target.usage = target.usage ? { ...target.usage } : emptyUsage();
    addUsage(target.usage, event.usage);
    target.model ??= event.model;
    target.timestamp ??= event.timestamp;
  }
  return { usage: any ? usage : null, credits: credits.any ? credits.sum : null, unattached };
}

/** Amp records credits, not dollars: each message is priced by its model; unknown models leave the total partial. */
export function price(messages: Message[], warnings: WarningList): Cost | null {
  const total = new CostTotal();
  for (const m of messages) {
    if (!m.usage) continue;
    m.cost = builtinPricing.estimate(m.model, m.usage);
    const before = total.unpriced;
    total.add(m.cost, m.usage);
    if (total.unpriced > before)
      warnings.add('unpriced_model', `No price is known for model ${JSON.stringify(m.model ?? 'unknown')}; its tokens are not in the estimated cost.`);
  }
  return total.total();
}

export function mostUsedModel(messages: Message[]): string | null {
  const counts = new Map<string, number>();
  for (const m of messages) if (m.model) counts.set(m.model, (counts.get(m.model) ?? 0) + 1);
  let best: string | null = null;
  for (const [model, n] of counts) if (best === null || n > (counts.get(best) ?? 0)) best = model;
  return best;
}
