// Tests for ai-agent v1/v2 snapshots: every sample, ai-viewer's expected streams, the hostile gzip files and our own fixtures.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/session.ts';
import type { DocumentContext } from '../coerce.ts';
import { aiAgentReader } from './ai-agent.ts';
import { parseGzipJson } from './ai-agent-gzip.ts';
import { parseAiAgentSnapshot, readAiAgentSnapshot } from './ai-agent-snapshot.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { movedToNow } from '../../test-support/recent-times.ts';
import { failure, valid } from '../../test-support/reader-checks.ts';
import { testTempDir } from '../../test-support/temp-dir.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const fixtures = join(here, './fixtures/.ai-agent/sessions');
const sampleSessions = join(samplesDir, 'ai-agent/sessions');
const LONG_AGO = 0;

async function read(path: string): Promise<Session> {
  return valid(await aiAgentReader.read(path));
}

/** Parses a gzip file's bytes with a chosen mtime, so "active" vs "unknown" does not depend on when the file was copied. */
async function parseBytes(path: string, mtimeMs = LONG_AGO, ctxPath = path, edit = (v: unknown) => v): Promise<Session> {
  const { value, warnings } = await parseGzipJson(readFileSync(path));
  const ctx: DocumentContext = { path: ctxPath, size: statSync(path).size, mtimeMs, warnings };
  return valid(parseAiAgentSnapshot(edit(value), ctx));
}

const opIds = (s: Session) => s.operations.map((o) => o.id);
const byId = (s: Session, id: string) => s.operations.find((o) => o.id === id);

describe('ai-agent snapshot samples', () => {
  const sample = (uuid: string) => join(sampleSessions, `${uuid}.json.gz`);

  it('happy v2 single turn: one turn with one llm call, recorded cost, closed successfully', async () => {
    const path = sample('00000000-0000-4000-8000-000000000001');
    const s = await read(path);
    expect([s.key, s.id, s.formatVersion, s.title]).toEqual([
      'ai-agent:00000000-0000-4000-8000-000000000001',
      '00000000-0000-4000-8000-000000000001',
      '2',
      'happy v2 fixture',
    ]);
    expect([s.createdAt, s.updatedAt, s.closedAt, s.status]).toEqual([
      '2023-11-14T22:13:20.000Z',
      '2023-11-14T22:13:30.000Z',
      '2023-11-14T22:13:30.000Z',
      'closed',
    ]);
    expect(s.outcome).toEqual({ status: 'success', summary: null, commitSha: null });
    expect(s.project).toEqual({ path: null, name: null, branch: null, headCommit: null });
    expect(opIds(s)).toEqual(['turn-1', 'op-llm-t1']);
    expect(s.messages).toHaveLength(1);
    expect(s.messages[0]).toMatchObject({
      role: 'assistant',
      model: 'claude-3-5-sonnet',
      parts: [],
      annotations: { note: 'The snapshot records no response text for this call.' },
    });
    expect(s.usage).toEqual({ input: 100, output: 50, cacheRead: 10, cacheWrite: 0, reasoning: 0 });
    expect(s.cost).toEqual({ usd: 0.012345, estimated: false });
    expect(s.model).toEqual({ provider: 'anthropic', name: 'claude-3-5-sonnet', parameters: {} });
    expect(s.sourceFiles).toEqual([{ path, size: statSync(path).size, mtimeMs: statSync(path).mtimeMs, role: 'primary' }]);
    expect(s.warnings).toEqual([]);
  });

  it('legacy v1 without sessionTitle or prompts is titled by its agent', async () => {
    const s = await read(sample('00000000-0000-4000-8000-000000000002'));
    expect([s.formatVersion, s.title, s.status, s.extra.callPath]).toEqual(['1', 'test-legacy', 'closed', null]);
  });

  it('embedded sub-agents become nested operations of the parent, not separate sessions', async () => {
    const s = await read(sample('00000000-0000-4000-8000-000000000004'));
    expect(opIds(s)).toEqual(['turn-1', 'op-sub-a', 'op-sub-a/turn-1', 'op-sub-a/op-llm-t1', 'op-sub-b', 'op-sub-b/turn-1', 'op-sub-b/op-llm-t1']);
    expect(byId(s, 'op-sub-b/turn-1')?.parentId).toBe('op-sub-b');
    expect(byId(s, 'op-sub-b/op-llm-t1')?.parentId).toBe('op-sub-b/turn-1');
    expect([s.parentKey, s.childKeys]).toEqual([null, []]);
    expect((s.extra.subAgents as Array<{ traceId: string }>).map((a) => a.traceId)).toEqual([
      '22222222-aaaa-4222-8222-aaaaaaaaaaaa',
      '22222222-bbbb-4222-8222-bbbbbbbbbbbb',
    ]);
    // No opTree.totals here: the session total is every accounting entry in the tree, sub-agents included (as totals would be).
    expect(s.usage).toEqual({ input: 200, output: 100, cacheRead: 20, cacheWrite: 0, reasoning: 0 });
    expect(s.cost?.usd).toBeCloseTo(0.02469, 10);
    expect(s.messages.map((m) => [m.role, m.agentId])).toEqual([
      ['tool', null],
      ['assistant', 'child-a'],
      ['tool', null],
      ['assistant', 'child-b'],
    ]);
  });

  it('turn 0 is the init turn, system ops are operations without messages, tool accounting counts characters', async () => {
    const init = await read(sample('00000000-0000-4000-8000-000000000005'));
    expect(init.operations.map((o) => [o.id, o.type, o.name])).toEqual([
      ['turn-0', 'turn', 'Turn 0 (init)'],
      ['init-op', 'system', 'init'],
      ['turn-1', 'turn', 'Turn 1'],
      ['op-llm-t1', 'llm', 'claude-3-5-sonnet'],
    ]);
    const sys = await read(sample('00000000-0000-4000-8000-000000000006'));
    expect([sys.operations.map((o) => o.name), sys.messages, sys.usage, sys.cost, sys.model]).toEqual([['Turn 1', 'tick', 'drain'], [], null, null, null]);
    const tool = await read(sample('00000000-0000-4000-8000-000000000007'));
    expect(tool.messages.map((m) => m.parts)).toEqual([[{ type: 'tool_call', callId: 'tool-op-1', name: 'shell', input: null }]]);
    expect(byId(tool, 'tool-op-1')).toMatchObject({
      status: 'ok',
      latencyMs: 2000,
      usage: null,
      detail: { accounting: [{ type: 'tool', charactersIn: 120, charactersOut: 4500, command: '<redacted>' }] },
    });
    expect(tool.extra.toolCharacters).toEqual({ in: 120, out: 4500 });
  });

  it('keeps finalReport and pluginMetas; an empty snapshot next to an orphan temp has no operations', async () => {
    const report = await read(sample('00000000-0000-4000-8000-000000000008'));
    expect(report.outcome).toEqual({ status: 'success', summary: 'All checks passed.', commitSha: null });
    expect(report.extra.pluginMetas).toEqual({ linter: { errors: 0, warnings: 0 }, security: { high: 0, medium: 0 } });
    const tmp = await read(sample('00000000-0000-4000-8000-00000000000a'));
    expect([tmp.title, tmp.operations, tmp.messages, tmp.status]).toEqual(['tmp-test-agent', [], [], 'closed']);
    expect(aiAgentReader.claims(`${sample('00000000-0000-4000-8000-00000000000a')}.tmp-1234-5678`)).toBe(false);
  });

  it('a zero-byte snapshot is unreadable: empty_file', async () => {
    const err = await failure(() => aiAgentReader.read(sample('00000000-0000-4000-8000-000000000009')));
    expect([err.code, err.message]).toEqual(['empty_file', 'File is empty (0 bytes): the snapshot was never written (the producer crashed?).']);
  });

  it('failed session: outcome from the error, uncaptured payload refs described without warnings, steps as operations', async () => {
    const s = await read(sample('0c4e8a2f-1d3b-4c5e-a7f9-6b8d0e2a4c61'));
    expect([s.title, s.status]).toEqual(['Plot daily cost for the last 90 days.', 'closed']);
    expect(s.outcome).toEqual({ status: 'failed', summary: 'token budget exceeded (139884 > 131072) on final turn', commitSha: null });
    expect(s.operations.map((o) => [o.id, o.type, o.status])).toEqual([
      ['turn-1', 'turn', null],
      ['mke5d9kc-c06dbf', 'llm', 'ok'],
      ['mke5dgl4-4cbf92', 'tool', 'failed'],
      ['mke5dpx8-5d6d24', 'llm', 'failed'],
      ['step-0', 'step', null],
    ]);
    expect(byId(s, 'step-0')?.name).toBe('Step 0 (history-compaction)');
    const llm = byId(s, 'mke5d9kc-c06dbf')?.detail as { request: { payload: { refs: Array<{ state: string; sha256: string }> } } };
    expect(llm.request.payload.refs.map((r) => r.state)).toEqual(['not_captured', 'not_captured']);
    expect(llm.request.payload.refs[0]?.sha256).toBe('b21d12654763ace72e07e3faa00e791a57e25937727a905fb798f726c10b92fb');
    expect(s.messages.map((m) => m.annotations ?? m.parts.map((p) => p.type))).toEqual([
      ['text'],
      ['text'],
      { note: 'The response body was not captured.' },
      ['tool_call', 'tool_result'],
      { note: 'No reply: token_budget_exceeded.' },
    ]);
    expect(s.messages[3]?.parts[1]).toEqual({ type: 'tool_result', callId: 'mke5dgl4-4cbf92', output: 'timeout', isError: true });
    expect([s.usage?.input, s.usage?.output, s.cost]).toEqual([48000, 1200, { usd: 0.0153, estimated: false }]);
    expect(s.model).toEqual({ provider: 'openrouter', name: 'deepseek/deepseek-v3.2', parameters: {} });
    expect(s.warnings).toEqual([]);
  });

  it('an interrupted run (subagent_finish, no endedAt) keeps its last state: unknown with a warning, or active while fresh', async () => {
    const path = sample('5d2b7f9e-3c1a-4e6b-8d0f-9a1c3e5b7d24');
    const old = await parseBytes(path, LONG_AGO);
    expect([old.status, old.closedAt, old.outcome]).toEqual(['unknown', null, null]);
    expect(old.warnings).toEqual([
      {
        code: 'incomplete_session',
        message:
          'Its last snapshot was written when a sub-agent finished and has no end time: ai-agent was interrupted before the session ended; this is its last saved state.',
        count: 1,
      },
    ]);
    // A fresh file is not enough: a snapshot copied today keeps its old times (then it is unknown, not running).
    expect((await parseBytes(path, Date.now())).status).toBe('unknown');
    const fresh = await parseBytes(path, Date.now(), path, movedToNow);
    expect([fresh.status, fresh.warnings]).toEqual(['active', []]);
    expect(old.title).toBe('Draft v2.8 release notes');
    expect(old.extra).toMatchObject({
      snapshotReason: 'subagent_finish',
      sessionId: '5d2b7f9e-3c1a-4e6b-8d0f-9a1c3e5b7d24',
      snapshotWrittenAt: '2026-01-15T15:00:15.300Z',
    });
    expect(old.messages.map((m) => m.parts.map((p) => (p.type === 'thinking' || p.type === 'text' ? p.text : p.type)))).toEqual([
      ['Summarise merged PRs into release notes.'],
      ['Release notes for v2.8.0 from the merged PR list.'],
      ['Group by area: collectors, UI, docs.'],
      ['tool_call'],
    ]);
    expect(old.operations.at(-1)).toMatchObject({ type: 'tool', status: null, endedAt: null, detail: { unfinished: true } });
    expect(old.cost).toEqual({ usd: 0, estimated: false });
  });

  it('rich root: thinking + reply, a sub-agent conversation between its call and result, totals, final report', async () => {
    const s = await read(sample('6f1d3c2a-8b4e-4f7a-9c0d-2e5b8a1f3c47'));
    expect(s.title).toBe('Prometheus vs VictoriaMetrics retention');
    expect(s.operations).toHaveLength(11);
    expect(s.messages.map((m) => `${m.role}:${m.agentId ?? 'root'}`)).toEqual([
      'system:root',
      'user:root',
      'assistant:root',
      'tool:root',
      'system:web-fetch',
      'user:web-fetch',
      'assistant:web-fetch',
      'tool:web-fetch',
      'tool:web-fetch',
      'tool:root',
      'assistant:root',
    ]);
    expect(s.messages[2]?.parts).toEqual([
      { type: 'thinking', text: 'Need both docs. Fetch them via the web-fetch sub-agent.', redacted: false },
      { type: 'text', text: "I'll fetch both retention pages." },
    ]);
    // The sub-agent's LLM asked for two fetches; they are shown once, as the two tool runs that follow.
    expect(s.messages[6]?.annotations).toEqual({ note: 'Asked for 2 tool calls, shown below as tool runs.' });
    expect(s.messages[8]?.parts[1]).toEqual({ type: 'tool_result', callId: 'mkcpxiy6-cdb945/mkcpxknk-49d67b', output: 'HTTP 404 Not Found', isError: true });
    expect(s.usage).toEqual({ input: 5670, output: 796, cacheRead: 8100, cacheWrite: 3890, reasoning: 0 });
    expect(s.cost).toEqual({ usd: 0.038, estimated: false });
    expect(s.outcome?.summary).toMatch(/^## Retention defaults/);
    expect(s.systemPrompt?.text).toBe('You are web-research. Use the tools to answer with cited sources. Finish by calling agent__final_report.');
    expect(s.extra).toMatchObject({ latestStatus: 'Writing the comparison table', toolsRun: 2, agentsRun: 2, toolCharacters: { in: 167, out: 18756 } });
    const llm = byId(s, 'mkcpxflc-7136b8')?.detail as { captures: unknown[] };
    expect(llm.captures).toEqual([
      { direction: 'request', format: 'http', chars: 539, startLine: 'POST /v1/messages HTTP/1.1' },
      { direction: 'response', format: 'sse', chars: 232, startLine: null },
    ]);
    expect(JSON.stringify(s)).not.toContain('[REDACTED]');
  });

  it('legacy v1 with OpenAI cachedTokens naming and a raw JSON-string request', async () => {
    const s = await read(sample('9e7c5a3b-1f2d-4b6e-8a0c-3d5f7b9e1a28'));
    expect([s.formatVersion, s.title]).toEqual(['1', 'Why is my disk.io chart flat?']);
    expect(s.messages[2]?.parts).toEqual([
      { type: 'thinking', text: 'The chart is flat when the collector lacks /proc/diskstats access.', redacted: false },
      { type: 'text', text: 'Most likely the container cannot read /proc/diskstats; mount /proc read-only into the agent.' },
    ]);
    expect(s.messages[2]?.usage).toEqual({ input: 3100, output: 240, cacheRead: 1024, cacheWrite: 0, reasoning: 0 });
    // totals.costUsd (rounded by the producer) wins over the sum of the entries (0.00812).
    expect(s.cost).toEqual({ usd: 0.0081, estimated: false });
  });
});

interface Event {
  kind: string;
  payload: Record<string, unknown>;
}

function expected(caseName: string): Event[] {
  const text = readFileSync(join(samplesDir, 'ai-agent/_expected', caseName, 'expected.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Event);
}

/** The native session an operation belongs to: the root, or the embedded sub-agent whose spawning op it sits under. */
function owner(s: Session, opId: string): string {
  const turn = byId(s, byId(s, opId)?.parentId ?? '');
  const spawn = turn?.parentId ? byId(s, turn.parentId) : undefined;
  return spawn ? String((spawn.detail as { childSession: { traceId: string } }).childSession.traceId) : s.id;
}

/** Facts both readings hold, per native session: ops in order with kind, name, tokens, cost and child link. */
function ourFacts(s: Session) {
  const facts = new Map<string, unknown[]>();
  for (const o of s.operations.filter((x) => x.type !== 'turn' && x.type !== 'step')) {
    const child = (o.detail as { childSession?: { traceId: string } }).childSession?.traceId ?? '';
    const list = facts.get(owner(s, o.id)) ?? [];
    // ai-viewer leaves system ops unnamed; we show their label.
    list.push([
      o.type,
      o.type === 'system' ? '' : o.name,
      o.usage?.input ?? 0,
      o.usage?.output ?? 0,
      o.usage?.cacheRead ?? 0,
      o.cost?.usd ?? 0,
      child,
      o.status === 'ok' ? 'completed' : o.status,
    ]);
    facts.set(owner(s, o.id), list);
  }
  return facts;
}

function theirFacts(events: Event[]) {
  const facts = new Map<string, unknown[]>();
  const started = events.filter((e) => e.kind === 'op_started');
  for (const e of started) {
    const p = e.payload;
    const done =
      events.find(
        (f) => f.kind === 'op_finalized' && f.payload.SessionNativeID === p.SessionNativeID && f.payload.TurnSeq === p.TurnSeq && f.payload.Seq === p.Seq,
      )?.payload ?? {};
    const list = facts.get(String(p.SessionNativeID)) ?? [];
    list.push([p.Kind, p.Name, done.TokensIn, done.TokensOut, done.TokensCacheRead, done.CostUSD, p.ChildSessionNativeID, done.Status]);
    facts.set(String(p.SessionNativeID), list);
  }
  return facts;
}

const CASES: Array<[string, string]> = [
  ['happy_v2_single_turn', '00000000-0000-4000-8000-000000000001'],
  ['happy_v1_legacy', '00000000-0000-4000-8000-000000000002'],
  ['embedded_sub_agent', '00000000-0000-4000-8000-000000000003'],
  ['multi_descendant_same_file', '00000000-0000-4000-8000-000000000004'],
  ['init_turn_zero', '00000000-0000-4000-8000-000000000005'],
  ['system_op_kind', '00000000-0000-4000-8000-000000000006'],
  ['tool_chars_accounting', '00000000-0000-4000-8000-000000000007'],
  ['final_report', '00000000-0000-4000-8000-000000000008'],
  ['tmp_file', '00000000-0000-4000-8000-00000000000a'],
];

describe("ai-viewer's expected event streams", () => {
  it.each(CASES)('%s: same sessions, agents, ops, tokens, costs, child links and end times', async (caseName, uuid) => {
    const events = expected(caseName);
    const s = await read(join(sampleSessions, `${uuid}.json.gz`));
    const sessions = events.filter((e) => e.kind === 'session_started').map((e) => e.payload);
    const root = sessions.find((p) => p.Kind === 'root');
    expect(root?.NativeID).toBe(s.id);
    expect(root?.AgentName).toBe(s.extra.agentId);
    expect(root?.CallPath).toBe(s.extra.callPath ?? '');
    expect(root?.Model).toBe(s.model?.name ?? '');
    // ai-viewer lists embedded sub-agents as sessions of their own; here they are the spawning op's childSession.
    const subs = (s.extra.subAgents ?? []) as Array<{ traceId: string; agentId: string; endedAt: string }>;
    expect(subs.map((a) => [a.traceId, a.agentId])).toEqual(sessions.filter((p) => p.Kind === 'sub_agent').map((p) => [p.NativeID, p.AgentName]));
    const ends = new Map(
      events.filter((e) => e.kind === 'session_finalized').map((e) => [e.payload.NativeID, new Date(Number(e.payload.EndTs) / 1000).toISOString()]),
    );
    expect(ends.get(s.id)).toBe(s.closedAt);
    for (const a of subs) expect(ends.get(a.traceId)).toBe(a.endedAt);
    expect(events.filter((e) => e.kind === 'session_finalized').every((e) => e.payload.Status === 'completed')).toBe(true);
    expect(s.outcome?.status).toBe('success');
    expect(ourFacts(s)).toEqual(theirFacts(events));
    // Turn totals: ai-viewer reports 0 where no op of the turn recorded accounting; we leave those null.
    const turns = events
      .filter((e) => e.kind === 'turn_finalized' && e.payload.SessionNativeID === s.id)
      .map((e) => [e.payload.Seq, e.payload.TokensIn, e.payload.CostUSD]);
    expect(
      s.operations
        .filter((o) => o.type === 'turn' && o.parentId === null)
        .map((o) => [(o.detail as { index: number }).index, o.usage?.input ?? 0, o.cost?.usd ?? 0]),
    ).toEqual(turns);
  });
});

const malformed = (name: string) => join(samplesDir, 'malformed', name);

describe('hostile snapshot files', () => {
  it.each([
    [
      'gzip_bad_crc__snapshot.json.gz',
      'invalid_encoding',
      'The gzip data is corrupt: its CRC-32 checksum does not match (the file was damaged after it was written).',
    ],
    [
      'gzip_truncated_stream__snapshot.json.gz',
      'invalid_encoding',
      'The gzip stream ends early (unexpected end of file): the file was cut off while being written.',
    ],
    [
      'not_gzip__snapshot.json.gz',
      'invalid_encoding',
      'Not gzip data: the file does not start with the gzip signature (1f 8b). It holds plain, uncompressed JSON under a .json.gz name.',
    ],
    [
      'gzip_valid_but_unsupported_version_3__snapshot.json.gz',
      'unsupported_version',
      'ai-agent snapshot version 3 is not supported (this app reads snapshot versions 1 and 2).',
    ],
  ])('%s is unreadable: %s', async (name, code, message) => {
    const err = await failure(() => readAiAgentSnapshot(malformed(name)));
    expect([err.code, err.message]).toEqual([code, message]);
  });

  it('gzip of truncated JSON is invalid_json and says where it ends', async () => {
    const err = await failure(() => readAiAgentSnapshot(malformed('gzip_of_invalid_json__snapshot.json.gz')));
    expect(err.code).toBe('invalid_json');
    expect(err.message).toBe('Invalid JSON: Unexpected end of JSON input. The file ends early: it was probably cut off while being written.');
  });

  it('reads every member of a multi-member gzip', async () => {
    const s = await parseBytes(malformed('gzip_multi_member__snapshot.json.gz'));
    expect([s.id, s.title, s.createdAt, s.status, s.operations]).toEqual([
      'd1e2f3a4-0000-4000-8000-00000000000c',
      'a',
      '1970-01-01T00:00:00.001Z',
      'unknown',
      [],
    ]);
  });

  it('refuses payload refs that escape the sessions root, naming them, and never looks them up', async () => {
    const s = await read(malformed('v2_payload_ref_path_escape__snapshot.json.gz'));
    expect(s.warnings).toEqual([
      {
        code: 'unsafe_payload_path',
        message: 'A payload reference points outside the sessions folder ("../../../../etc/passwd"); it was not opened.',
        count: 1,
      },
      { code: 'unsafe_payload_path', message: 'A payload reference points outside the sessions folder ("/etc/shadow"); it was not opened.', count: 1 },
    ]);
    const detail = s.operations[1]?.detail as {
      request: { payload: { refs: Array<{ state: string; size?: number }> } };
      response: { payload: { refs: Array<{ state: string }> } };
    };
    expect([detail.request.payload.refs[0], detail.response.payload.refs[0]].map((r) => r?.state)).toEqual(['refused', 'refused']);
    expect(detail.request.payload.refs[0]?.size).toBeUndefined();
    expect(s.messages[0]?.annotations).toEqual({ note: 'The response body is stored in /etc/shadow; it is not shown here.' });
  });
});

/** The object at `path` inside a parsed JSON document, so tests can edit fixture copies without casting at every step. */
function node(doc: unknown, ...path: Array<string | number>): Record<string, unknown> {
  let cur = doc;
  for (const key of path) cur = (cur as Record<string | number, unknown>)[key];
  return cur as Record<string, unknown>;
}

/** A copy of a fixture snapshot, changed by `edit`, in a fresh `.ai-agent/sessions` folder (payload files can be added beside it). */
async function variant(source: string, edit: (doc: unknown) => void): Promise<{ sessions: string; path: string }> {
  const { value } = await parseGzipJson(readFileSync(source));
  const doc = value;
  edit(doc);
  const sessions = join(testTempDir('ai-agent-snap-'), '.ai-agent/sessions');
  mkdirSync(sessions, { recursive: true });
  const path = join(sessions, source.slice(source.lastIndexOf('/') + 1));
  writeFileSync(path, gzipSync(Buffer.from(JSON.stringify(doc))));
  return { sessions, path };
}

describe('our own snapshot fixtures', () => {
  const ROOT_ID = '7a1e2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b';
  const ROOT = join(fixtures, `${ROOT_ID}.json.gz`);

  it('reads a three-level agent tree: ids, parents and each agent’s messages in order', async () => {
    const s = await read(ROOT);
    expect(s.title).toBe('Is v3.2 ready to ship?');
    expect(opIds(s)).toEqual([
      'turn-0',
      'init',
      'turn-1',
      'llm-1',
      'tool-1',
      'agent-1',
      'agent-1/turn-1',
      'agent-1/llm-1',
      'agent-1/agent-2',
      'agent-1/agent-2/turn-1',
      'agent-1/agent-2/llm-1',
      'turn-2',
      'llm-2',
    ]);
    expect(
      ['agent-1/agent-2/llm-1', 'agent-1/agent-2/turn-1', 'agent-1/agent-2', 'agent-1/turn-1', 'agent-1', 'turn-1'].map((id) => byId(s, id)?.parentId),
    ).toEqual(['agent-1/agent-2/turn-1', 'agent-1/agent-2', 'agent-1/turn-1', 'agent-1', 'turn-1', null]);
    expect(s.messages.map((m) => `${m.id} ${m.role} ${m.agentId ?? '-'}`)).toEqual([
      'turn-1:system system -',
      'turn-1:user user -',
      'llm-1:reply assistant -',
      'tool-1:call tool -',
      'agent-1:call tool -',
      'agent-1/turn-1:system system changelog',
      'agent-1/turn-1:user user changelog',
      'agent-1/llm-1:reply assistant changelog',
      'agent-1/agent-2:call tool changelog',
      'agent-1/agent-2/llm-1:reply assistant linkcheck',
      'agent-1/agent-2:result tool changelog',
      'agent-1:result tool -',
      'llm-2:reply assistant -',
    ]);
    // The repeated system prompt of turn 2 is not shown twice.
    expect(s.messages.filter((m) => m.role === 'system' && m.agentId === null)).toHaveLength(1);
    // The grandchild's reply exists only as a captured SSE body in its logs.
    expect(s.messages[9]?.parts).toEqual([{ type: 'text', text: 'All 7 links resolve.' }]);
    expect(s.messages[7]?.parts).toEqual([{ type: 'text', text: 'Twelve entries, none breaking. Checking links next.' }]);
    expect(s.messages[12]?.annotations).toEqual({ note: 'The response body was not captured.' });
    expect(s.outcome).toEqual({ status: 'success', summary: 'Ready to ship: CI green, changelog complete.', commitSha: null });
    expect(s.warnings).toEqual([]);
  });

  it('sums usage over the whole tree without totals; an unpriced entry makes the cost estimated', async () => {
    const s = await read(ROOT);
    expect(s.usage).toEqual({ input: 4100, output: 310, cacheRead: 3200, cacheWrite: 100, reasoning: 0 });
    expect(s.cost?.usd).toBeCloseTo(0.021 + 0.00218 + 0.0001 + 0.009, 10);
    expect(s.cost?.estimated).toBe(true);
    expect(byId(s, 'agent-1/llm-1')?.cost).toEqual({ usd: expect.closeTo(0.00218, 10) as number, estimated: true });
    expect(s.model).toEqual({ provider: 'anthropic', name: 'claude-sonnet-4-5', parameters: {} });
  });

  it('captured refs: a present payload file is described by size, a missing one is warned about once; temps are never claimed', async () => {
    const { sessions, path } = await variant(ROOT, (doc) => {
      node(doc, 'opTree', 'turns', 1, 'ops', 0, 'request', 'payload', 'ref').captured = true;
      node(doc, 'opTree', 'turns', 2, 'ops', 0, 'response', 'payload', 'ref').captured = true;
      (node(doc, 'opTree', 'turns', 1).ops as unknown[]).push({
        opId: 'plug-1',
        kind: 'plugin',
        startedAt: 1760000020100,
        endedAt: 1760000020200,
        status: 'ok',
        attributes: { name: 'notify-slack' },
      });
    });
    const payload = join(sessions, `payloads/${ROOT_ID}/turn-0001/llm-0001-request.http.gz`);
    mkdirSync(join(payload, '..'), { recursive: true });
    writeFileSync(payload, Buffer.alloc(112));
    const temp = `${path}.tmp-4242-1760000049500`;
    writeFileSync(temp, readFileSync(path).subarray(0, 200));
    expect([aiAgentReader.claims(path), aiAgentReader.claims(temp)]).toEqual([true, false]);
    const s = await read(path);
    const request = (byId(s, 'llm-1')?.detail as { request: { payload: { refs: Array<Record<string, unknown>> } } }).request.payload.refs[0];
    expect(request).toMatchObject({ state: 'present', size: 112, sha256: '40872143212c80f6dc98b9b5885f21c1dc2f98d1d4099b4fb8b65b14030b9fd5', redacted: true });
    expect(s.messages.find((m) => m.id === 'llm-2:reply')?.annotations).toEqual({
      note: `The response body is stored in payloads/${ROOT_ID}/turn-0002/llm-0002-response.sse.gz; it is not shown here.`,
    });
    expect(s.warnings).toEqual([
      { code: 'unknown_record_type', message: 'Operation kind "plugin" is not known to this app (1 operation); shown as is.', count: 1 },
      {
        code: 'missing_payload',
        message: `Payload files referenced by the session are not on disk (first: payloads/${ROOT_ID}/turn-0002/llm-0002-response.sse.gz); only their recorded size and checksum are shown.`,
        count: 1,
      },
    ]);
    expect(byId(s, 'plug-1')).toMatchObject({ type: 'plugin', name: 'notify-slack', parentId: 'turn-1' });
  });

  it('v1 legacy run: title from the agent, tool calls from a captured HTTP body shown once, as the tool run', async () => {
    const s = await read(join(fixtures, '3f9a8b7c-6d5e-4f40-9a3b-2c1d0e9f8a7b.json.gz'));
    expect([s.formatVersion, s.title, s.status, s.outcome?.status, s.warnings]).toEqual(['1', 'nightly-digest', 'closed', 'success', []]);
    expect(s.messages.map((m) => [m.role, m.annotations ?? m.parts])).toEqual([
      ['assistant', { note: 'Asked for 1 tool call, shown below as tool runs.' }],
      [
        'tool',
        [
          { type: 'tool_call', callId: 'tool-1', name: 'feeds__list', input: { since: 'yesterday' } },
          { type: 'tool_result', callId: 'tool-1', output: '{\n  "feeds": [\n    "hn",\n    "lobsters"\n  ]\n}', isError: false },
        ],
      ],
    ]);
    expect((byId(s, 'llm-1')?.detail as { captures: unknown[] }).captures).toEqual([
      { direction: 'response', format: 'http', chars: 235, startLine: 'HTTP/1.1 200 OK' },
    ]);
    expect(s.usage).toEqual({ input: 1000, output: 50, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
  });

  it('an interrupted run keeps its last state: unknown with a warning when stale, active when fresh', async () => {
    const { path } = await variant(join(fixtures, '3f9a8b7c-6d5e-4f40-9a3b-2c1d0e9f8a7b.json.gz'), (doc) => {
      node(doc).reason = 'subagent_finish';
      delete node(doc, 'opTree').endedAt;
      delete node(doc, 'opTree').success;
      const tool = node(doc, 'opTree', 'turns', 0, 'ops', 1);
      for (const k of ['endedAt', 'status', 'response']) delete tool[k];
    });
    const stale = await parseBytes(path, LONG_AGO);
    expect([stale.status, stale.closedAt, stale.outcome, stale.warnings.map((w) => w.code)]).toEqual(['unknown', null, null, ['incomplete_session']]);
    expect(stale.messages[1]?.parts).toEqual([{ type: 'tool_call', callId: 'tool-1', name: 'feeds__list', input: { since: 'yesterday' } }]);
    expect(stale.operations[2]).toMatchObject({ id: 'tool-1', status: null, endedAt: null, detail: { unfinished: true } });
    expect((await parseBytes(path, Date.now())).status).toBe('unknown');
    const fresh = await parseBytes(path, Date.now(), path, movedToNow);
    expect([fresh.status, fresh.warnings]).toEqual(['active', []]);
  });
});

describe('tolerance', () => {
  const ctx: DocumentContext = { path: '/home/u/.ai-agent/sessions/ab.json.gz', size: 1, mtimeMs: LONG_AGO, warnings: [] };

  it('wrong types everywhere become warnings, never exceptions', () => {
    const s = valid(
      parseAiAgentSnapshot(
        {
          version: 2,
          reason: 7,
          opTree: {
            traceId: 'tr-1',
            agentId: ['x'],
            startedAt: 'yesterday',
            endedAt: 1700000000000,
            success: 'yes',
            turns: [
              5,
              {
                index: 'one',
                attributes: { prompts: 'hi' },
                ops: [
                  null,
                  {
                    opId: 3,
                    kind: 'llm',
                    accounting: [{ type: 'llm', tokens: { inputTokens: '10', outputTokens: -4 } }],
                    reasoning: { chunks: 'x' },
                    logs: {},
                  },
                ],
              },
            ],
            steps: 'none',
            totals: { tokensIn: 'many' },
          },
        },
        ctx,
      ),
    );
    expect([s.id, s.title, s.status]).toEqual(['tr-1', 'ai-agent session tr-1', 'closed']);
    expect(s.operations.map((o) => [o.id, o.type])).toEqual([
      ['turn-1', 'turn'],
      ['op-1', 'llm'],
    ]);
    expect(s.operations[1]?.usage).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
    const codes = new Set(s.warnings.map((w) => w.code));
    expect([...codes].sort()).toEqual(['bad_timestamp', 'wrong_type']);
    expect(
      s.warnings.some((w) =>
        w.message.includes('Field "opTree.turns[].ops[].accounting[].tokens.outputTokens" is a negative token count (-4); it was read as 0.'),
      ),
    ).toBe(true);
  });

  it('a snapshot with no opTree or of another shape is wrong_shape; a non-object is wrong_shape', async () => {
    expect((await failure(async () => parseAiAgentSnapshot({ version: 2, reason: 'final' }, ctx))).message).toBe(
      'Not an ai-agent snapshot: there is no "opTree" object (its fields are version, reason).',
    );
    expect((await failure(async () => parseAiAgentSnapshot([1], ctx))).code).toBe('wrong_shape');
    expect((await failure(async () => parseAiAgentSnapshot({ version: '3', opTree: {} }, ctx))).code).toBe('unsupported_version');
    const wordy = valid(parseAiAgentSnapshot({ version: 'two', opTree: { traceId: 't' } }, ctx));
    expect([wordy.formatVersion, wordy.warnings.map((w) => w.code)]).toEqual(['2', ['wrong_type', 'missing_field', 'incomplete_session']]);
  });

  it('reads the nested {snapshot: {version, opTree}} event payload form as well', () => {
    const s = valid(
      parseAiAgentSnapshot(
        {
          reason: 'final',
          sessionId: 's',
          originId: 'o-1',
          timestamp: 5,
          snapshot: { version: 1, opTree: { traceId: 'o-1', agentId: 'nested', endedAt: 5, success: true, turns: [] } },
        },
        ctx,
      ),
    );
    expect([s.id, s.formatVersion, s.title, s.status]).toEqual(['o-1', '1', 'nested', 'closed']);
  });

  it('stops walking sub-agents nested more than 16 levels deep, with a warning', () => {
    let node: Record<string, unknown> = { traceId: 'leaf', turns: [] };
    for (let i = 0; i < 30; i++) node = { traceId: `n${i}`, turns: [{ index: 1, ops: [{ opId: `o${i}`, kind: 'session', childSession: node }] }] };
    const s = valid(parseAiAgentSnapshot({ version: 2, opTree: node }, ctx));
    expect(s.warnings.map((w) => w.code)).toContain('too_deep');
    expect(s.operations.filter((o) => o.type === 'session')).toHaveLength(17);
  });

  it('parses gzip bytes built here, so the suite stands without the shared samples', async () => {
    const { value } = await parseGzipJson(gzipSync(Buffer.from(JSON.stringify({ version: 2, opTree: { traceId: 'g', agentId: 'g-agent', turns: [] } }))));
    expect(valid(parseAiAgentSnapshot(value, ctx)).title).toBe('g-agent');
  });
});
