// The ai-agent snapshot reader over the sample corpus's snapshots: turns, calls, sub-agents, costs and outcomes each implies.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aiAgentReader } from './ai-agent.ts';
import { movedToNow } from '../../test-support/recent-times.ts';
import { failure } from '../../test-support/reader-checks.ts';
import { byId, LONG_AGO, opIds, parseBytes, read, sampleSessions } from './ai-agent-test-read.ts';

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
