// Reads the token usage and recorded cost on a Pi assistant message (`usage: {input, output, cacheRead, cacheWrite, cost}`).
import type { Cost, TokenUsage } from '../../../shared/session.ts';
import type { Fields } from '../coerce.ts';

export interface PiUsage {
  usage: TokenUsage;
  /** `usage.cost.total`, the price Pi worked out for the call; null when it recorded none. */
  recorded: Cost | null;
}

/** A token count; absent or negative (a writer's bug) counts as none. */
function count(n: number | null): number {
  return n === null ? 0 : Math.max(0, n);
}

/**
 * Pi-family writers name the cache fields differently (`cacheRead`/`cacheWrite`, `cacheCreation`, `cache.{read,write}`);
 * a usage object with none of the known fields is no usage at all (null).
 */
export function readPiUsage(usage: Fields | null): PiUsage | null {
  if (!usage) return null;
  const cache = usage.object('cache');
  const input = usage.number('input');
  const output = usage.number('output');
  const cacheRead = usage.number('cacheRead') ?? cache?.number('read') ?? null;
  const cacheWrite = usage.number('cacheWrite') ?? usage.number('cacheCreation') ?? cache?.number('write') ?? null;
  const reasoning = usage.number('reasoning');
  if (input === null && output === null && cacheRead === null && cacheWrite === null && reasoning === null) return null;
  const total = usage.object('cost')?.number('total') ?? null;
  return {
    usage: { input: count(input), output: count(output), cacheRead: count(cacheRead), cacheWrite: count(cacheWrite), reasoning: count(reasoning) },
    recorded: total !== null ? { usd: total, estimated: false } : null,
  };
}
