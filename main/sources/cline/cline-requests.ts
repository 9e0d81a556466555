// A Cline-family task's requests to the model (ui_messages.json's api_req_started records) as operations: each with its own time, tokens and cost, so usage counts in the hour it was spent.
import type { Cost, Operation } from '../../../shared/session.ts';
import { CostTotal } from '../../pricing/cost-total.ts';
import { builtinPricing } from '../../pricing/pricing-table.ts';
import type { UiRequest } from './cline-ui.ts';
import { modelAt, type ModelTimeline } from './cline-models.ts';

export interface TaskRequests {
  operations: Operation[];
  /** The requests' costs summed (recorded, else estimated from the price table; `unpricedMessages` for the rest); null when none is priced. */
  cost: Cost | null;
}

/**
 * One `llm` operation per request. A recorded cost wins; a request that recorded none is priced from the price table
 * (marked estimated) with its own model, else the one task_metadata.json had in use at its time (`timeline`), else the
 * task's (`model`). `fileIndex`: ui_messages.json among the session's files (null: not among them, so no origin).
 */
export function taskRequests(calls: readonly UiRequest[], timeline: ModelTimeline, model: string | null, fileIndex: number | null): TaskRequests {
  const total = new CostTotal();
  const operations = calls.map((call, n): Operation => {
    const name = call.model ?? modelAt(timeline, call.at) ?? model;
    const cost: Cost | null = call.cost !== null ? { usd: call.cost, estimated: false } : builtinPricing.estimate(name, call.usage);
    total.add(cost, call.usage);
    return {
      id: `request-${n + 1}`,
      type: 'llm',
      name,
      timestamp: call.at,
      endedAt: null,
      status: null,
      latencyMs: null,
      detail: null,
      vcs: null,
      usage: call.usage,
      cost,
      parentId: null,
      childSessionKey: null,
      origin: fileIndex === null ? null : { fileIndex, line: null, pointer: `/${call.index}` },
    };
  });
  return { operations, cost: total.total() };
}
