// Tests for the Codex rollout parser on records built by hand: echoes, envelope-less rollouts, ids, usage, forks, status, unknown records and command output.
import { describe, expect, it } from 'vitest';
import { parseCodexRollout } from './codex.ts';
import { durationMs } from './codex-content.ts';
import { failure } from '../../test-support/reader-checks.ts';
import { extractIndexText } from '../../search-index/index-text.ts';
import { ctx, event, HOUR, item, lines, meta, total } from './codex-test-records.ts';

describe('parseCodexRollout edge cases', () => {
  it('keeps an event echo whose response item is missing, but never a second copy of an item', () => {
    const s = parseCodexRollout(
      lines(
        meta(),
        item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Ship it' }] }),
        event({ type: 'user_message', message: 'Ship it' }),
        event({ type: 'agent_message', message: 'Shipped.' }),
        event({ type: 'item_completed', item: { type: 'AgentMessage', content: [{ type: 'Text', text: 'Shipped.' }] } }),
      ),
      ctx,
      HOUR,
    );
    expect(s.messages.map((m) => [m.role, m.origin?.line])).toEqual([
      ['user', 2],
      ['assistant', 4],
    ]);
  });

  it('reads the envelope-less rollouts of mid-2025: bare meta line, bare items, state markers', () => {
    const s = parseCodexRollout(
      lines(
        { id: '0190aaaa-0000-7000-8000-000000000001', timestamp: '2025-06-01T10:00:00.000Z', instructions: 'Be brief.', git: { branch: 'main' } },
        { record_type: 'state' },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Count the lint warnings' }] },
        { type: 'function_call', name: 'shell', call_id: 'c1', arguments: '{"command":["npm","run","lint"]}' },
        { type: 'function_call_output', call_id: 'c1', output: { content: '12', success: true } },
      ),
      ctx,
      HOUR,
    );
    expect([s.id, s.title, s.createdAt, s.systemPrompt?.text, s.project.branch, s.warnings]).toEqual([
      '0190aaaa-0000-7000-8000-000000000001',
      'Count the lint warnings',
      '2025-06-01T10:00:00.000Z',
      'Be brief.',
      'main',
      [],
    ]);
    expect(s.messages.map((m) => m.parts[0]?.type)).toEqual(['text', 'tool_call', 'tool_result']);
    expect(s.messages[2]?.parts[0]).toEqual({ type: 'tool_result', callId: 'c1', output: '12', isError: false });
    expect(s.extra.otherRecords).toEqual({ 'record_type/state': 1 });
  });

  it('takes the id from session_meta when the file name disagrees, and says so', () => {
    const s = parseCodexRollout(lines(meta({ id: '0190aaaa-0000-7000-8000-0000000000ff' })), ctx, HOUR);
    expect([s.id, s.extra.fileNameId]).toEqual(['0190aaaa-0000-7000-8000-0000000000ff', '0190aaaa-0000-7000-8000-000000000001']);
    expect(s.warnings[0]?.code).toBe('id_mismatch');
  });

  it('counts per-call usage when no cumulative total is written and ignores repeated totals', () => {
    const perCall = event({
      type: 'token_count',
      info: { last_token_usage: { input_tokens: 100, cached_input_tokens: 0, output_tokens: 10, reasoning_output_tokens: 0 } },
    });
    const calls = parseCodexRollout(lines(meta(), perCall, perCall), ctx, HOUR);
    expect(calls.usage).toEqual({ input: 200, output: 20, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
    const repeated = parseCodexRollout(lines(meta(), total(50, 20, 5, 2), total(50, 20, 5, 2)), ctx, HOUR);
    expect(repeated.usage).toEqual({ input: 30, output: 3, cacheRead: 20, cacheWrite: 0, reasoning: 2 });
    expect(repeated.extra.tokenCounterResets).toBeUndefined();
  });

  // Newer Codex forks copy the parent's session_meta and history, its cumulative token_count events included, before
  // the fork's own first turn (ccusage/ccusage#1370, junhoyeo/tokscale#679); the rollout here is written for this test.
  it("counts only a fork's own tokens, not the parent's usage its copied history replays", () => {
    // meta() is the fork's own (id 0190aaaa-…, a UUID v7 made after the parent's turns 01900000-…).
    const parent = '01900000-0000-7000-8000-0000000000aa';
    const context = (turnId: string) => ({ timestamp: '2026-01-02T03:04:05.000Z', type: 'turn_context', payload: { turn_id: turnId, model: 'gpt-5.5' } });
    const s = parseCodexRollout(
      lines(
        meta({ forked_from_id: parent }),
        { timestamp: '2026-01-02T03:04:05.000Z', type: 'session_meta', payload: { id: parent, cwd: '/w/app' } },
        context('01900000-1111-7000-8000-000000000001'),
        item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'the parent asked this' }] }),
        total(1000, 200, 100, 10),
        context('01900000-2222-7000-8000-000000000002'),
        total(3000, 1200, 300, 30),
        context('0190aaaa-1111-7000-8000-000000000003'),
        item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'the fork asks this' }] }),
        total(3500, 1300, 350, 40),
        total(4000, 1500, 420, 50),
      ),
      ctx,
      HOUR,
    );
    // Its own two calls: 1,000 input (300 of it cached) and 120 output (20 of it reasoning).
    expect(s.usage).toEqual({ input: 700, output: 100, cacheRead: 300, cacheWrite: 0, reasoning: 20 });
    expect(s.extra.inheritedUsage).toEqual({ input: 1800, output: 270, cacheRead: 1200, cacheWrite: 0, reasoning: 30 });
    // A fork whose first turn is its own (nothing replayed) counts everything, as before.
    const plain = parseCodexRollout(lines(meta({ forked_from_id: parent }), context('0190aaaa-1111-7000-8000-000000000003'), total(50, 20, 5, 2)), ctx, HOUR);
    expect(plain.usage).toEqual({ input: 30, output: 3, cacheRead: 20, cacheWrite: 0, reasoning: 2 });
    expect(plain.extra.inheritedUsage).toBeUndefined();
  });

  it('tells a turn still running (fresh file) from a crash (stale file without task_complete)', () => {
    const records = lines(
      meta(),
      { timestamp: '2026-01-02T03:04:06.000Z', type: 'turn_context', payload: { turn_id: 't1', model: 'gpt-5.5', effort: 'high' } },
      event({ type: 'task_started', turn_id: 't1' }, '2026-01-02T03:04:06.100Z'),
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Rebuild the index' }] }, '2026-01-02T03:04:07.000Z'),
      item({ type: 'function_call', name: 'shell', call_id: 'c1', arguments: '{"command":["make","index"]}' }, '2026-01-02T03:04:08.000Z'),
    );
    const running = parseCodexRollout(records, ctx, 60_000);
    expect([running.status, running.closedAt, running.warnings, running.operations.map((o) => o.status)]).toEqual(['active', null, [], ['running', null]]);
    const crashed = parseCodexRollout(records, ctx, HOUR);
    expect([crashed.status, crashed.closedAt, crashed.operations.map((o) => o.status)]).toEqual([
      'closed',
      '2026-01-02T03:04:08.000Z',
      ['incomplete', 'cancelled'],
    ]);
    expect(crashed.warnings).toEqual([
      { code: 'ended_without_completion', message: 'The rollout ended without task_complete (crash?): the last turn never finished.', count: 1 },
    ]);
  });

  it('names each unknown record type once with its count, and keeps arguments that are not JSON as text', () => {
    const s = parseCodexRollout(
      lines(
        meta(),
        event({ type: 'hologram_preview' }),
        event({ type: 'hologram_preview' }),
        item({ type: 'hologram' }),
        { timestamp: '2026-01-02T03:05:00.000Z', type: 'telemetry_blob', payload: {} },
        item({ type: 'function_call', name: 'run_tests', call_id: 'c1', arguments: 'cargo test --lib' }),
        item({
          type: 'message',
          role: 'assistant',
          content: [
            { type: 'output_text', text: 'Done.' },
            { type: 'output_audio', data: 'UklGRg==' },
          ],
        }),
      ),
      ctx,
      HOUR,
    );
    expect(s.messages.map((m) => m.parts)).toEqual([
      [{ type: 'tool_call', callId: 'c1', name: 'run_tests', input: 'cargo test --lib' }],
      [{ type: 'text', text: 'Done.' }],
    ]);
    expect(s.warnings).toEqual([
      { code: 'unparsable_arguments', message: 'Some tool-call arguments (payload.arguments) are not valid JSON; the raw text is shown instead.', count: 1 },
      { code: 'unknown_record_type', message: 'Unknown Codex record type "event_msg/hologram_preview" (2 records) ignored.', count: 1 },
      { code: 'unknown_record_type', message: 'Unknown Codex record type "response_item/hologram" (1 record) ignored.', count: 1 },
      { code: 'unknown_record_type', message: 'Unknown Codex record type "telemetry_blob" (1 record) ignored.', count: 1 },
      { code: 'unknown_block_type', message: 'Unknown Codex content type "output_audio" (1 item) ignored.', count: 1 },
    ]);
  });

  it("keeps a command's aggregated_output in its operation only where the call's result lacks its words", () => {
    const call = (id: string, cmd: string) => item({ type: 'function_call', name: 'shell', call_id: id, arguments: JSON.stringify({ command: cmd }) });
    const result = (id: string, output: string) => item({ type: 'function_call_output', call_id: id, output });
    const end = (id: string, aggregated: Record<string, unknown>) =>
      event({ type: 'exec_command_end', call_id: id, command: ['bash', '-lc', id], exit_code: 0, ...aggregated });
    const s = parseCodexRollout(
      lines(
        meta(),
        // The result repeats the output, framed: nothing to keep twice.
        call('same', 'ls'),
        end('same', { aggregated_output: 'a.txt\nb.txt\n' }),
        result('same', 'Exit code: 0\nOutput:\na.txt\nb.txt\n'),
        // The model saw the head of a long output; the event kept its tail too.
        call('cut', 'cat big.txt'),
        result('cut', 'line1\nline2'),
        end('cut', { aggregated_output: 'line1\n[.. omitted 4096 bytes ..]\nfinalTailWord' }),
        // An older event with the two streams and no result at all.
        call('lost', 'make'),
        end('lost', { stdout: 'compiled quietly', stderr: 'warning: unusedVariable' }),
      ),
      ctx,
      HOUR,
    );
    const detail = (id: string) => s.operations.find((o) => (o.detail as { callId?: string }).callId === id)?.detail as Record<string, unknown>;
    expect(detail('same').output).toBeUndefined();
    expect(detail('cut').output).toBe('line1\n[.. omitted 4096 bytes ..]\nfinalTailWord');
    expect(detail('lost').output).toBe('compiled quietly\nwarning: unusedVariable');
    expect(extractIndexText(s).more.split(/\s+/)).toEqual(expect.arrayContaining(['finalTailWord', 'unusedVariable']));
  });

  it("shows a drift writer's {stdout, stderr, exitCode} result as the command printed it, every line's words searchable", () => {
    const s = parseCodexRollout(
      lines(
        meta(),
        item({ type: 'tool_call', function: { name: 'run_shell_command' }, arguments: { command: 'make' } }),
        item({ type: 'tool_result', name: 'run_shell_command', result: { stdout: 'line1\nsecondline\n', stderr: 'oops', exitCode: 2 } }),
      ),
      ctx,
      HOUR,
    );
    expect(s.messages[1]?.parts).toEqual([{ type: 'tool_result', callId: null, output: 'line1\nsecondline\n\noops', isError: true }]);
    expect(extractIndexText(s).body.split(/[^\p{L}\p{N}]+/u)).toEqual(expect.arrayContaining(['secondline', 'oops']));
  });

  it('shows a 2025 result written as {"output", "metadata"} JSON as the command printed it, failed by its exit code', () => {
    const wrapped = (output: string, exit_code: number) => JSON.stringify({ output, metadata: { exit_code, duration_seconds: 0.3 } });
    const s = parseCodexRollout(
      lines(
        meta(),
        item({ type: 'function_call', name: 'shell', call_id: 'c1', arguments: '{"command":["cargo","test"]}' }),
        item({ type: 'function_call_output', call_id: 'c1', output: wrapped('running 2 tests\nwebhookRetries FAILED\n', 101) }),
        item({ type: 'function_call', name: 'shell', call_id: 'c2', arguments: '{"command":["ls"]}' }),
        // Not the wrapper: a JSON answer with other keys stays as written.
        item({ type: 'function_call_output', call_id: 'c2', output: '{"output": "x", "next": 1}' }),
      ),
      ctx,
      HOUR,
    );
    expect(s.messages.filter((m) => m.role === 'tool').map((m) => m.parts[0])).toEqual([
      { type: 'tool_result', callId: 'c1', output: 'running 2 tests\nwebhookRetries FAILED\n', isError: true },
      { type: 'tool_result', callId: 'c2', output: '{"output": "x", "next": 1}', isError: null },
    ]);
    expect(extractIndexText(s).body.split(/[^\p{L}\p{N}]+/u)).toContain('webhookRetries');
  });

  it('skips lines that are not objects and refuses a file with no Codex record at all', async () => {
    const s = parseCodexRollout(lines(meta(), [1, 2], 'text'), ctx, HOUR);
    expect(s.warnings.map((w) => [w.code, w.count])).toEqual([
      ['wrong_type', 1],
      ['wrong_type', 1],
    ]);
    const err = await failure(() => parseCodexRollout(lines({ type: 'user', uuid: 'u1' }, { type: 'user', uuid: 'u2' }), ctx, HOUR));
    expect([err.code, err.message]).toEqual([
      'wrong_shape',
      'Not a Codex rollout: none of the 2 records is a Codex record (session_meta, turn_context, response_item, event_msg or compacted); found user.',
    ]);
  });
});

describe('Codex durations', () => {
  it('reads {secs, nanos} as milliseconds, and a duration past any number (1e308 s) as none', () => {
    expect(durationMs({ secs: 1, nanos: 500_000_000 })).toBe(1500);
    expect(durationMs({ secs: 1e308, nanos: 0 })).toBeNull();
    expect(durationMs({ nanos: 5 })).toBeNull();
  });
});
