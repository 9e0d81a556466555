// Copilot CLI reader edge cases: layouts and companions, drifting event order, unknown events, lifecycle, usage and cost.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/session.ts';
import { Head } from '../head.ts';
import type { JsonLine } from '../jsonl.ts';
import { valid } from '../../test-support/reader-checks.ts';
import { extractIndexText } from '../../search-index/index-text.ts';
import { copilotCliReader, parseCopilot, readCopilotFile } from './copilot-cli.ts';
import { USAGE_BILLING_FROM } from './copilot-usage.ts';

const NOW = Date.parse('2026-07-01T12:00:00.000Z');
const tmp = mkdtempSync(join(tmpdir(), 'copilot-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let seq = 0;
function ev(type: string, data: Record<string, unknown>, at = '2026-07-01T11:59:00.000Z', more: Record<string, unknown> = {}) {
  return { type, data, id: `e${++seq}`, parentId: null, timestamp: at, ...more };
}
const start = (data: Record<string, unknown> = {}) =>
  ev('session.start', { sessionId: 's-1', version: 1, producer: 'copilot-agent', copilotVersion: '1.0.40', startTime: '2026-07-01T11:58:00.000Z', ...data });
const lines = (...values: unknown[]): JsonLine[] => values.map((value, i) => ({ value, line: i + 1 }));

function parse(records: JsonLine[], mtimeMs = NOW - 60_000): Session {
  return valid(parseCopilot(records, { path: '/x/.copilot/session-state/s-1.jsonl', size: 1, mtimeMs, warnings: [], now: NOW }));
}

describe('Copilot CLI paths', () => {
  it('claims both layouts, not their companions, and a flat file only while no folder of the same session exists', () => {
    const state = join(tmp, 'paths', 'session-state');
    mkdirSync(join(state, 'both'), { recursive: true });
    writeFileSync(join(state, 'both', 'events.jsonl'), '');
    writeFileSync(join(state, 'both.jsonl'), '');
    expect(copilotCliReader.claims(join(state, 'both', 'events.jsonl'))).toBe(true);
    expect(copilotCliReader.claims(join(state, 'only-flat.jsonl'))).toBe(true);
    expect(copilotCliReader.claims(join(state, 'both.jsonl'))).toBe(false);
    expect(copilotCliReader.companion?.(join(state, 'both.jsonl'))).toBe(true);
    expect(copilotCliReader.companion?.(join(state, 'both', 'checkpoints', 'index.json'))).toBe(true);
    for (const other of [join(state, 'both', 'workspace.yaml'), join(state, 'both', 'events.jsonl.tmp'), join(tmp, 'events.jsonl')]) {
      expect(copilotCliReader.claims(other)).toBe(false);
    }
  });

  it('finds sessions under COPILOT_HOME, else ~/.copilot, and resumes by id', () => {
    expect(copilotCliReader.defaultRoots({ COPILOT_HOME: '/opt/cp' }, '/home/u')).toEqual(['/opt/cp/session-state']);
    expect(copilotCliReader.defaultRoots({}, '/home/u')).toEqual(['/home/u/.copilot/session-state']);
    expect(copilotCliReader.resumeCommand({ id: 'abc-1', isSubAgent: false })).toBe('copilot --resume abc-1');
  });
});

describe('Copilot CLI events', () => {
  it('pairs a result with its call once when the execution is written before the request', () => {
    const s = parse(
      lines(
        start(),
        ev('tool.execution_start', { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } }),
        ev('assistant.message', { messageId: 'm1', content: '', toolRequests: [{ toolCallId: 'c1', name: 'bash', arguments: '{"command":"ls"}' }] }),
        ev('tool.execution_complete', { toolCallId: 'c1', success: true, result: { content: 'a\n' } }),
      ),
    );
    expect(s.messages.map((m) => m.parts)).toEqual([
      [{ type: 'tool_call', callId: 'c1', name: 'bash', input: { command: 'ls' } }],
      [{ type: 'tool_result', callId: 'c1', output: 'a\n', isError: false }],
    ]);
  });

  // agentsview's TestParseCopilotSession_ToolResultTypes: results written as a string, a list or another object.
  it('shows a result that is not {content, detailedContent} as it is written', () => {
    const run = (id: string, result: unknown) => [
      ev('assistant.message', { messageId: `m-${id}`, content: '', toolRequests: [{ toolCallId: id, name: 'view', arguments: '{}' }] }),
      ev('tool.execution_complete', { toolCallId: id, success: true, result }),
    ];
    const s = parse(
      lines(start(), ...run('s', '{"key":"value"}'), ...run('o', { files: ['a.go', 'b.go'] }), ...run('a', ['one', 'two', 'three']), ...run('e', '')),
    );
    expect(s.messages.flatMap((m) => m.parts.flatMap((p) => (p.type === 'tool_result' ? [p.output] : [])))).toEqual([
      '{"key":"value"}',
      '{"files":["a.go","b.go"]}',
      '["one","two","three"]',
      '',
    ]);
    expect(s.warnings).toEqual([]);
  });

  it("keeps each tool request's intentionSummary with the run it names, or on the request when the call never ran", () => {
    const request = (toolCallId: string, intentionSummary: string) => ({ toolCallId, name: 'bash', arguments: '{}', intentionSummary });
    const s = parse(
      lines(
        start(),
        ev('assistant.message', { messageId: 'm1', content: '', toolRequests: [request('c1', 'List the directory'), request('c2', 'Remove stale caches')] }),
        ev('tool.execution_start', { toolCallId: 'c1', toolName: 'bash', arguments: {} }),
        ev('tool.execution_complete', { toolCallId: 'c1', success: true, result: { content: 'a\n' } }),
      ),
    );
    expect(s.operations.map((o) => o.detail)).toEqual([{ callId: 'c1', intention: 'List the directory' }]);
    expect(s.messages[0]?.annotations).toEqual({ intentions: { c2: 'Remove stale caches' } });
    expect(extractIndexText(s).more.split(/\s+/)).toEqual(expect.arrayContaining(['directory', 'stale']));
  });

  it('shows a call recorded only by its execution, and an error result with its message', () => {
    const s = parse(
      lines(
        start(),
        ev('tool.execution_start', { toolCallId: 'c9', toolName: 'view', arguments: { path: 'a.ts' } }),
        ev('tool.execution_complete', { toolCallId: 'c9', success: false, error: { message: 'no such file', code: 'ENOENT' } }),
      ),
    );
    expect(s.messages.map((m) => [m.role, m.parts[0]])).toEqual([
      ['assistant', { type: 'tool_call', callId: 'c9', name: 'view', input: { path: 'a.ts' } }],
      ['tool', { type: 'tool_result', callId: 'c9', output: 'no such file', isError: true }],
    ]);
    expect(s.operations.map((o) => [o.id, o.status])).toEqual([['tool:c9', 'failed']]);
  });

  it('names each unknown event type once with its count, skips non-objects and empty messages with a warning', () => {
    const s = parse(
      lines(
        start(),
        ev('session.telepathy', {}),
        ev('session.telepathy', {}),
        [1, 2],
        ev('user.message', { content: '' }),
        ev('session.mode_changed', { mode: 'plan' }),
      ),
    );
    expect(s.warnings.map((w) => [w.code, w.count])).toEqual([
      ['wrong_type', 1],
      ['missing_content', 1],
      ['unknown_record_type', 1],
    ]);
    expect(s.warnings[2]?.message).toBe('Unknown Copilot CLI event type "session.telepathy" (2 events) ignored.');
  });

  it('attaches assistant.reasoning to the reply that follows it, and keeps sub-agent lines in their own thread', () => {
    const s = parse(
      lines(
        start(),
        ev('assistant.reasoning', { reasoningId: 'r1', content: 'Think first.' }),
        ev('assistant.message', { messageId: 'm1', content: 'Done.', reasoningText: 'Think first.' }),
        ev('subagent.started', { toolCallId: 't1', agentName: 'explore', agentDisplayName: 'Explore', agentDescription: 'Looks around' }),
        ev('assistant.message', { messageId: 'm2', content: 'Inside.', parentToolCallId: 't1' }),
        ev('subagent.completed', { toolCallId: 't1', agentName: 'explore', agentDisplayName: 'Explore', totalToolCalls: 0, durationMs: 5 }),
      ),
    );
    expect(s.messages[0]?.parts).toEqual([
      { type: 'thinking', text: 'Think first.', redacted: false },
      { type: 'text', text: 'Done.' },
    ]);
    expect([s.messages[1]?.agentId, s.messages[1]?.annotations]).toEqual(['t1', { parentToolCallId: 't1' }]);
    expect(s.operations.map((o) => [o.id, o.type, o.name, o.status, o.latencyMs])).toEqual([['subagent:t1', 'subagent', 'Explore', 'completed', 5]]);
  });
});

describe('Copilot CLI lifecycle and usage', () => {
  it('is active while the file and its last event are recent with no shutdown, closed at a shutdown, unknown otherwise', () => {
    expect(parse(lines(start(), ev('user.message', { content: 'hi' }))).status).toBe('active');
    expect(parse(lines(start(), ev('user.message', { content: 'hi' })), NOW - 3600_000).status).toBe('unknown');
    // A file copied today whose events are old is not running.
    const old = '2025-01-01T00:00:00.000Z';
    expect(parse(lines(ev('session.start', { sessionId: 's-1' }, old), ev('user.message', { content: 'hi' }, old))).status).toBe('unknown');
    const closed = parse(lines(start(), ev('session.shutdown', { shutdownType: 'routine', modelMetrics: {} }, '2026-07-01T11:59:30.000Z')));
    expect([closed.status, closed.closedAt]).toEqual(['closed', '2026-07-01T11:59:30.000Z']);
    expect(parse(lines(start(), ev('session.shutdown', { modelMetrics: {} }), ev('session.resume', { resumeTime: 'x', eventCount: 2 }))).status).toBe('active');
  });

  it('adds up the runs of a resumed session and takes its AI-unit total as the recorded cost from June 2026', () => {
    const metrics = (input: number) => ({
      modelMetrics: {
        'claude-sonnet-4.5': { requests: { count: 1 }, usage: { inputTokens: input, outputTokens: 10, cacheReadTokens: 100, cacheWriteTokens: 0 } },
      },
    });
    const s = parse(
      lines(
        start(),
        ev('session.shutdown', { ...metrics(1000), totalNanoAiu: 2e9 }),
        ev('session.resume', { resumeTime: 'x', eventCount: 2 }),
        ev('session.shutdown', { ...metrics(500), totalNanoAiu: 5e9 }),
      ),
    );
    expect(Date.parse('2026-07-01T11:58:00.000Z') >= USAGE_BILLING_FROM).toBe(true);
    expect(s.usage).toEqual({ input: 1300, output: 20, cacheRead: 200, cacheWrite: 0, reasoning: 0 });
    expect(s.cost).toEqual({ usd: 0.05, estimated: false });
    expect(s.model?.name).toBe('claude-sonnet-4.5');
  });
});

describe('Copilot CLI files', () => {
  const folder = join(tmp, 'home', '.copilot', 'session-state', 'abc-123');
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'events.jsonl'),
    `${JSON.stringify(start({ sessionId: 'abc-123' }))}\n${JSON.stringify(ev('user.message', { content: 'Fix the login bug' }))}\n`,
  );

  it("takes the title from workspace.yaml's name, and ignores a workspace.yaml linked from elsewhere", async () => {
    writeFileSync(join(folder, 'workspace.yaml'), 'id: abc-123\ncwd: /srv/app\nname: "Login: fix it"\nsummary: Fixing login\n');
    const s = valid(await readCopilotFile(join(folder, 'events.jsonl'), NOW));
    expect([s.title, s.extra.workspaceSummary, s.sourceFiles.map((f) => f.role)]).toEqual(['Login: fix it', 'Fixing login', ['primary', 'meta']]);
    rmSync(join(folder, 'workspace.yaml'));
    writeFileSync(join(tmp, 'elsewhere.yaml'), 'name: not this session\n');
    symlinkSync(join(tmp, 'elsewhere.yaml'), join(folder, 'workspace.yaml'));
    const linked = valid(await readCopilotFile(join(folder, 'events.jsonl'), NOW));
    expect([linked.title, linked.sourceFiles.length]).toEqual(['Fix the login bug', 1]);
  });

  it('says why a workspace.yaml that is not YAML is not used, and still reads the session', async () => {
    rmSync(join(folder, 'workspace.yaml'));
    writeFileSync(join(folder, 'workspace.yaml'), 'name: [unclosed\n');
    const s = valid(await readCopilotFile(join(folder, 'events.jsonl'), NOW));
    expect(s.title).toBe('Fix the login bug');
    expect(s.warnings.map((w) => w.code)).toEqual(['bad_meta']);
  });

  it('refuses a file with no Copilot event, and recognises one from its head', async () => {
    const path = join(tmp, 'other.jsonl');
    writeFileSync(path, '{"hello":"world"}\n');
    await expect(readCopilotFile(path, NOW)).rejects.toMatchObject({ code: 'wrong_shape' });
    const head = new Head(`${JSON.stringify(start())}\n${JSON.stringify(ev('user.message', { content: 'x' }))}\n`, true);
    expect(copilotCliReader.recognizes?.(head)).toBe(true);
    expect(copilotCliReader.recognizes?.(new Head('{"type":"user","uuid":"u","sessionId":"s"}\n', true))).toBe(false);
  });
});
