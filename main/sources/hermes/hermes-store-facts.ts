// What one row of state.db's sessions table says: title, model, times, parent, tokens, and the cost Hermes recorded.
import type { Cost, TokenUsage } from '../../../shared/session.ts';
import { builtinPricing } from '../../pricing/pricing-table.ts';
import { Fields, isRecord, type WarningList } from '../coerce.ts';
import type { Row } from './hermes-store.ts';
import { epochSecondsToIso } from './hermes-time.ts';

export interface StoreFacts {
  id: string;
  title: string | null;
  model: string | null;
  /** Who billed the calls (billing_provider): the model's provider as Hermes saw it. */
  provider: string | null;
  platform: string | null;
  modelConfig: Record<string, unknown> | null;
  systemPrompt: string | null;
  parentId: string | null;
  startedAt: string | null;
  endedAt: string | null;
  endReason: string | null;
  usage: TokenUsage | null;
  cost: Cost | null;
  /** Billing, call counts and the figures Hermes keeps that have no canonical place. */
  extra: Record<string, unknown>;
  startedSec: number | null;
  endedSec: number | null;
}

/** A JSON column (model_config): the parsed object, or null with a warning when it is not one. */
function jsonObject(f: Fields, key: string): Record<string, unknown> | null {
  const text = f.string(key);
  if (text === null || !text.trim()) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (isRecord(value)) return value;
  } catch {
    // reported below
  }
  f.warnings.add('invalid_json', `Column "${f.name(key)}" does not hold a JSON object; it was skipped.`);
  return null;
}

function tokens(f: Fields): TokenUsage | null {
  const n = (k: string) => Math.max(0, f.number(k) ?? 0);
  const usage = {
    input: n('input_tokens'),
    output: n('output_tokens'),
    cacheRead: n('cache_read_tokens'),
    cacheWrite: n('cache_write_tokens'),
    reasoning: n('reasoning_tokens'),
  };
  return usage.input + usage.output + usage.cacheRead + usage.cacheWrite + usage.reasoning > 0 ? usage : null;
}

/**
 * The session's cost as Hermes recorded it: the actual figure first; an `included` status backed by a real cost
 * source is a known $0; Hermes's own positive estimate next (marked estimated). Without any, the app's price table.
 */
function cost(f: Fields, model: string | null, usage: TokenUsage | null): Cost | null {
  const actual = f.number('actual_cost_usd');
  if (actual !== null && actual >= 0) return { usd: actual, estimated: false };
  const status = f.string('cost_status');
  const source = f.string('cost_source');
  if (status === 'included' && source !== null && source !== '' && source !== 'none') return { usd: 0, estimated: false };
  const estimated = f.number('estimated_cost_usd');
  if (estimated !== null && estimated > 0) return { usd: estimated, estimated: true };
  return builtinPricing.estimate(model, usage);
}

function billing(f: Fields): Record<string, unknown> | null {
  const out: Record<string, unknown> = {};
  const keys: Array<[string, string]> = [
    ['billing_provider', 'provider'],
    ['billing_base_url', 'baseUrl'],
    ['billing_mode', 'mode'],
    ['cost_status', 'costStatus'],
    ['cost_source', 'costSource'],
    ['pricing_version', 'pricingVersion'],
  ];
  for (const [column, name] of keys) {
    const v = f.string(column);
    if (v !== null && v !== '') out[name] = v;
  }
  const estimated = f.number('estimated_cost_usd');
  if (estimated !== null) out.estimatedCostUsd = estimated;
  return Object.keys(out).length ? out : null;
}

export function storeFacts(row: Row, warnings: WarningList): StoreFacts {
  const f = new Fields(row, `sessions[${String(row.id)}]`, warnings);
  const model = f.string('model');
  const usage = tokens(f);
  const startedSec = f.number('started_at');
  const endedSec = f.number('ended_at');
  const extra: Record<string, unknown> = {};
  const bill = billing(f);
  if (bill) extra.billing = bill;
  for (const [column, name] of [
    ['api_call_count', 'apiCalls'],
    ['tool_call_count', 'toolCallsRecorded'],
    ['message_count', 'messagesRecorded'],
  ] as const) {
    const v = f.number(column);
    if (v !== null) extra[name] = v;
  }
  return {
    id: String(row.id),
    title: f.string('title'),
    model,
    provider: f.string('billing_provider') || null,
    platform: f.string('source'),
    modelConfig: jsonObject(f, 'model_config'),
    systemPrompt: f.string('system_prompt'),
    parentId: f.string('parent_session_id') || null,
    startedAt: epochSecondsToIso(startedSec),
    endedAt: epochSecondsToIso(endedSec),
    endReason: f.string('end_reason'),
    usage,
    cost: cost(f, model, usage),
    extra,
    startedSec,
    endedSec,
  };
}

/**
 * True when `child` continues `parent` after Hermes compressed the conversation: the parent ended for compression
 * and the child started after it ended. A child started while the parent ran is a delegated sub-agent.
 */
export function continues(child: StoreFacts, parent: StoreFacts): boolean {
  return parent.endReason === 'compression' && child.startedSec !== null && parent.endedSec !== null && child.startedSec >= parent.endedSec;
}
