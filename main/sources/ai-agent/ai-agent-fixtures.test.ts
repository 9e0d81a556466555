// The ai-agent snapshot reader over the project's own fixtures and variants built from them: agent trees, usage, captured refs, legacy runs.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { aiAgentReader } from './ai-agent.ts';
import { parseGzipJson } from './ai-agent-gzip.ts';
import { movedToNow } from '../../test-support/recent-times.ts';
import { testTempDir } from '../../test-support/temp-dir.ts';
import { byId, fixtures, LONG_AGO, opIds, parseBytes, read } from './ai-agent-test-read.ts';

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
