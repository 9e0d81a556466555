// A Goose session's tokens and cost: one operation per usage_ledger request, else the session row's accumulated totals.
import type { Cost, Operation, TokenUsage } from '../../../shared/session.ts';
import { builtinPricing } from '../../pricing/pricing-table.ts';
import { CostTotal } from '../../pricing/cost-total.ts';
import { addUsage, emptyUsage, Fields, type WarningList } from '../coerce.ts';
import type { Row } from './goose-store.ts';
import { gooseTime, pointerToken } from './goose-time.ts';

export interface GooseUsage {
  usage: TokenUsage | null;
  cost: Cost | null;
  operations: Operation[];
}

const tokensOf = (f: Fields, prefix = ''): TokenUsage => {
  const n = (k: string) => Math.max(0, f.number(`${prefix}${k}`) ?? 0);
  return { input: n('input_tokens'), output: n('output_tokens'), cacheRead: n('cache_read_tokens'), cacheWrite: n('cache_write_tokens'), reasoning: 0 };
};

const total = (u: TokenUsage) => u.input + u.output + u.cacheRead + u.cacheWrite + u.reasoning;

/** A ledger row's cost: what Goose recorded (estimated unless the provider reported it), else the price table's. */
function requestCost(f: Fields, model: string | null, usage: TokenUsage): Cost | null {
  const usd = f.number('cost');
  if (usd !== null && usd >= 0) return { usd, estimated: f.string('cost_source') !== 'provider_reported' };
  return builtinPricing.estimate(model, usage);
}

function fromLedger(rows: Row[], sessionModel: string | null, warnings: WarningList): GooseUsage {
  const usage = emptyUsage();
  const cost = new CostTotal();
  const operations = rows.map((row): Operation => {
    const f = new Fields(row, `usage_ledger[${String(row._row)}]`, warnings);
    const model = f.string('model') ?? sessionModel;
    const tokens = tokensOf(f);
    const c = requestCost(f, model, tokens);
    addUsage(usage, tokens);
    cost.add(c, tokens);
    const compaction = (f.number('is_compaction') ?? 0) !== 0;
    return {
      id: `usage-${String(row._row)}`,
      type: compaction ? 'compaction' : 'llm',
      name: model,
      timestamp: gooseTime(f.raw.created_timestamp),
      endedAt: null,
      status: null,
      latencyMs: null,
      detail: { costSource: f.string('cost_source'), totalTokens: f.number('total_tokens') },
      vcs: null,
      usage: tokens,
      cost: c,
      parentId: null,
      childSessionKey: null,
      origin: { fileIndex: 0, line: null, pointer: `/rows/usage_ledger/${pointerToken(String(row._row))}` },
    };
  });
  return { usage, cost: cost.total(), operations };
}

/** Without a ledger (older Goose, or none written yet), the session row's accumulated_* totals and accumulated_cost. */
function fromSession(session: Fields, model: string | null): GooseUsage {
  const usage = tokensOf(session, 'accumulated_');
  if (total(usage) === 0) return { usage: null, cost: null, operations: [] };
  const usd = session.number('accumulated_cost');
  return { usage, cost: usd !== null && usd >= 0 ? { usd, estimated: false } : builtinPricing.estimate(model, usage), operations: [] };
}

export function gooseUsage(session: Fields, ledger: Row[] | null, model: string | null, warnings: WarningList): GooseUsage {
  return ledger?.length ? fromLedger(ledger, model, warnings) : fromSession(session, model);
}
