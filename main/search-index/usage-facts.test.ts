// What the scan worker keeps of a session for the dashboard: tool calls and failures, turns, call times and rate limits.
import { describe, expect, it } from 'vitest';
import type { Message } from '../../shared/session.ts';
import { makeSession, textMessage } from './test-sessions.ts';
import { usageFacts } from './usage-facts.ts';
import { hourCut, localHourStart } from './usage-rows.ts';

const callTool = (name: string, callId: string): Message => ({ ...textMessage('assistant', ''), parts: [{ type: 'tool_call', callId, name, input: {} }] });
const result = (callId: string, isError: boolean | null): Message => ({
  ...textMessage('user', ''),
  parts: [{ type: 'tool_result', callId, output: 'x', isError }],
});

describe('usage facts of a session', () => {
  it('counts each tool call once, and a failure when its result says error', () => {
    const s = makeSession('tools', {
      messages: [
        textMessage('user', 'fix the build'),
        callTool('Bash', 'a'),
        result('a', true),
        callTool('Bash', 'b'),
        result('b', false),
        callTool('Read', 'c'),
        result('c', null),
      ],
    });
    expect(usageFacts(s).tools).toEqual([
      { name: 'Bash', calls: 2, failures: 1 },
      { name: 'Read', calls: 1, failures: 0 },
    ]);
  });

  it('counts tool operations where the messages hold no tool calls', () => {
    const op = (name: string, status: string) => ({
      id: name + status,
      type: 'exec',
      name,
      timestamp: null,
      endedAt: null,
      status,
      latencyMs: null,
      detail: null,
      vcs: null,
      usage: null,
      cost: null,
      parentId: null,
      childSessionKey: null,
      origin: null,
    });
    const s = makeSession('ops', { operations: [op('exec_command', 'completed'), op('exec_command', 'failed'), { ...op('turn', 'completed'), type: 'turn' }] });
    expect(usageFacts(s).tools).toEqual([{ name: 'exec_command', calls: 2, failures: 1 }]);
  });

  it('counts a turn per prompt typed, not per tool result or injected text', () => {
    const injected = { ...textMessage('user', '<environment_context>'), annotations: { injected: true } };
    const s = makeSession('turns', {
      messages: [textMessage('user', 'one'), callTool('Bash', 'a'), result('a', false), injected, textMessage('user', 'two'), textMessage('assistant', 'done')],
    });
    expect(usageFacts(s).turns).toBe(2);
  });

  it('keeps the first and last call of each hour', () => {
    const call = (timestamp: string): Message => ({
      ...textMessage('assistant', 'ok'),
      timestamp,
      model: 'm',
      usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
    });
    const [row] = usageFacts(
      makeSession('times', { messages: [call('2026-03-01T10:40:00Z'), call('2026-03-01T10:05:00Z'), call('2026-03-01T10:20:00Z')] }),
      () => 0,
    ).hours;
    expect([row?.firstMs, row?.lastMs]).toEqual([Date.parse('2026-03-01T10:05:00Z'), Date.parse('2026-03-01T10:40:00Z')]);
  });

  it("cuts an hour's row where the local hour begins in a zone that is not whole hours from UTC", () => {
    expect([hourCut(0), hourCut(60), hourCut(-300), hourCut(330), hourCut(345), hourCut(-210)]).toEqual([0, 0, 0, 30 * 60_000, 15 * 60_000, 30 * 60_000]);
    const call = (timestamp: string): Message => ({
      ...textMessage('assistant', 'ok'),
      timestamp,
      model: 'm',
      usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
    });
    const session = makeSession('midnight', { messages: [call('2026-03-01T18:15:00Z'), call('2026-03-01T18:29:59Z'), call('2026-03-01T18:45:00Z')] });
    // India (+5:30): 18:30 UTC is local midnight; the calls before it and after it are rows of their own.
    const india = usageFacts(session, () => hourCut(330)).hours;
    expect(india.map((r) => [new Date(r.hourMs).toISOString(), r.calls])).toEqual([
      ['2026-03-01T18:00:00.000Z', 2],
      ['2026-03-01T18:30:00.000Z', 1],
    ]);
    expect(usageFacts(session, () => 0).hours.map((r) => r.calls)).toEqual([3]);
    // The local hour an instant falls in starts at the cut before it (what the dashboard's after: counts from).
    const at = (iso: string) => localHourStart(Date.parse(iso), () => hourCut(330));
    expect([at('2026-03-01T06:00:00Z'), at('2026-03-01T05:40:00Z'), at('2026-03-01T05:20:00Z')]).toEqual(
      ['2026-03-01T05:30:00Z', '2026-03-01T05:30:00Z', '2026-03-01T04:30:00Z'].map(Date.parse),
    );
    expect(localHourStart(Date.parse('2026-03-01T05:40:00Z'), () => 0)).toBe(Date.parse('2026-03-01T05:00:00Z'));
  });

  it('turns the rate limits a reader kept into one row per window', () => {
    const rateLimits = {
      at: '2026-03-01T10:00:00Z',
      limitId: 'codex',
      plan: 'pro',
      windows: [
        { name: 'primary', usedPercent: 12.5, windowMinutes: 300, resetsAt: '2026-03-01T12:00:00Z' },
        { name: 'secondary', usedPercent: 3, windowMinutes: 10080, resetsAt: null },
      ],
    };
    expect(usageFacts(makeSession('limits', { extra: { rateLimits } })).limits).toEqual([
      {
        atMs: Date.parse('2026-03-01T10:00:00Z'),
        limitId: 'codex',
        plan: 'pro',
        window: 'primary',
        windowMinutes: 300,
        usedPercent: 12.5,
        resetsAtMs: Date.parse('2026-03-01T12:00:00Z'),
      },
      { atMs: Date.parse('2026-03-01T10:00:00Z'), limitId: 'codex', plan: 'pro', window: 'secondary', windowMinutes: 10080, usedPercent: 3, resetsAtMs: null },
    ]);
    expect(usageFacts(makeSession('odd', { extra: { rateLimits: { windows: 'none' } } })).limits).toEqual([]);
  });
});
