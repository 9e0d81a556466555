// Tests for the Codex reader: path claims, the project's fixtures in the real layout, and hostile files.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Session } from '../../../shared/session.ts';
import { countToolCalls } from '../../../shared/summarize.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { atRecordTime } from '../../test-support/recent-times.ts';
import { claimsCodex, parseCodexRollout, readCodexFile } from './codex.ts';
import { readJsonLines } from '../jsonl.ts';
import type { UnreadableError } from '../types.ts';
import { failure, valid } from '../../test-support/reader-checks.ts';
import { HOUR } from './codex-test-records.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const home = join(here, './fixtures/.codex');
const PARENT = '0194f3a2-7c1d-7e00-9a5b-3c4d5e6f7a01';
const CHILD = '0194f3a5-1e2f-7a00-8b1c-2d3e4f5a6b02';
const FORK = '0193f0aa-2b3c-7d00-8e4f-5a6b7c8d9e03';
const parentPath = join(home, `sessions/2026/02/14/rollout-2026-02-14T10-30-00-${PARENT}.jsonl`);
const childPath = join(home, `sessions/2026/02/14/rollout-2026-02-14T10-33-05-${CHILD}.jsonl`);
const forkPath = join(home, `archived_sessions/rollout-2025-11-03T08-00-00-${FORK}.jsonl`);

/** Reads with a clock `after` ms past the file's mtime, checking the schema and a JSON round trip. */
async function read(path: string, after = HOUR): Promise<Session> {
  const s = await readCodexFile(path, statSync(path).mtimeMs + after);
  return valid(s);
}

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
