// The Codex reader against netdata/ai-viewer's expected event streams for the Codex samples of the shared corpus.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexSamples as base, readSample as read } from './codex-sample-read.ts';

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
  a_happy_new: '2026/05/06/rollout-2026-05-06T22-46-58-019dfed4-0000-7000-8000-00000000000a.jsonl',
  b_old_turncontext: '2025/11/20/rollout-2025-11-20T18-59-09-019aa234-0000-7000-8000-00000000000b.jsonl',
  c_subagent_threadspawn: '2026/05/17/rollout-2026-05-17T15-37-16-019e35f0-0000-7000-8000-00000000000c.jsonl',
  d_fork: '2026/05/08/rollout-2026-05-08T00-40-27-019e0462-0000-7000-8000-00000000000d.jsonl',
  e_compaction: '2026/03/03/rollout-2026-03-03T12-30-03-019cb33f-0000-7000-8000-00000000000e.jsonl',
  f_exec_truncated: '2026/03/31/rollout-2026-03-31T21-32-12-019d452a-0000-7000-8000-00000000000f.jsonl',
  g_turn_aborted: '2026/03/11/rollout-2026-03-11T15-51-06-019cdd2a-0000-7000-8000-00000000001a.jsonl',
  h_crash_stale: '2026/04/01/rollout-2026-04-01T09-00-00-019d4abc-0000-7000-8000-00000000001b.jsonl',
  i_collab_spawn: '2026/05/20/rollout-2026-05-20T10-15-00-019e8a10-0000-7000-8000-000000000010.jsonl',
  j_replaced_turn: '2026/05/21/rollout-2026-05-21T14-20-00-019e9b20-0000-7000-8000-000000000011.jsonl',
  k_web_search: '2026/05/22/rollout-2026-05-22T09-05-00-019eac30-0000-7000-8000-000000000012.jsonl',
  l_exec_failed: '2026/04/02/rollout-2026-04-02T10-15-30-019d8a30-0000-7000-8000-000000000031.jsonl',
  m_multi_web_search: '2026/04/03/rollout-2026-04-03T11-20-00-019d8f40-0000-7000-8000-000000000051.jsonl',
  n_patch_apply: '2026/04/04/rollout-2026-04-04T12-30-00-019d9450-0000-7000-8000-000000000071.jsonl',
  o_payload_id_filename: '2026/04/05/rollout-2026-04-05T13-40-00-019d9960-0000-7000-8000-0000000000ff.jsonl',
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
