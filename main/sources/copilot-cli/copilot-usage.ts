// Copilot CLI token usage and cost: each shutdown's per-model totals, and the output counts of a run that has not shut down yet.
import type { Cost, Operation, TokenUsage } from '../../../shared/session.ts';
import { builtinPricing } from '../../pricing/pricing-table.ts';
import { CostTotal } from '../../pricing/cost-total.ts';
import { addUsage, emptyUsage } from '../coerce.ts';
import type { CopilotState, ModelMetric } from './copilot-state.ts';

/** GitHub bills Copilot by AI credits from this day on; `totalNanoAiu` is then what the session cost (1 credit = $0.01). */
export const USAGE_BILLING_FROM = Date.UTC(2026, 5, 1);
const USD_PER_NANO_AIU = 0.01 / 1e9;

/**
 * Copilot reports input with the cached part included and output with reasoning included (as OpenAI does, and as
 * agentsview reads them): each token goes in one bucket here, so none is priced twice.
 */
export function metricUsage(m: ModelMetric): TokenUsage {
  return {
    input: Math.max(0, m.input - m.cacheRead - m.cacheWrite),
    output: Math.max(0, m.output - m.reasoning),
    cacheRead: m.cacheRead,
    cacheWrite: m.cacheWrite,
    reasoning: m.reasoning,
  };
}

const hasTokens = (u: TokenUsage) => u.input + u.output + u.cacheRead + u.cacheWrite + u.reasoning > 0;

function usageOperation(id: string, model: string, usage: TokenUsage, ts: string | null, line: number, detail: Record<string, unknown>): Operation {
  return {
    id,
    type: 'usage',
    name: model || null,
    timestamp: ts,
    endedAt: null,
    status: null,
    latencyMs: null,
    detail,
    vcs: null,
    usage,
    cost: null,
    parentId: null,
    childSessionKey: null,
    origin: { fileIndex: 0, line, pointer: null },
  };
}

export interface CopilotUsage {
  operations: Operation[];
  usage: TokenUsage | null;
  cost: Cost | null;
}

/**
 * One usage operation per model and shutdown (the run's totals), plus the output tokens the messages after the last
 * shutdown counted (a run still going, or killed): the only counts the file has for it.
 */
export function copilotUsage(state: CopilotState, startMs: number | null): CopilotUsage {
  const operations: Operation[] = [];
  for (const m of state.metrics) {
    const usage = metricUsage(m);
    if (!hasTokens(usage)) continue;
    const detail: Record<string, unknown> = { source: m.source === 'modelMetrics' ? 'session.shutdown modelMetrics' : 'session.shutdown tokenDetails' };
    if (m.requests !== null) detail.requests = m.requests;
    const op = usageOperation(`usage:${m.line}:${m.model}`, m.model, usage, m.ts, m.line, detail);
    if (m.nanoAiu !== null && startMs !== null && startMs >= USAGE_BILLING_FROM) op.cost = { usd: m.nanoAiu * USD_PER_NANO_AIU, estimated: false };
    operations.push(op);
  }
  for (const [model, tail] of state.tailOutput) {
    const usage = { ...emptyUsage(), output: tail.output };
    operations.push(usageOperation(`usage:tail:${model}`, model, usage, tail.ts, tail.line, { source: 'assistant.message outputTokens', partial: true }));
  }
  if (!operations.length) return { operations, usage: null, cost: null };
  const usage = emptyUsage();
  const total = new CostTotal();
  for (const op of operations) {
    addUsage(usage, op.usage!);
    op.cost ??= builtinPricing.estimate(op.name, op.usage);
    total.add(op.cost, op.usage);
    if (op.cost) continue;
    if (op.name) state.warnings.add('unpriced_model', `No price is known for model ${JSON.stringify(op.name)}; its tokens are not in the estimated cost.`);
    else state.warnings.add('unpriced_model', 'The session does not say which model produced some of its tokens; they are not in the estimated cost.');
  }
  // From June 2026 the session's own AI-unit total is its cost, whatever each model's share was.
  const recorded = state.nanoAiu !== null && startMs !== null && startMs >= USAGE_BILLING_FROM;
  return { operations, usage, cost: recorded ? { usd: state.nanoAiu! * USD_PER_NANO_AIU, estimated: false } : total.total() };
}
