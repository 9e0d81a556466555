// Reads every Codex sample of the shared corpus and compares it with netdata/ai-viewer's expected event streams.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/session.ts';
import { countToolCalls } from '../../../shared/summarize.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { claimsCodex, readCodexFile } from './codex.ts';
import { valid } from '../../test-support/reader-checks.ts';

const base = join(samplesDir, 'codex');

/** Read as if an hour had passed since the file was last written, so no sample looks live. */
async function read(rel: string): Promise<Session> {
  const path = join(base, 'sessions', rel);
  expect(claimsCodex(path)).toBe(true);
  const s = await readCodexFile(path, statSync(path).mtimeMs + 60 * 60 * 1000);
  return valid(s);
}

const R = '<ROOT>/project';
type Row = [
  string,
  string,
  string,
  string,
  string | null,
  string | null,
  Session['status'],
  number,
  number,
  [number, number, number, number] | null,
  string | null,
  string[],
];

/** file, title, createdAt, updatedAt, project path, branch, status, messages, tool calls, [input, output, cacheRead, reasoning], parentKey, childKeys. */
const SAMPLES: Row[] = [
  [
    '2025/09/10/rollout-2025-09-10T12-00-00-00000000-0000-0000-0000-0000000d21f7.jsonl',
    "Translate 'hello' to Spanish",
    '2025-09-10T12:00:00.000Z',
    '2025-09-10T12:00:03.000Z',
    null,
    null,
    'unknown',
    4,
    1,
    null,
    null,
    [],
  ],
  [
    '2025/11/20/rollout-2025-11-20T18-59-09-019aa234-0000-7000-8000-00000000000b.jsonl',
    'list the files',
    '2025-11-20T16:59:09.857Z',
    '2025-11-20T16:59:15.000Z',
    '<ROOT>/legacy-project',
    'main',
    'unknown',
    5,
    1,
    null,
    null,
    [],
  ],
  [
    '2025/12/18/rollout-2025-12-18T10-00-00-019b2ea4-aaaa-bbbb-cccc-58208e1f0000.jsonl',
    'Start',
    '2025-12-18T10:00:00.000Z',
    '2025-12-18T10:00:16.000Z',
    '/tmp/large',
    null,
    'unknown',
    16,
    1,
    [1211, 54, 10880, 128],
    null,
    [],
  ],
  [
    '2026/03/03/rollout-2026-03-03T12-30-03-019cb33f-0000-7000-8000-00000000000e.jsonl',
    'work on a long task',
    '2026-03-03T12:30:03.100Z',
    '2026-03-03T12:30:11.000Z',
    R,
    'main',
    'closed',
    4,
    0,
    null,
    null,
    [],
  ],
  [
    '2026/03/11/rollout-2026-03-11T15-51-06-019cdd2a-0000-7000-8000-00000000001a.jsonl',
    'start a slow operation',
    '2026-03-11T15:51:06.100Z',
    '2026-03-11T15:51:30.000Z',
    R,
    'main',
    'closed',
    2,
    1,
    null,
    null,
    [],
  ],
  [
    '2026/03/31/rollout-2026-03-31T21-32-12-019d452a-0000-7000-8000-00000000000f.jsonl',
    'run the long command',
    '2026-03-31T21:32:12.100Z',
    '2026-03-31T21:32:19.500Z',
    R,
    'main',
    'closed',
    4,
    1,
    null,
    null,
    [],
  ],
  [
    '2026/04/01/rollout-2026-04-01T09-00-00-019d4abc-0000-7000-8000-00000000001b.jsonl',
    'do something heavy',
    '2026-04-01T09:00:00.100Z',
    '2026-04-01T09:00:02.000Z',
    R,
    'main',
    'closed',
    2,
    1,
    null,
    null,
    [],
  ],
  [
    '2026/04/02/rollout-2026-04-02T10-15-30-019d8a30-0000-7000-8000-000000000031.jsonl',
    'run the failing build',
    '2026-04-02T10:15:30.100Z',
    '2026-04-02T10:15:34.500Z',
    R,
    'main',
    'closed',
    4,
    1,
    null,
    null,
    [],
  ],
  [
    '2026/04/03/rollout-2026-04-03T11-20-00-019d8f40-0000-7000-8000-000000000051.jsonl',
    'research two topics online',
    '2026-04-03T11:20:00.100Z',
    '2026-04-03T11:20:04.500Z',
    R,
    'main',
    'closed',
    4,
    2,
    null,
    null,
    [],
  ],
  [
    '2026/04/04/rollout-2026-04-04T12-30-00-019d9450-0000-7000-8000-000000000071.jsonl',
    'apply the patch',
    '2026-04-04T12:30:00.100Z',
    '2026-04-04T12:30:04.500Z',
    R,
    'main',
    'closed',
    4,
    1,
    null,
    null,
    [],
  ],
  [
    '2026/04/05/rollout-2026-04-05T13-40-00-019d9960-0000-7000-8000-0000000000ff.jsonl',
    'say hello',
    '2026-04-05T13:40:00.100Z',
    '2026-04-05T13:40:02.500Z',
    R,
    'main',
    'closed',
    2,
    0,
    null,
    null,
    [],
  ],
  [
    '2026/05/06/rollout-2026-05-06T22-46-58-019dfed4-0000-7000-8000-00000000000a.jsonl',
    'please summarize the build script',
    '2026-05-06T19:47:01.532Z',
    '2026-05-06T19:47:10.200Z',
    R,
    'main',
    'closed',
    5,
    1,
    [900, 40, 300, 40],
    null,
    [],
  ],
  [
    '2026/05/08/rollout-2026-05-08T00-40-27-019e0462-0000-7000-8000-00000000000d.jsonl',
    'continue from the previous session',
    '2026-05-08T00:40:27.500Z',
    '2026-05-08T00:40:31.500Z',
    R,
    'main',
    'closed',
    2,
    0,
    null,
    null,
    [],
  ],
  [
    '2026/05/17/rollout-2026-05-17T15-37-16-019e35f0-0000-7000-8000-00000000000c.jsonl',
    'explore the repository structure',
    '2026-05-17T12:37:16.100Z',
    '2026-05-17T12:37:21.000Z',
    R,
    'main',
    'closed',
    2,
    0,
    [900, 40, 0, 20],
    'codex:019e2e0a-0000-7000-8000-0000000000fe',
    [],
  ],
  [
    '2026/05/20/rollout-2026-05-20T10-15-00-019e8a10-0000-7000-8000-000000000010.jsonl',
    'spawn an explorer to map the repo',
    '2026-05-20T10:15:00.100Z',
    '2026-05-20T10:15:06.000Z',
    R,
    'main',
    'closed',
    2,
    0,
    [1200, 50, 0, 30],
    null,
    ['codex:019e8a11-0000-7000-8000-0000000000aa'],
  ],
  [
    '2026/05/21/rollout-2026-05-21T14-20-00-019e9b20-0000-7000-8000-000000000011.jsonl',
    'start a slow analysis',
    '2026-05-21T14:20:00.100Z',
    '2026-05-21T14:20:07.500Z',
    R,
    'main',
    'closed',
    4,
    1,
    null,
    null,
    [],
  ],
  [
    '2026/05/22/rollout-2026-05-22T09-05-00-019eac30-0000-7000-8000-000000000012.jsonl',
    'look up the latest release notes online',
    '2026-05-22T09:05:00.100Z',
    '2026-05-22T09:05:06.000Z',
    R,
    'main',
    'closed',
    3,
    1,
    [1500, 50, 0, 40],
    null,
    [],
  ],
  // The composite fixture's later lines have "[trimmed for fixture]" everywhere, including timestamps and the thread name.
  [
    '2026/08/03/rollout-2026-08-03T10-48-56-019fc8be-3658-7ca3-9e29-000000000000.jsonl',
    '[trimmed for fixture]',
    '2026-08-03T10:48:56.000Z',
    '2026-08-03T10:48:56.000Z',
    '/tmp/repo',
    'main',
    'closed',
    31,
    8,
    [12757, 18, 3584, 63],
    null,
    ['codex:[trimmed for fixture]'],
  ],
];

describe('shared Codex samples', () => {
  it.each(SAMPLES)('%s', async (rel, title, createdAt, updatedAt, path, branch, status, messages, tools, usage, parentKey, childKeys) => {
    const s = await read(rel);
    expect([s.title, s.createdAt, s.updatedAt, s.project.path, s.project.branch, s.status]).toEqual([title, createdAt, updatedAt, path, branch, status]);
    expect([s.messages.length, countToolCalls(s)]).toEqual([messages, tools]);
    const u = s.usage;
    expect(u ? [u.input, u.output, u.cacheRead, u.reasoning] : null).toEqual(usage);
    expect([s.parentKey, s.childKeys]).toEqual([parentKey, childKeys]);
  });

  it('reads the schema-drift rollout (no envelope, flat records) by its file-name id', async () => {
    const s = await read(SAMPLES[0]?.[0] ?? '');
    expect(s.id).toBe('00000000-0000-0000-0000-0000000d21f7');
    expect(s.model?.name).toBe('gpt-4o-mini');
    expect(s.messages.map((m) => m.parts[0])).toEqual([
      { type: 'text', text: "Translate 'hello' to Spanish" },
      { type: 'tool_call', callId: null, name: 'translate', input: { text: 'hello', to: 'es' } },
      { type: 'tool_result', callId: null, output: 'hola', isError: null },
      { type: 'text', text: '"hola"' },
    ]);
    expect(s.operations.map((o) => [o.name, o.status])).toEqual([['translate', 'completed']]);
  });

  it('keeps the composite 0.146 rollout whole: later session_meta lines, aborted turn, echo-only messages', async () => {
    const s = await read(SAMPLES.at(-1)?.[0] ?? '');
    expect(s.id).toBe('019fc8be-3658-7ca3-9e29-000000000000');
    expect((s.extra.otherSessionMeta as unknown[]).length).toBe(6);
    expect(s.extra.abortedTurns).toEqual([{ turnId: '019fc8be-0000-7000-8000-000000000001', reason: 'interrupted', timestamp: '2026-08-03T10:48:56.000Z' }]);
    expect(s.model).toEqual({
      provider: 'openai',
      name: 'gpt-5.6-sol',
      parameters: { reasoningEffort: '[trimmed for fixture]', reasoningSummary: '[trimmed for fixture]' },
    });
    expect(s.messages.filter((m) => (m.annotations as { fromEvent?: boolean } | undefined)?.fromEvent).map((m) => m.origin?.line)).toEqual([71, 85, 102, 110]);
    expect(s.warnings.map((w) => [w.code, w.count])).toEqual([
      ['bad_timestamp', 92],
      ['bad_timestamp', 6],
      ['ended_without_completion', 1],
    ]);
    expect(s.cost?.estimated).toBe(true);
  });
});

interface ExpectedOp {
  kind: string;
  name: string;
  status: string | null;
  child: string;
  extras: Record<string, unknown>;
}
interface ExpectedTurn {
  status: string;
  errorClass: string;
  tokens: [number, number, number];
  extras: Record<string, unknown>;
}
interface Expected {
  session: Payload | Record<string, never>;
  model: string | null;
  turns: ExpectedTurn[];
  ops: ExpectedOp[];
  final: { status: string; errorClass: string } | null;
}

/** The fields of ai-viewer's event payloads this comparison reads. */
interface Payload {
  TurnSeq: number;
  Seq: number;
  Kind: string;
  Name: string;
  Model: string;
  Status: string;
  ErrorClass: string;
  Message: string;
  ChildSessionNativeID: string;
  TokensIn: number;
  TokensOut: number;
  TokensCacheRead: number;
  Extras: Record<string, unknown> | null;
}

/** Folds ai-viewer's event stream into the facts it states: the session, its turns and the last word on every op. */
function loadExpected(name: string): Expected {
  const out: Expected = { session: {}, model: null, turns: [], ops: [], final: null };
  const ops = new Map<string, ExpectedOp>();
  for (const text of readFileSync(join(base, '_expected', name, 'expected.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)) {
    const { kind, payload: p } = JSON.parse(text) as { kind: string; payload: Payload };
    const key = `${p.TurnSeq}/${p.Seq}`;
    if (kind === 'session_started') out.session = p;
    else if (kind === 'session_updated' && p.Model) out.model = p.Model;
    else if (kind === 'op_started') {
      const known = ops.get(key);
      if (known) Object.assign(known.extras, p.Extras ?? {});
      else ops.set(key, { kind: p.Kind, name: p.Name, status: null, child: p.ChildSessionNativeID, extras: { ...(p.Extras ?? {}) } });
    } else if (kind === 'op_finalized') {
      const op = ops.get(key);
      if (op) op.status = p.Status;
    } else if (kind === 'turn_finalized') {
      out.turns.push({ status: p.Status, errorClass: p.ErrorClass, tokens: [p.TokensIn, p.TokensOut, p.TokensCacheRead], extras: { ...(p.Extras ?? {}) } });
    } else if (kind === 'log_entry' && p.Message === 'turn_meta') Object.assign(out.turns[p.TurnSeq - 1]?.extras ?? {}, p.Extras);
    else if (kind === 'session_finalized') out.final = { status: p.Status, errorClass: p.ErrorClass };
  }
  out.ops = [...ops.values()];
  return out;
}

/** Case name → input rollout, as MANIFEST.md lists them. */
const CASES: Record<string, string> = {
  a_happy_new: SAMPLES[11]?.[0] ?? '',
  b_old_turncontext: SAMPLES[1]?.[0] ?? '',
  c_subagent_threadspawn: SAMPLES[13]?.[0] ?? '',
  d_fork: SAMPLES[12]?.[0] ?? '',
  e_compaction: SAMPLES[3]?.[0] ?? '',
  f_exec_truncated: SAMPLES[5]?.[0] ?? '',
  g_turn_aborted: SAMPLES[4]?.[0] ?? '',
  h_crash_stale: SAMPLES[6]?.[0] ?? '',
  i_collab_spawn: SAMPLES[14]?.[0] ?? '',
  j_replaced_turn: SAMPLES[15]?.[0] ?? '',
  k_web_search: SAMPLES[16]?.[0] ?? '',
  l_exec_failed: SAMPLES[7]?.[0] ?? '',
  m_multi_web_search: SAMPLES[8]?.[0] ?? '',
  n_patch_apply: SAMPLES[9]?.[0] ?? '',
  o_payload_id_filename: SAMPLES[10]?.[0] ?? '',
};

/** ai-viewer's turn outcome in our words. */
const TURN_STATUS: Record<string, string> = {
  'completed/': 'completed',
  'failed/user_interrupt': 'aborted',
  'failed/incomplete': 'incomplete',
  'failed/replaced': 'replaced',
};

describe('Codex samples against ai-viewer expectations', () => {
  it.each(Object.entries(CASES))('%s', async (name, rel) => {
    const want = loadExpected(name);
    const s = await read(rel);
    const sess = want.session as unknown as {
      NativeID: string;
      ParentNativeID: string;
      Kind: string;
      Cwd: string;
      Ts: number;
      Extras: Record<string, unknown>;
    };
    // Session identity: session_meta.id (also when the file name disagrees, case o), start time, cwd, git, CLI.
    expect(s.id).toBe(sess.NativeID);
    expect(Date.parse(s.createdAt ?? '') * 1000).toBe(sess.Ts);
    expect(s.project.path).toBe(sess.Cwd);
    const git = sess.Extras.git as { branch: string; commit_hash: string };
    expect([s.project.branch, s.project.headCommit, s.toolVersion, s.extra.originator, s.extra.source]).toEqual([
      git.branch,
      git.commit_hash,
      sess.Extras.cli_version,
      sess.Extras.originator,
      sess.Extras.source,
    ]);
    // A thread spawned by another is its child; a fork only copies history, so it stays a separate root with a link in extra.
    if (sess.Kind === 'sub_agent') expect(s.parentKey).toBe(`codex:${sess.ParentNativeID}`);
    else expect(s.parentKey).toBeNull();
    if (sess.Kind === 'fork') expect(s.extra.forkedFrom).toBe(`codex:${sess.ParentNativeID}`);
    expect(s.model?.name).toBe(want.model);

    const turns = s.operations.filter((o) => o.type === 'turn');
    expect(turns).toHaveLength(want.turns.length);
    want.turns.forEach((t, i) => {
      const ours = turns[i];
      const d = (ours?.detail ?? {}) as Record<string, unknown>;
      // 0.61 (case b) writes no task events, so the end of its turn is not recorded; ai-viewer assumes "completed".
      expect(ours?.status).toBe(name === 'b_old_turncontext' ? null : TURN_STATUS[`${t.status}/${t.errorClass}`]);
      // ai-viewer's TokensOut includes reasoning tokens; the canonical model keeps them apart.
      const u = ours?.usage ?? { input: 0, output: 0, cacheRead: 0, reasoning: 0 };
      expect([u.input, u.output + u.reasoning, u.cacheRead]).toEqual(t.tokens);
      const pairs: Array<[string, string]> = [
        ['codex_turn_id', 'turnId'],
        ['effort', 'effort'],
        ['approval_policy', 'approvalPolicy'],
        ['sandbox', 'sandbox'],
        ['ttft_ms', 'ttftMs'],
        ['last_agent_message', 'lastAgentMessage'],
      ];
      for (const [theirs, mine] of pairs) if (t.extras[theirs] !== undefined) expect(d[mine]).toEqual(t.extras[theirs]);
    });
    // ai-viewer's session outcome for a crashed rollout is "failed/incomplete"; ours is closed with a warning.
    if (want.final) expect([s.status, s.warnings.map((w) => w.code)]).toEqual(['closed', ['ended_without_completion']]);

    const tools = want.ops.filter((o) => o.kind === 'tool' || o.kind === 'session');
    const ourTools = s.operations.filter((o) => o.type !== 'turn');
    expect(ourTools.map((o) => [o.name, o.status])).toEqual(tools.map((o) => [o.kind === 'session' ? 'spawn_agent' : o.name, o.status]));
    tools.forEach((t, i) => {
      const ours = ourTools[i];
      const d = (ours?.detail ?? {}) as Record<string, unknown>;
      if (t.child) expect(ours?.childSessionKey).toBe(`codex:${t.child}`);
      if (t.extras.exec_exit_code !== undefined)
        expect([d.exitCode, ours?.latencyMs, d.cwd]).toEqual([t.extras.exec_exit_code, t.extras.exec_duration_ms, t.extras.exec_cwd]);
      // Ours is the web_search_end action as written, which may add the `queries` list ai-viewer leaves out.
      if (t.extras.action !== undefined) expect(d.action).toMatchObject(t.extras.action as object);
      if (t.extras.query !== undefined) expect(d.query).toBe(t.extras.query);
      if (t.extras.call_id !== undefined) expect(d.callId).toBe(t.extras.call_id);
    });

    // ai-viewer's non-tool ops mirror messages: user input, reasoning, assistant replies (llm) and compactions.
    const count = (kind: string) => want.ops.filter((o) => o.kind === kind).length;
    const has = (type: string) => s.messages.filter((m) => m.parts.some((p) => p.type === type));
    expect(s.messages.filter((m) => m.role === 'user').length).toBe(count('internal'));
    expect(has('thinking').length).toBe(count('reasoning'));
    expect(has('text').filter((m) => m.role === 'assistant').length).toBe(count('llm'));
    expect(has('compaction').length).toBe(count('compaction'));
  });
});
