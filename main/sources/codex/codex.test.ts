// Tests for the Codex reader: path claims, the project's fixtures in the real layout, edge cases and hostile files.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Session } from '../../../shared/session.ts';
import { countToolCalls } from '../../../shared/summarize.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { atRecordTime } from '../../test-support/recent-times.ts';
import type { DocumentContext } from '../coerce.ts';
import { claimsCodex, parseCodexRollout, readCodexFile } from './codex.ts';
import { readJsonLines, type JsonLine } from '../jsonl.ts';
import type { UnreadableError } from '../types.ts';
import { failure, valid } from '../../test-support/reader-checks.ts';
import { extractIndexText } from '../../search-index/index-text.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const home = join(here, './fixtures/.codex');
const PARENT = '0194f3a2-7c1d-7e00-9a5b-3c4d5e6f7a01';
const CHILD = '0194f3a5-1e2f-7a00-8b1c-2d3e4f5a6b02';
const FORK = '0193f0aa-2b3c-7d00-8e4f-5a6b7c8d9e03';
const parentPath = join(home, `sessions/2026/02/14/rollout-2026-02-14T10-30-00-${PARENT}.jsonl`);
const childPath = join(home, `sessions/2026/02/14/rollout-2026-02-14T10-33-05-${CHILD}.jsonl`);
const forkPath = join(home, `archived_sessions/rollout-2025-11-03T08-00-00-${FORK}.jsonl`);
const HOUR = 60 * 60 * 1000;

/** Reads with a clock `after` ms past the file's mtime, checking the schema and a JSON round trip. */
async function read(path: string, after = HOUR): Promise<Session> {
  const s = await readCodexFile(path, statSync(path).mtimeMs + after);
  return valid(s);
}

const ctx: DocumentContext = {
  path: '/h/.codex/sessions/2026/01/02/rollout-2026-01-02T03-04-05-0190aaaa-0000-7000-8000-000000000001.jsonl',
  size: 1,
  mtimeMs: 0,
  warnings: [],
};
const lines = (...values: unknown[]): JsonLine[] => values.map((value, i) => ({ value, line: i + 1 }));
const meta = (extra: Record<string, unknown> = {}) => ({
  timestamp: '2026-01-02T03:04:05.000Z',
  type: 'session_meta',
  payload: { id: '0190aaaa-0000-7000-8000-000000000001', cwd: '/w/app', ...extra },
});
const event = (payload: Record<string, unknown>, ts = '2026-01-02T03:05:00.000Z') => ({ timestamp: ts, type: 'event_msg', payload });
const item = (payload: Record<string, unknown>, ts = '2026-01-02T03:05:00.000Z') => ({ timestamp: ts, type: 'response_item', payload });
const total = (input: number, cached: number, output: number, reasoning: number) =>
  event({
    type: 'token_count',
    info: { total_token_usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output, reasoning_output_tokens: reasoning } },
  });

describe('claimsCodex', () => {
  it.each([
    `/home/u/.codex/sessions/2026/02/14/rollout-2026-02-14T10-30-00-${PARENT}.jsonl`,
    `/home/u/.codex/archived_sessions/rollout-2025-11-03T08-00-00-${FORK}.jsonl`,
    `/home/u/.codex/archived_sessions/2025/11/03/rollout-2025-11-03T08-00-00-${FORK}.jsonl`,
    `C:/Users/u/.codex/sessions/2025/09/10/rollout-2025-09-10T12-00-00-${FORK}.jsonl`,
  ])('claims %s', (p) => expect(claimsCodex(p)).toBe(true));

  it.each([
    `/home/u/.codex/sessions/2026/02/14/rollout-2026-02-14T10-30-00-${PARENT}.jsonl.tmp`,
    `/home/u/.codex/sessions/2026/2/14/rollout-2026-02-14T10-30-00-${PARENT}.jsonl`,
    `/home/u/.codex/sessions/rollout-2026-02-14T10-30-00-${PARENT}.jsonl`,
    `/home/u/.codex/projects/2026/02/14/rollout-2026-02-14T10-30-00-${PARENT}.jsonl`,
    '/home/u/.codex/sessions/2026/02/14/history.jsonl',
    '/home/u/.codex/history.jsonl',
    '/home/u/samples/codex/_expected/a_happy_new/expected.jsonl',
    `/home/u/.codex/sessions/2026/02/14/rollout-2026-02-14T10-30-00-${PARENT}.json`,
    '/home/u/.gemini/tmp/harbor-api/chats/session-2026-02-20T10-15-7f3a9c21.jsonl',
  ])('does not claim %s', (p) => expect(claimsCodex(p)).toBe(false));

  it('claims exactly the fixture rollouts', () => {
    const all = [parentPath, childPath, forkPath];
    expect(all.every((p) => existsSync(p) && claimsCodex(p))).toBe(true);
  });
});

describe('Codex fixtures', () => {
  it('reads a three-turn session: turns, tools, patch facts, usage across a counter reset, spawn and title', async () => {
    const s = await read(parentPath);
    expect([s.key, s.title, s.status, s.toolVersion]).toEqual([`codex:${PARENT}`, 'Webhook retry backoff', 'closed', '0.98.0']);
    expect([s.createdAt, s.updatedAt, s.closedAt]).toEqual(['2026-02-14T09:30:00.000Z', '2026-02-14T09:35:21.000Z', '2026-02-14T09:35:21.000Z']);
    expect(s.project).toEqual({
      path: '/home/dev/src/harbor-api',
      name: 'harbor-api',
      branch: 'feature/retry-backoff',
      headCommit: '9c1e5d2b7a4f8e3c6b0d1a2f5e8c7b4a3d6f9e0c',
    });
    expect(s.model).toEqual({ provider: 'openai', name: 'gpt-5.1-codex-max', parameters: { reasoningEffort: 'high', reasoningSummary: 'auto' } });
    expect(s.systemPrompt?.text).toBe("You are Codex, a coding agent running in the user's terminal.");
    expect(s.config).toContainEqual({ key: 'sandbox_policy.type', value: 'workspace-write', provenance: null });
    expect(s.config).toContainEqual({ key: 'approval_policy', value: 'on-request', provenance: null });
    // Echo events (user_message, agent_reasoning, agent_message) repeat response items and add no message.
    expect(s.messages.map((m) => m.origin?.line)).toEqual([4, 5, 7, 9, 11, 13, 15, 17, 22, 23, 25, 26, 27, 30, 34, 36]);
    expect(s.messages[0]?.annotations).toEqual({ injected: true });
    expect(s.messages[2]?.parts).toEqual([{ type: 'thinking', text: '**Locating the retry loop**', redacted: false }]);
    expect(s.messages[3]?.parts[0]).toEqual({
      type: 'tool_call',
      callId: 'call_r1',
      name: 'shell',
      input: { command: ['rg', '-n', 'retry', 'src/'], workdir: '/home/dev/src/harbor-api' },
    });
    expect(s.messages[11]?.parts[0]).toMatchObject({ type: 'tool_call', name: 'run_tests', input: { cmd: 'cargo test --lib webhook' } });
    expect(s.messages[12]?.parts[0]).toEqual({ type: 'tool_result', callId: 'call_t1', output: 'test webhook::retries ... FAILED\n1 failed', isError: true });
    expect(s.messages[13]?.parts[0]).toMatchObject({ type: 'compaction', summary: expect.stringContaining('Backoff lives in src/backoff.rs') });
    expect(countToolCalls(s)).toBe(4);

    expect(s.operations.map((o) => [o.id, o.type, o.name, o.status, o.parentId])).toEqual([
      ['turn-1', 'turn', 'Turn 1', 'completed', null],
      ['op-9', 'tool', 'shell', 'completed', 'turn-1'],
      ['op-13', 'tool', 'apply_patch', 'completed', 'turn-1'],
      ['turn-2', 'turn', 'Turn 2', 'aborted', null],
      ['op-23', 'tool', 'spawn_agent', 'completed', 'turn-2'],
      ['op-26', 'tool', 'run_tests', 'failed', 'turn-2'],
      ['turn-3', 'turn', 'Turn 3', 'completed', null],
    ]);
    const [turn1, shell, patch, turn2, spawn] = s.operations;
    expect([turn1?.latencyMs, shell?.latencyMs, shell?.detail]).toEqual([
      95000,
      420,
      { callId: 'call_r1', command: ['rg', '-n', 'retry', 'src/'], cwd: '/home/dev/src/harbor-api', exitCode: 0 },
    ]);
    expect(turn1?.detail).toMatchObject({ turnId: '0194f3a2-aaaa-7000-8000-000000000001', model: 'gpt-5.1-codex', effort: 'high', ttftMs: 3800 });
    expect(patch?.vcs?.staged).toEqual({
      A: ['src/backoff.rs'],
      M: ['src/webhook.rs'],
      D: ['src/old_retry.rs'],
      R: [{ from: 'src/retry.rs', to: 'src/retry_policy.rs' }],
    });
    expect(turn2?.detail).toMatchObject({ reason: 'interrupted' });
    expect(spawn?.childSessionKey).toBe(`codex:${CHILD}`);
    expect(s.childKeys).toEqual([`codex:${CHILD}`]);
    expect(s.parentKey).toBeNull();

    // Cumulative totals 8000/17000 input, then a reset to 2000 and growth to 5000: two accumulations.
    expect(s.usage).toEqual({ input: 7500, output: 650, cacheRead: 14500, cacheWrite: 0, reasoning: 450 });
    expect(s.operations.filter((o) => o.type === 'turn').map((o) => o.usage)).toEqual([
      { input: 5000, output: 350, cacheRead: 12000, cacheWrite: 0, reasoning: 350 },
      { input: 2000, output: 60, cacheRead: 0, cacheWrite: 0, reasoning: 40 },
      { input: 500, output: 240, cacheRead: 2500, cacheWrite: 0, reasoning: 60 },
    ]);
    expect(s.messages[3]?.usage).toEqual({ input: 2000, output: 100, cacheRead: 6000, cacheWrite: 0, reasoning: 200 });
    expect(s.cost?.estimated).toBe(true);
    expect(s.cost?.usd).toBeCloseTo((7500 * 1.25 + 1100 * 10 + 14500 * 0.125) / 1e6, 12);

    expect(s.extra).toMatchObject({
      originator: 'codex_cli_rs',
      source: 'cli',
      repositoryUrl: 'git@example.invalid:dev/harbor-api.git',
      abortedTurns: [{ turnId: '0194f3a2-aaaa-7000-8000-000000000002', reason: 'interrupted', timestamp: '2026-02-14T09:33:40.000Z' }],
      models: ['gpt-5.1-codex', 'gpt-5.1-codex-max'],
      tokenCounterResets: 1,
      turns: 3,
      otherRecords: { 'event_msg/context_compacted': 1 },
    });
    expect(s.warnings).toEqual([]);
  });

  it('links a spawned sub-agent to the thread that spawned it', async () => {
    const s = await read(childPath);
    expect([s.key, s.parentKey, s.status, s.closedAt]).toEqual([`codex:${CHILD}`, `codex:${PARENT}`, 'closed', '2026-02-14T09:33:20.100Z']);
    expect(s.extra.subagent).toEqual({ kind: 'thread_spawn', depth: 1, nickname: 'Noether', role: 'reviewer', parentThreadId: PARENT });
    expect([s.title, s.messages.length, countToolCalls(s), s.warnings]).toEqual(['Review src/webhook.rs and src/backoff.rs.', 4, 1, []]);
    expect(s.operations.map((o) => [o.type, o.status])).toEqual([
      ['turn', 'completed'],
      ['tool', 'completed'],
    ]);
    expect(s.usage).toEqual({ input: 2000, output: 40, cacheRead: 1000, cacheWrite: 0, reasoning: 80 });
    // gpt-5.1-codex-mini at its own price ($0.25 / $2 / $0.025), not gpt-5's as the old prefix table had it.
    expect(s.cost?.usd).toBeCloseTo((2000 * 0.25 + 120 * 2 + 1000 * 0.025) / 1e6, 12);
  });

  it('reads an archived fork from a writer without task events: fork kept apart from parents, echo-only reply kept', async () => {
    const s = await read(forkPath);
    expect([s.key, s.parentKey, s.extra.forkedFrom]).toEqual([`codex:${FORK}`, null, 'codex:0193efff-0000-7000-8000-000000000abc']);
    expect([s.title, s.status, s.closedAt]).toEqual(['Why does my PATH lose ~/.local/bin?', 'unknown', null]);
    expect(s.systemPrompt?.text).toBe('You are Codex, based on GPT-5.');
    expect(s.messages.map((m) => [m.role, m.parts.map((p) => p.type).join('+')])).toEqual([
      ['user', 'text'],
      ['user', 'text'],
      ['assistant', 'thinking'],
      ['assistant', 'tool_call'],
      ['tool', 'tool_result'],
      ['assistant', 'text'],
      ['user', 'text'],
      ['assistant', 'text'],
    ]);
    expect(s.messages[2]?.parts[0]).toEqual({ type: 'thinking', text: '', redacted: true });
    expect(s.messages[5]).toMatchObject({ annotations: { fromEvent: true }, origin: { line: 9 } });
    expect(s.operations.map((o) => [o.type, o.name, o.status])).toEqual([
      ['turn', 'Turn 1', null],
      ['tool', 'local_shell', 'completed'],
      ['turn', 'Turn 2', null],
    ]);
    expect(s.config).toContainEqual({ key: 'sandbox_policy.mode', value: 'workspace-write', provenance: null });
    expect(s.usage).toEqual({ input: 1200, output: 86, cacheRead: 3000, cacheWrite: 0, reasoning: 64 });
    // Running takes a fresh file AND fresh records: this test's copy is new, its records are months old.
    expect((await read(forkPath, 60_000)).status).toBe('unknown');
    await atRecordTime(forkPath, here, s.updatedAt, async (copy) => expect((await read(copy, 60_000)).status).toBe('active'));
  });
});

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

type Expectation = { code: UnreadableError['code']; phrase: string } | { warnings: string[]; check: (s: Session) => void };

/** Hostile files that imitate a Codex rollout, fed through the same path as real ones (they sit outside the layout). */
const MALFORMED: Record<string, Expectation> = {
  'huge_single_line_2MB__codex_rollout.jsonl': {
    warnings: [],
    check: (s) => {
      expect(s.messages.map((m) => m.role)).toEqual(['tool', 'assistant']);
      const result = s.messages[0]?.parts[0];
      expect(result?.type === 'tool_result' && result.output.length).toBeGreaterThan(2_000_000);
      expect(s.messages[1]?.parts[0]).toEqual({ type: 'text', text: 'after the big line' });
    },
  },
  'nul_bytes_padding__codex_rollout.jsonl': {
    warnings: ['nul_padding'],
    check: (s) => expect([s.id, s.project.path, s.messages]).toEqual(['019f0000-0000-7000-8000-0000000000aa', '/home/dev/proj/demo', []]),
  },
  'torn_last_line_then_newline__codex_rollout.jsonl': {
    warnings: ['invalid_line'],
    check: (s) => expect(s.messages.map((m) => m.parts[0])).toEqual([{ type: 'text', text: 'recovered after a torn line' }]),
  },
  'wrong_types__codex_payload_shapes.jsonl': {
    warnings: ['wrong_type', 'wrong_type', 'wrong_type', 'wrong_type', 'missing_field'],
    check: (s) => {
      expect(s.id).toBe('wrong_types__codex_payload_shapes');
      expect(s.messages[0]?.parts).toEqual([{ type: 'tool_call', callId: null, name: 'unknown', input: { already: 'parsed object, not a JSON string' } }]);
      expect(s.usage).toBeNull();
      expect(s.warnings.map((w) => w.message)).toContain(
        'Field "payload.info.total_token_usage" should be an object but is a string ("lots"); it was skipped.',
      );
    },
  },
  'zero_byte__rollout.jsonl': { code: 'empty_file', phrase: 'File is empty (0 bytes).' },
};

describe('malformed inputs through the Codex reader', () => {
  const dir = join(samplesDir, 'malformed');

  it('has an expectation for every Codex-like sample', () => {
    const relevant = readdirSync(dir).filter((n) => n.includes('codex') || n.includes('rollout'));
    expect(relevant.sort()).toEqual(Object.keys(MALFORMED).sort());
  });

  it.each(Object.entries(MALFORMED))('%s', async (name, expected) => {
    const path = join(dir, name);
    if ('code' in expected) {
      const err = await failure(() => readCodexFile(path));
      expect([err.code, err.message]).toEqual([expected.code, expected.phrase]);
      return;
    }
    const { records, warnings } = await readJsonLines(path);
    const s = parseCodexRollout(records, { path, size: statSync(path).size, mtimeMs: 0, warnings }, HOUR);
    expect(Session.safeParse(s).success).toBe(true);
    expect(s.warnings.flatMap((w) => Array(w.count).fill(w.code))).toEqual(expected.warnings);
    expected.check(s);
  });
});
