// What the user reads for a cost: partial totals say so, and a parent's total adds its sub-agents' figures.
import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '../shared/session.ts';
import { addCost, formatCost } from './format.ts';
import { withSubAgents } from './subagent-totals.ts';

const child = (totalTokens: number | null, costUsd: number | null) => ({ totalTokens, costUsd }) as SessionSummary;
const usage = { input: 1000, output: 200, cacheRead: 0, cacheWrite: 0, reasoning: 0 };

describe('partial costs', () => {
  it('shows a total that leaves out unpriced messages as a lower bound, never as the cost', () => {
    expect(formatCost({ usd: 0.0018, estimated: true, unpricedMessages: 3 })).toBe('≥ $0.0018 (estimated), 3 messages unpriced');
    expect(formatCost({ usd: 1.5, estimated: false, unpricedMessages: 1 })).toBe('≥ $1.50, 1 message unpriced');
    expect(formatCost({ usd: 0.0018, estimated: true })).toBe('≈ $0.0018 (estimated)');
  });

  it('keeps a sum partial when one part is', () => {
    expect(addCost({ usd: 1, estimated: false }, { usd: 0.5, estimated: true, unpricedMessages: 2 })).toEqual({
      usd: 1.5,
      estimated: true,
      unpricedMessages: 2,
    });
  });
});

describe('a parent with sub-agents', () => {
  it('adds the sub-agents tokens and cost to its own', () => {
    const total = withSubAgents({ usage, cost: { usd: 0.01, estimated: true } }, [child(500, 0.002), child(300, 0.001)]);
    expect([total.tokens, total.cost?.usd.toFixed(6), total.missing]).toEqual([2000, '0.013000', 0]);
    expect(formatCost(total.cost)).toBe('≈ $0.01 (estimated)');
  });

  it('says how many sub-agents are not in the total yet (not loaded, or unpriced)', () => {
    const total = withSubAgents({ usage, cost: { usd: 0.01, estimated: true } }, [undefined, child(300, null), child(0, null)]);
    expect(total).toEqual({ tokens: 1500, cost: { usd: 0.01, estimated: true }, missing: 2 });
  });
});
