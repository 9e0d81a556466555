// Rows of the transcript: calls joined with their results, sub-agents nested under the call that spawned them.
import { describe, expect, it } from 'vitest';
import { buildTranscript, isSecondary, type MessageRow, type Row } from './transcript.ts';
import { call, msg, result, text, transcriptSession } from '../../test-sessions.ts';

const messageRows = (rows: Row[]) => rows.filter((r): r is MessageRow => r.kind === 'message');

describe('buildTranscript: tool calls and results', () => {
  it('joins a call with its result from the next message into one card and marks the result row', () => {
    const { rows } = buildTranscript([msg('assistant', [call('c1', 'Read', { file_path: 'a.ts' })]), msg('user', [result('c1', 'contents', false)])]);
    const [first, second] = messageRows(rows);
    expect(first?.items).toEqual([expect.objectContaining({ kind: 'tool', result: expect.objectContaining({ output: 'contents' }) })]);
    expect(second?.items).toEqual([expect.objectContaining({ kind: 'result-ref', name: 'Read' })]);
    expect(second?.resultsOnly).toBe(true);
  });

  it('keeps a result whose call is absent as its own card, and a call without result as pending', () => {
    const { rows } = buildTranscript([msg('user', [result('lost', 'orphan output')]), msg('assistant', [call('c2', 'Bash', { command: 'ls' })])]);
    const [orphan, pending] = messageRows(rows).map((r) => r.items[0]);
    expect(orphan).toMatchObject({ kind: 'tool', call: null, result: { output: 'orphan output' } });
    expect(pending).toMatchObject({ kind: 'tool', call: { name: 'Bash' }, result: null });
  });

  it('pairs id-less calls and results in order, but not across a new user prompt', () => {
    const { rows } = buildTranscript([
      msg('assistant', [call(null, 'Read', {}), call(null, 'Grep', {})]),
      msg('tool', [result(null, 'read out'), result(null, 'grep out')]),
      msg('assistant', [call(null, 'Bash', {})]),
      msg('user', [text('never mind')]),
      msg('tool', [result(null, 'late')]),
    ]);
    const m = messageRows(rows);
    expect(m[0]?.items.map((i) => (i.kind === 'tool' ? i.result?.output : null))).toEqual(['read out', 'grep out']);
    expect(m[2]?.items[0]).toMatchObject({ kind: 'tool', result: null });
    expect(m[4]?.items[0]).toMatchObject({ kind: 'tool', call: null, result: { output: 'late' } });
  });

  it('never hands one result to two calls with the same id', () => {
    const { rows } = buildTranscript([
      msg('assistant', [call('dup', 'Read', {}), call('dup', 'Read', {})]),
      msg('user', [result('dup', 'first'), result('dup', 'second')]),
    ]);
    const outputs = messageRows(rows)[0]?.items.map((i) => (i.kind === 'tool' ? i.result?.output : null));
    expect(outputs).toEqual(['first', 'second']);
  });
});

describe('buildTranscript: sub-agents', () => {
  it('nests the sub-agent messages right after the message holding the spawning call', () => {
    const { rows, agentsByCall } = buildTranscript(transcriptSession().messages);
    const spawnRow = rows.findIndex((r) => r.kind === 'message' && r.items.some((i) => i.kind === 'tool' && i.call?.name === 'Task'));
    const heading = rows[spawnRow + 1];
    expect(heading).toMatchObject({ kind: 'agent', agentId: 'a1b2c3d4e5', depth: 1, messageCount: 4, label: 'Explore · Find other clock uses' });
    expect(rows.slice(spawnRow + 2, spawnRow + 6).every((r) => r.kind === 'message' && r.depth === 1 && r.message.agentId === 'a1b2c3d4e5')).toBe(true);
    expect([...agentsByCall.values()]).toEqual([['a1b2c3d4e5']]);
    // One row per canonical message, whatever the order.
    expect(messageRows(rows)).toHaveLength(transcriptSession().messages.length);
  });

  it('uses the link a reader recorded in annotations before any guess', () => {
    const { rows } = buildTranscript([
      msg('assistant', [call('t1', 'Task', { description: 'one' }), call('t2', 'Task', { description: 'two' })]),
      msg('assistant', [text('child')], { agentId: 'x', annotations: { parentToolCallId: 't1' } }),
    ]);
    expect(rows[1]).toMatchObject({ kind: 'agent', agentId: 'x', label: 'one', spawnedBy: expect.stringContaining(':0') });
  });

  it('falls back to the last spawn-like call before the sub-agent started', () => {
    const { rows } = buildTranscript([
      msg('assistant', [call('t1', 'Agent', { description: 'early' })], { timestamp: '2026-01-01T00:00:01Z' }),
      msg('assistant', [call('t2', 'Agent', { description: 'later' })], { timestamp: '2026-01-01T00:00:05Z' }),
      msg('assistant', [text('sub')], { agentId: 'zz', timestamp: '2026-01-01T00:00:03Z' }),
    ]);
    expect(rows.map((r) => (r.kind === 'agent' ? `agent:${r.label}` : r.key))).toEqual([rows[0]?.key, 'agent:early', rows[2]?.key, rows[3]?.key]);
  });

  it('shows a sub-agent with no spawning call as a labelled block where it begins', () => {
    const { rows } = buildTranscript([
      msg('user', [text('hi')]),
      msg('assistant', [text('side work')], { agentId: 'lonely' }),
      msg('assistant', [text('main reply')]),
    ]);
    expect(rows.map((r) => r.kind)).toEqual(['message', 'agent', 'message', 'message']);
    expect(rows[1]).toMatchObject({ agentId: 'lonely', spawnedBy: null, depth: 1 });
    expect(rows[2]).toMatchObject({ depth: 1 });
  });
});

describe('isSecondary', () => {
  it('recognises meta records, command caveats, injected context and developer messages', () => {
    expect(isSecondary(msg('user', [text('x')], { annotations: { isMeta: true } }))).toBe(true);
    expect(isSecondary(msg('user', [text('x')], { annotations: { injected: true } }))).toBe(true);
    expect(isSecondary(msg('user', [text('x')], { annotations: { role: 'developer' } }))).toBe(true);
    expect(isSecondary(msg('user', [text('Caveat: The messages below were generated by the user while running local commands.')]))).toBe(true);
    expect(isSecondary(msg('user', [text('<local-command-stdout>ok</local-command-stdout>')]))).toBe(true);
    expect(isSecondary(msg('user', [text('Please fix <command-name> parsing')]))).toBe(false);
    expect(isSecondary(msg('assistant', [text('done')], { annotations: { stopReason: 'max_tokens' } }))).toBe(false);
  });
});

describe('buildTranscript: ai-agent style sub-agent runs', () => {
  it('takes a call named after the agent as its spawner', () => {
    const { rows } = buildTranscript([msg('tool', [call('op-1', 'child-a', { task: 'x' })]), msg('assistant', [text('child reply')], { agentId: 'child-a' })]);
    expect(rows[1]).toMatchObject({ kind: 'agent', agentId: 'child-a', spawnedBy: expect.any(String) });
  });
});
