// A session's usage curve: cumulative tokens and cost after each prompt's turn.
import { describe, expect, it } from 'vitest';
import type { Message, Operation } from '../../../shared/session.ts';
import { cumulativeCurve } from './session-curve.ts';

const msg = (role: Message['role'], text: string, tokens = 0, usd = 0, timestamp: string | null = null): Message => ({
  id: Math.random().toString(),
  role,
  timestamp,
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

  describe('from the model calls, where only the operations carry usage (a Cline-family task)', () => {
    const call = (timestamp: string | null, tokens: number, usd: number): Operation => ({
      id: Math.random().toString(),
      type: 'llm',
      name: 'claude-sonnet-4',
      timestamp,
      endedAt: null,
      status: null,
      latencyMs: null,
      detail: null,
      vcs: null,
      usage: { input: tokens, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
      cost: { usd, estimated: false },
      parentId: null,
      childSessionKey: null,
      origin: null,
    });
    const at = (minute: number) => `2026-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
    const task = [
      msg('user', 'one', 0, 0, at(0)),
      msg('assistant', 'a', 0, 0, at(1)),
      msg('user', 'two', 0, 0, at(10)),
      msg('assistant', 'b', 0, 0, at(11)),
      msg('user', 'three', 0, 0, at(20)),
    ];

    it('counts each call in the turn of the last prompt before it, with a point for a turn that made none', () => {
      const curve = cumulativeCurve(task, [call(at(1), 100, 0.01), call(at(2), 50, 0.02), call(at(12), 25, 0.005)]);
      expect(curve.map((p) => [p.turn, p.tokens])).toEqual([
        [1, 150],
        [2, 175],
        [3, 175],
      ]);
      expect(curve[1]?.costUsd).toBeCloseTo(0.035, 10);
    });

    it('puts a call before every prompt in the first turn, and one without a time in the turn of the call before it', () => {
      const curve = cumulativeCurve(task, [call('2026-03-01T09:00:00.000Z', 5, 0), call(at(11), 10, 0), call(null, 20, 0)]);
      expect(curve.map((p) => p.tokens)).toEqual([5, 35, 35]);
    });

    it('leaves calls after the last loaded message for when their messages load', () => {
      const curve = cumulativeCurve(task.slice(0, 2), [call(at(1), 100, 0), call(at(12), 25, 0)], at(1));
      expect(curve.map((p) => [p.turn, p.tokens])).toEqual([[1, 100]]);
    });

    it('counts each call as a turn without timed prompts, and keeps to the messages when they carry usage', () => {
      expect(cumulativeCurve([msg('user', 'go')], [call(null, 10, 0), call(null, 20, 0)]).map((p) => p.tokens)).toEqual([10, 30]);
      const both = cumulativeCurve([msg('user', 'one', 0, 0, at(0)), msg('assistant', 'a', 7, 0, at(1))], [call(at(1), 1000, 0)]);
      expect(both.map((p) => p.tokens)).toEqual([7]);
    });
  });
});
