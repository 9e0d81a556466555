// ai-agent accounting entries and totals turned into canonical token usage and cost (recorded, else estimated).
import type { Cost, TokenUsage } from '../../../shared/session.ts';
import { builtinPricing } from '../../pricing/pricing-table.ts';
import { CostTotal } from '../../pricing/cost-total.ts';
import { addUsage, emptyUsage, type Fields } from '../coerce.ts';

/** A token count: negative numbers are not counts and are dropped with a warning. */
function count(f: Fields, key: string): number | null {
  const n = f.number(key);
  if (n === null) return null;
  if (n < 0) {
    f.warnings.add('wrong_type', `Field "${f.name(key)}" is a negative token count (${n}); it was read as 0.`);
    return 0;
  }
  return n;
}

/** One AccountingEntry ({type: llm|tool, tokens{...}, costUsd, charactersIn/Out, ...}) as written by ai-agent. */
export interface EntryFacts {
  type: string | null;
  usage: TokenUsage | null;
  costUsd: number | null;
  provider: string | null;
  actualProvider: string | null;
  model: string | null;
  stopReason: string | null;
  status: string | null;
  error: string | null;
  latencyMs: number | null;
  timestampMs: number | null;
  charactersIn: number | null;
  charactersOut: number | null;
  mcpServer: string | null;
  command: string | null;
  agentId: string | null;
  callPath: string | null;
  txnId: string | null;
  parentTxnId: string | null;
  originTxnId: string | null;
}

/** `tokens{inputTokens, outputTokens, cacheReadInputTokens | cachedTokens, cacheWriteInputTokens, reasoningTokens}`. */
function entryUsage(tokens: Fields | null): TokenUsage | null {
  if (!tokens) return null;
  const input = count(tokens, 'inputTokens');
  const output = count(tokens, 'outputTokens');
  // OpenAI-style entries only say cachedTokens; totalTokens = input + output + cached shows it is not part of input.
  const cacheRead = count(tokens, 'cacheReadInputTokens') ?? count(tokens, 'cachedTokens');
  const cacheWrite = count(tokens, 'cacheWriteInputTokens');
  const reasoning = count(tokens, 'reasoningTokens');
  if ([input, output, cacheRead, cacheWrite, reasoning].every((v) => v === null)) return null;
  return { input: input ?? 0, output: output ?? 0, cacheRead: cacheRead ?? 0, cacheWrite: cacheWrite ?? 0, reasoning: reasoning ?? 0 };
}

export function readAccountingEntry(f: Fields): EntryFacts {
  return {
    type: f.string('type'),
    usage: entryUsage(f.object('tokens')),
    costUsd: f.number('costUsd'),
    provider: f.string('provider'),
    actualProvider: f.string('actualProvider'),
    model: f.string('model'),
    stopReason: f.string('stopReason'),
    status: f.string('status'),
    error: f.string('error'),
    latencyMs: f.number('latency'),
    timestampMs: f.number('timestamp'),
    charactersIn: count(f, 'charactersIn'),
    charactersOut: count(f, 'charactersOut'),
    mcpServer: f.string('mcpServer'),
    command: f.string('command'),
    agentId: f.string('agentId'),
    callPath: f.string('callPath'),
    txnId: f.string('txnId'),
    parentTxnId: f.string('parentTxnId'),
    originTxnId: f.string('originTxnId'),
  };
}

/** `{tokensIn, tokensOut, tokensCacheRead, tokensCacheWrite, costUsd}`: opTree totals and v3 ledger accounting. */
export function readTotals(f: Fields | null): { usage: TokenUsage | null; costUsd: number | null } {
  if (!f) return { usage: null, costUsd: null };
  const input = count(f, 'tokensIn');
  const output = count(f, 'tokensOut');
  const cacheRead = count(f, 'tokensCacheRead');
  const cacheWrite = count(f, 'tokensCacheWrite');
  const any = [input, output, cacheRead, cacheWrite].some((v) => v !== null);
  return {
    usage: any ? { input: input ?? 0, output: output ?? 0, cacheRead: cacheRead ?? 0, cacheWrite: cacheWrite ?? 0, reasoning: 0 } : null,
    costUsd: f.number('costUsd'),
  };
}

/** The recorded cost when there is one, else the pricing table's estimate for the model (null when unknown). */
export function costOf(model: string | null, usage: TokenUsage | null, costUsd: number | null): Cost | null {
  if (costUsd !== null) return { usd: costUsd, estimated: false };
  return builtinPricing.estimate(model, usage);
}

/** Adds up usage and cost; the sum is estimated as soon as one part of it was, partial when a part had no price. */
export class UsageSum {
  usage: TokenUsage | null = null;
  #cost = new CostTotal();

  add(usage: TokenUsage | null, cost: Cost | null): void {
    if (usage) {
      this.usage ??= emptyUsage();
      addUsage(this.usage, usage);
    }
    this.#cost.add(cost, usage);
  }

  cost(): Cost | null {
    return this.#cost.total();
  }
}
