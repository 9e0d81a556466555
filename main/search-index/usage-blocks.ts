// Claude's 5-hour blocks as ccusage's `blocks` defines them, worked out from the index's hourly usage rows and their call times.
import type { UsageBlock } from '../../shared/usage-api.ts';
import type { TokenCounts } from './usage-rows.ts';

export const BLOCK_MS = 5 * 3_600_000;
const HOUR_MS = 3_600_000;

/** One hour of one file's usage (all its models), with the hour's first and last call. */
export interface BlockHour extends TokenCounts {
  hourMs: number;
  fileId: number;
  firstMs: number;
  lastMs: number;
  costUsd: number;
  unpriced: number;
  calls: number;
  models: string[];
  /** With a breakdown: the value of it these calls have. */
  group?: string | null;
}

interface Open {
  startMs: number;
  firstMs: number;
  lastMs: number;
  hours: BlockHour[];
}

const iso = (ms: number) => new Date(ms).toISOString();

function close(block: Open, nowMs: number, blockMs: number): UsageBlock {
  const sum = (k: 'input' | 'output' | 'cacheRead' | 'cacheWrite' | 'reasoning' | 'costUsd' | 'unpriced' | 'calls') =>
    block.hours.reduce((n, h) => n + h[k], 0);
  const input = sum('input');
  const output = sum('output');
  const cacheRead = sum('cacheRead');
  const cacheWrite = sum('cacheWrite');
  const reasoning = sum('reasoning');
  const totalTokens = input + output + cacheRead + cacheWrite + reasoning;
  const costUsd = sum('costUsd');
  const endMs = block.startMs + blockMs;
  const isActive = nowMs - block.lastMs < blockMs && nowMs < endMs;
  // ccusage: the rate between the first and the last call; none when they are the same moment.
  const minutes = (block.lastMs - block.firstMs) / 60_000;
  const burnRate =
    minutes > 0
      ? { tokensPerMinute: totalTokens / minutes, tokensPerMinuteForIndicator: (input + output) / minutes, costPerHour: (costUsd / minutes) * 60 }
      : null;
  let projection: UsageBlock['projection'] = null;
  if (isActive && burnRate) {
    const remaining = Math.max(0, (endMs - nowMs) / 60_000);
    projection = {
      totalTokens: Math.round(totalTokens + burnRate.tokensPerMinute * remaining),
      totalCost: Math.round((costUsd + (burnRate.costPerHour / 60) * remaining) * 100) / 100,
      remainingMinutes: Math.round(remaining),
    };
  }
  const models: string[] = [];
  for (const h of block.hours) for (const m of h.models) if (!models.includes(m)) models.push(m);
  const groups = new Map<string | null, NonNullable<UsageBlock['groups']>[number]>();
  for (const h of block.hours) {
    if (h.group === undefined) continue;
    const g = groups.get(h.group) ?? { group: h.group, totalTokens: 0, costUsd: 0, unpricedCalls: 0 };
    g.totalTokens += h.input + h.output + h.cacheRead + h.cacheWrite + h.reasoning;
    g.costUsd += h.costUsd;
    g.unpricedCalls += h.unpriced;
    groups.set(h.group, g);
  }
  return {
    id: iso(block.startMs),
    startTime: iso(block.startMs),
    endTime: iso(endMs),
    actualEndTime: iso(block.lastMs),
    isActive,
    isGap: false,
    calls: sum('calls'),
    sessions: new Set(block.hours.map((h) => h.fileId)).size,
    models,
    input,
    output,
    cacheRead,
    cacheWrite,
    reasoning,
    totalTokens,
    costUsd,
    unpricedCalls: sum('unpriced'),
    burnRate,
    projection,
    ...(groups.size ? { groups: [...groups.values()].sort((a, b) => b.totalTokens - a.totalTokens) } : {}),
  };
}

function gap(fromMs: number, toMs: number, blockMs: number): UsageBlock | null {
  if (toMs - fromMs <= blockMs) return null;
  const start = fromMs + blockMs;
  return {
    id: `gap-${iso(start)}`,
    startTime: iso(start),
    endTime: iso(toMs),
    actualEndTime: null,
    isActive: false,
    isGap: true,
    calls: 0,
    sessions: 0,
    models: [],
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    reasoning: 0,
    totalTokens: 0,
    costUsd: 0,
    unpricedCalls: 0,
    burnRate: null,
    projection: null,
  };
}

/**
 * ccusage's rule, call by call in time order: a block starts at the hour of its first call and takes every call until
 * one comes more than 5 hours after the block's start or after the call before it; a wait of more than 5 hours is
 * shown as a gap from 5 hours after the last call to the next one. The index keeps calls per hour with the hour's
 * first and last time, which decides the same: a call past the 5 hours lies in a later hour than the block's fifth,
 * and the rest of its hour follows it. (Only a call exactly 5 hours after the start, to the millisecond, stays in
 * its block in ccusage and opens the next here.)
 */
export function buildBlocks(hours: readonly BlockHour[], nowMs: number, blockMs = BLOCK_MS): UsageBlock[] {
  const sorted = [...hours].sort((a, b) => a.hourMs - b.hourMs || a.firstMs - b.firstMs);
  const out: UsageBlock[] = [];
  let open: Open | null = null;
  for (const h of sorted) {
    if (open && (h.firstMs - open.startMs > blockMs || h.firstMs - open.lastMs > blockMs)) {
      out.push(close(open, nowMs, blockMs));
      const idle = gap(open.lastMs, h.firstMs, blockMs);
      if (idle) out.push(idle);
      open = null;
    }
    if (!open) open = { startMs: Math.floor(h.firstMs / HOUR_MS) * HOUR_MS, firstMs: h.firstMs, lastMs: h.lastMs, hours: [] };
    open.hours.push(h);
    open.firstMs = Math.min(open.firstMs, h.firstMs);
    open.lastMs = Math.max(open.lastMs, h.lastMs);
  }
  if (open) out.push(close(open, nowMs, blockMs));
  return out;
}
