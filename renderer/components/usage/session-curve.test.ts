// A session's usage curve: cumulative tokens and cost after each prompt's turn.
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../shared/session.ts';
import { cumulativeCurve } from './session-curve.ts';

const msg = (role: Message['role'], text: string, tokens = 0, usd = 0): Message => ({
  id: Math.random().toString(),
  role,
  timestamp: null,
  model: null,
  usage: tokens ? { input: tokens, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 } : null,
  cost: usd ? { usd, estimated: true } : null,
  parts: [{ type: 'text', text }],
  agentId: null,
  origin: null,
});

describe('cumulative usage per turn', () => {
  it('adds up each turn on top of the ones before', () => {
    const curve = cumulativeCurve([
      msg('user', 'one'),
      msg('assistant', 'a', 100, 0.01),
      msg('assistant', 'b', 50, 0.02),
      msg('user', 'two'),
      msg('assistant', 'c', 25, 0.005),
    ]);
    expect(curve.map((p) => [p.turn, p.tokens])).toEqual([
      [1, 150],
      [2, 175],
    ]);
    expect(curve[0]?.costUsd).toBeCloseTo(0.03, 10);
    expect(curve[1]?.costUsd).toBeCloseTo(0.035, 10);
  });

  it('counts each call as a turn in a session without prompts, and gives nothing without usage', () => {
    expect(cumulativeCurve([msg('assistant', 'a', 10), msg('assistant', 'b', 20)]).map((p) => p.tokens)).toEqual([10, 30]);
    expect(cumulativeCurve([msg('user', 'hi'), msg('assistant', 'hello')])).toEqual([]);
  });
});
