// Header totals: the tool's own numbers first, else sums of messages, else of operations, each saying where they came from.
import { describe, expect, it } from 'vitest';
import { sessionTotals } from './session-totals.ts';
import { session } from './test-fixtures.ts';
import { msg, op, opTreeSession, text } from './test-sessions.ts';

const u = (input: number, output: number) => ({ input, output, cacheRead: 0, cacheWrite: 0, reasoning: 0 });

describe('sessionTotals', () => {
  it('prefers what the session recorded', () => {
    const s = session({ key: 'x:1', usage: u(10, 5), cost: { usd: 1, estimated: false }, messages: [msg('assistant', [text('a')], { usage: u(99, 99) })] });
    expect(sessionTotals(s)).toEqual({ usage: u(10, 5), cost: { usd: 1, estimated: false }, source: 'session' });
  });

  it('sums the messages when the session has no totals, estimated if any message cost was', () => {
    const s = session({
      key: 'x:2',
      messages: [
        msg('assistant', [text('a')], { usage: u(100, 20), cost: { usd: 0.01, estimated: false } }),
        msg('assistant', [text('b')], { usage: u(50, 10), cost: { usd: 0.02, estimated: true } }),
      ],
    });
    const t = sessionTotals(s);
    expect(t.usage).toEqual(u(150, 30));
    expect(t.cost?.usd).toBeCloseTo(0.03);
    expect(t.cost?.estimated).toBe(true);
    expect(t.source).toBe('messages');
  });

  it('falls back to the operations, then to nothing known', () => {
    expect(sessionTotals(opTreeSession())).toMatchObject({ usage: u(900, 300), source: 'operations' });
    expect(sessionTotals(session({ key: 'x:3', operations: [op('a')] }))).toEqual({ usage: null, cost: null, source: null });
  });
});
