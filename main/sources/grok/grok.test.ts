// Tests for the Grok reader: a session folder with updates.jsonl (times, tool outcomes, per-turn tokens and cost), sub-agent links, legacy rows, paths.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/session.ts';
import { failure, valid } from '../../test-support/reader-checks.ts';
import { grokReader, readGrokFolder } from './grok.ts';
import { bucketPath, grokRoots } from './grok-layout.ts';
import { readGrokUpdates } from './grok-updates.ts';

let bucket: string;
let base: string;
const PARENT = '019f7000-0000-7000-8000-00000000000a';
const CHILD = '019f7000-0000-7000-8000-00000000000b';
const T0 = 1_780_000_000;
const iso = (s: number) => new Date(s * 1000).toISOString();
const jsonl = (...rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const update = (t: number, u: Record<string, unknown>) => ({ timestamp: t, method: 'session/update', params: { sessionId: PARENT, update: u } });

function folder(id: string, files: Record<string, string>): string {
  const dir = join(bucket, id);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return join(dir, 'summary.json');
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'sv-grok-'));
  bucket = join(base, '.grok/sessions/%2Fsrc%2Fapp');
  const huge = JSON.stringify(
    update(T0 + 20, { sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', content: [{ type: 'text', text: 'x'.repeat(300 * 1024) }] }),
  );
  folder(PARENT, {
    'summary.json': JSON.stringify({
      info: { id: PARENT, cwd: '/src/app' },
      session_summary: 'Fix the build',
      created_at: iso(T0),
      updated_at: iso(T0 + 120),
      last_active_at: iso(T0 + 111),
      current_model_id: 'grok-4',
      chat_format_version: 1,
      head_branch: 'main',
    }),
    'chat_history.jsonl': jsonl(
      { type: 'system', content: 'You are Grok' },
      { type: 'user', content: [{ type: 'text', text: 'fix the build' }], prompt_index: 0 },
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'check make' }], encrypted_content: 'x' },
      {
        type: 'assistant',
        content: '',
        tool_calls: [
          { id: 'c1', name: 'read_file', arguments: '{"target_file":"Makefile"}' },
          { id: 'c2', name: 'run_terminal_cmd', arguments: '{"command":"make"}' },
        ],
        model_id: 'grok-4',
      },
      { type: 'tool_result', tool_call_id: 'c1', content: 'all: build' },
      { type: 'tool_result', tool_call_id: 'c2', content: 'make: *** Error 2' },
      { type: 'assistant', content: 'The Makefile is broken.', model_id: 'grok-4' },
      { type: 'user', content: [{ type: 'text', text: 'thanks' }], prompt_index: 1 },
      { type: 'assistant', content: 'You are welcome.', model_id: 'grok-4' },
      { type: 'telemetry', data: 1 },
    ),
    'updates.jsonl':
      jsonl(
        update(T0, { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'fix the build' } }),
        update(T0 + 10, { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'read_file' }),
        update(T0 + 11, { sessionUpdate: 'tool_call', toolCallId: 'c2', title: 'run_terminal_cmd' }),
      ) +
      `${huge}\n` +
      jsonl(
        update(T0 + 21, { sessionUpdate: 'tool_call_update', toolCallId: 'c2', status: 'failed' }),
        update(T0 + 30, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'The Makefile ' } }),
        update(T0 + 30, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'is broken.' } }),
        update(T0 + 31, {
          sessionUpdate: 'turn_completed',
          prompt_id: 'p1',
          usage: { modelUsage: { 'grok-4': { inputTokens: 1100, outputTokens: 10, cachedReadTokens: 1000, reasoningTokens: 5, costUsdTicks: 25_000_000 } } },
        }),
        update(T0 + 100, { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'thanks' } }),
        update(T0 + 110, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'You are welcome.' } }),
        update(T0 + 111, { sessionUpdate: 'turn_completed', prompt_id: 'p2', usage: { inputTokens: 200, outputTokens: 20 } }),
      ) +
      '{"torn": \n',
    [`subagents/${CHILD}/meta.json`]: JSON.stringify({ parent_session_id: PARENT, subagent_type: 'explore', description: 'Look for Makefiles' }),
  });
  folder(CHILD, {
    'summary.json': JSON.stringify({ info: { id: CHILD, cwd: '/src/app' }, created_at: iso(T0 + 12), session_kind: 'subagent' }),
    'chat_history.jsonl': jsonl(
      { type: 'user', content: [{ type: 'text', text: 'find makefiles' }], prompt_index: 0 },
      { type: 'assistant', content: 'One: Makefile.' },
    ),
  });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('Grok session folders', () => {
  it("times messages from updates.jsonl, marks the failed tool, and puts each turn's tokens and cost on its answer", async () => {
    const s = valid(await readGrokFolder(join(bucket, PARENT, 'summary.json'), (T0 + 3600) * 1000));
    expect(s.messages.map((m) => [m.role, m.timestamp])).toEqual([
      ['user', iso(T0)],
      ['assistant', iso(T0 + 10)],
      ['tool', iso(T0 + 20)],
      ['tool', iso(T0 + 21)],
      ['assistant', iso(T0 + 30)],
      ['user', iso(T0 + 100)],
      ['assistant', iso(T0 + 110)],
    ]);
    expect(s.messages.slice(2, 4).map((m) => m.parts[0])).toEqual([
      { type: 'tool_result', callId: 'c1', output: 'all: build', isError: false },
      { type: 'tool_result', callId: 'c2', output: 'make: *** Error 2', isError: true },
    ]);
    // inputTokens includes the cached part; costUsdTicks are 10^-10 dollars.
    expect(s.messages[4]).toMatchObject({
      usage: { input: 100, output: 10, cacheRead: 1000, cacheWrite: 0, reasoning: 5 },
      cost: { usd: 0.0025, estimated: false },
    });
    expect(s.messages[6]).toMatchObject({ usage: { input: 200, output: 20, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, cost: { estimated: true } });
    expect(s.usage).toEqual({ input: 300, output: 30, cacheRead: 1000, cacheWrite: 0, reasoning: 5 });
    expect(s.cost?.estimated).toBe(true);
    expect(s.cost?.usd).toBeCloseTo(0.0025 + (s.messages[6]!.cost?.usd ?? 0), 10);
    expect(s.childKeys).toEqual([`grok:${CHILD}`]);
    expect(s.extra.subAgents).toEqual([{ id: CHILD, type: 'explore', description: 'Look for Makefiles' }]);
    expect(s.updatedAt).toBe(iso(T0 + 120));
    expect(s.status).toBe('closed');
    expect(s.sourceFiles.map((f) => f.role)).toEqual(['primary', 'transcript', 'transcript', 'meta']);
    expect(s.warnings.map((w) => w.code).sort()).toEqual(['invalid_line', 'unknown_record_type']);
  });

  it("finds a sub-agent's parent through the parent's subagents/ record, and names it by its description", async () => {
    const s = valid(await readGrokFolder(join(bucket, CHILD, 'summary.json')));
    expect(s.parentKey).toBe(`grok:${PARENT}`);
    expect(s.title).toBe('Look for Makefiles');
    expect(s.extra).toMatchObject({ sessionKind: 'subagent', subagentType: 'explore' });
    expect(s.sourceFiles.at(-1)?.path).toBe(join(bucket, PARENT, 'subagents', CHILD, 'meta.json'));
  });

  it('is active while its turn is open: the last update is not turn_completed and everything is recent', async () => {
    const id = '019f7000-0000-7000-8000-00000000000c';
    const now = Date.now();
    const t = Math.floor(now / 1000) - 30;
    const path = folder(id, {
      'summary.json': JSON.stringify({ info: { id }, created_at: new Date((t - 60) * 1000).toISOString(), last_active_at: new Date(t * 1000).toISOString() }),
      'chat_history.jsonl': jsonl({ type: 'user', content: 'go', prompt_index: 0 }),
      'updates.jsonl': jsonl(update(t, { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'go' } })),
    });
    expect(valid(await readGrokFolder(path, now)).status).toBe('active');
  });

  it('reads the legacy role rows (function-style tool calls, role tool results)', async () => {
    const id = '019f7000-0000-7000-8000-00000000000d';
    const path = folder(id, {
      'summary.json': JSON.stringify({ info: { id, cwd: '/src/app' }, chat_format_version: 0 }),
      'chat_history.jsonl': jsonl(
        { role: 'system', content: 'You are Grok' },
        { role: 'user', content: 'list files' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'f1', type: 'function', function: { name: 'ls', arguments: '{"path":"."}' } }] },
        { role: 'tool', tool_call_id: 'f1', content: 'a b' },
        { role: 'assistant', content: 'Two files.' },
      ),
    });
    const s = valid(await readGrokFolder(path));
    expect(s.messages.map((m) => [m.role, m.parts])).toEqual([
      ['user', [{ type: 'text', text: 'list files' }]],
      ['assistant', [{ type: 'tool_call', callId: 'f1', name: 'ls', input: { path: '.' } }]],
      ['tool', [{ type: 'tool_result', callId: 'f1', output: 'a b', isError: null }]],
      ['assistant', [{ type: 'text', text: 'Two files.' }]],
    ]);
    expect([s.formatVersion, s.title, s.systemPrompt?.text]).toEqual(['0', 'list files', 'You are Grok']);
  });

  // agentsview's TestParseGrokChatHistoryPreservesCodeInterpreterInput: Grok Build's backend_tool_call of the code interpreter.
  it('shows a code interpreter call with its code, and what it printed as its result', async () => {
    const id = '019f7000-0000-7000-8000-0000000000c1';
    const code = "print('counterfactual')\n".repeat(3);
    const path = folder(id, {
      'summary.json': JSON.stringify({ info: { id, cwd: '/src/app' } }),
      'chat_history.jsonl': jsonl(
        { type: 'user', content: 'run it' },
        {
          type: 'backend_tool_call',
          kind: { tool_type: 'code_interpreter', code, container_id: 'cntr_1', id: 'ci_1', outputs: [{ type: 'logs', logs: 'finished' }], status: 'completed' },
        },
      ),
    });
    const s = valid(await readGrokFolder(path));
    const parts = s.messages.flatMap((m) => m.parts).filter((p) => p.type === 'tool_call' || p.type === 'tool_result');
    expect(parts).toEqual([
      { type: 'tool_call', callId: 'ci_1', name: 'code_interpreter', input: { code, container_id: 'cntr_1' } },
      { type: 'tool_result', callId: 'ci_1', output: 'finished', isError: null },
    ]);
  });

  // agentsview's TestParseGrokChatHistoryReasoningShapes and ...DeduplicatesRawBackendToolCalls: older answer rows.
  it('reads an answer’s own reasoning and its raw output items, and shows a server-side call once', async () => {
    const read = async (id: string, ...rows: unknown[]) =>
      valid(await readGrokFolder(folder(id, { 'summary.json': JSON.stringify({ info: { id, cwd: '/src/app' } }), 'chat_history.jsonl': jsonl(...rows) })));
    const shown = (s: Session) =>
      s.messages.map((m) =>
        m.parts.map((p) => (p.type === 'thinking' ? `thinking:${p.text}` : p.type === 'tool_call' ? `call:${p.callId}:${p.name}` : p.type)),
      );
    const inline = await read('019f7000-0000-7000-8000-0000000000c2', { type: 'assistant', content: 'answer', reasoning: { text: 'inline thought' } });
    expect(shown(inline)).toEqual([['thinking:inline thought', 'text']]);
    const overrides = await read(
      '019f7000-0000-7000-8000-0000000000c3',
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 'pending' }] },
      { type: 'assistant', content: 'answer', reasoning: { text: 'inline' } },
    );
    expect(shown(overrides)).toEqual([['thinking:inline', 'text']]);
    const search = { type: 'web_search_call', id: 'ws_raw', status: 'completed', action: { type: 'search', query: 'raw query', sources: [] } };
    const raw = await read('019f7000-0000-7000-8000-0000000000c4', {
      type: 'assistant',
      content: 'answer',
      raw_output: [{ type: 'reasoning', id: 'r1', summary: [{ type: 'summary_text', text: 'raw thought' }] }, search],
    });
    expect(shown(raw)).toEqual([
      ['call:ws_raw:web_search', 'tool_result'],
      ['thinking:raw thought', 'text'],
    ]);
    const once = await read(
      '019f7000-0000-7000-8000-0000000000c5',
      { type: 'backend_tool_call', kind: { tool_type: 'web_search', ...search, type: undefined, id: 'ws_same' } },
      { type: 'assistant', content: 'answer', raw_output: [{ ...search, id: 'ws_same' }] },
    );
    expect(shown(once)).toEqual([['call:ws_same:web_search', 'tool_result'], ['text']]);
  });

  it('lists a folder whose transcript is missing or empty by its summary, with a warning, and refuses a summary that is no object', async () => {
    const lonely = folder('019f7000-0000-7000-8000-00000000000e', { 'summary.json': JSON.stringify({ info: { id: 'x' }, generated_title: 'Only a summary' }) });
    const s = valid(await readGrokFolder(lonely));
    expect([s.title, s.messages.length]).toEqual(['Only a summary', 0]);
    expect(s.warnings.map((w) => w.code).sort()).toEqual(['id_mismatch', 'transcript_missing']);
    // The first prompt the summary recorded is shown (agentsview's grok.go does the same), marked as from the summary.
    const prompted = folder('019f7000-0000-7000-8000-000000000011', {
      'summary.json': JSON.stringify({ info: { id: '019f7000-0000-7000-8000-000000000011' }, created_at: iso(T0), firstPrompt: 'Audit the parser' }),
    });
    const p = valid(await readGrokFolder(prompted));
    expect([p.title, p.messages.map((m) => [m.role, m.timestamp, m.parts, m.annotations])]).toEqual([
      'Audit the parser',
      [['user', iso(T0), [{ type: 'text', text: 'Audit the parser' }], { from: 'summary.json' }]],
    ]);
    const empty = folder('019f7000-0000-7000-8000-00000000000f', {
      'summary.json': JSON.stringify({ info: { id: '019f7000-0000-7000-8000-00000000000f' }, created_at: iso(T0) }),
      'chat_history.jsonl': '',
    });
    expect(valid(await readGrokFolder(empty)).warnings.map((w) => w.code)).toEqual(['transcript_unreadable']);
    const bad = folder('019f7000-0000-7000-8000-000000000010', { 'summary.json': '[1,2]' });
    expect((await failure(() => readGrokFolder(bad))).code).toBe('wrong_shape');
  });

  it('reads a folder whose summary.json is unusable from its transcript: the id its name, the title its first prompt, with a warning', async () => {
    const turn = jsonl({ type: 'user', content: [{ type: 'text', text: 'hi there' }], prompt_index: 0 });
    for (const [n, summary, reason] of [
      ['1', '{}', 'Not a usable Grok session: the object is empty'],
      ['2', '[]', 'Not a Grok session summary: the file holds an array (0 items) where a JSON object is expected'],
      ['3', 'not json at all', 'Invalid JSON'],
    ] as const) {
      const id = `019f7000-0000-7000-8000-00000000002${n}`;
      const s = valid(await readGrokFolder(folder(id, { 'summary.json': summary, 'chat_history.jsonl': turn })));
      expect([s.key, s.title, s.messages.length, s.createdAt, s.sourceFiles.map((f) => f.role)]).toEqual([
        `grok:${id}`,
        'hi there',
        1,
        null,
        ['primary', 'transcript'],
      ]);
      expect(s.warnings.map((w) => w.code)).toEqual(['summary_unusable']);
      expect(s.warnings[0]?.message).toContain(`summary.json cannot be used (${reason}`);
    }
    // With no transcript to fall back on, the summary's fault is still the reason the folder is unreadable.
    const neither = folder('019f7000-0000-7000-8000-000000000024', { 'summary.json': '{}', 'chat_history.jsonl': '' });
    expect((await failure(() => readGrokFolder(neither))).code).toBe('wrong_shape');
  });
});

describe('Grok updates.jsonl', () => {
  it('keeps the last payload of a turn sent twice, and reads a huge tool update from its first bytes', async () => {
    const path = join(base, 'updates.jsonl');
    writeFileSync(
      path,
      jsonl(
        update(T0, { sessionUpdate: 'turn_completed', prompt_id: 'p', usage: { inputTokens: 10, outputTokens: 1 } }),
        update(T0 + 1, { sessionUpdate: 'turn_completed', prompt_id: 'p', usage: { inputTokens: 12, outputTokens: 2 } }),
      ) + JSON.stringify(update(T0 + 2, { sessionUpdate: 'tool_call_update', toolCallId: 'big', status: 'failed', rawOutput: 'y'.repeat(400 * 1024) })),
    );
    const u = await readGrokUpdates(path);
    expect(u.turns.map((t) => [t.promptId, t.usage.input, t.usage.output])).toEqual([['p', 12, 2]]);
    expect(u.toolStatus.get('big')).toBe('failed');
    expect([u.lastKind, u.lastAt]).toEqual(['tool_call_update', iso(T0 + 2)]);
  });

  it('counts a usage payload whose update names no kind as a turn’s tokens', async () => {
    const path = join(base, 'updates-unnamed.jsonl');
    writeFileSync(
      path,
      jsonl(
        update(T0, { prompt_id: 'p1', usage: { inputTokens: 30, outputTokens: 3 } }),
        update(T0 + 5, { sessionUpdate: 'turn_completed', prompt_id: 'p2', usage: { inputTokens: 40, outputTokens: 4 } }),
        update(T0 + 6, { note: 'no usage, no kind' }),
      ),
    );
    const u = await readGrokUpdates(path);
    expect(u.turns.map((t) => [t.promptId, t.usage.input, t.usage.output])).toEqual([
      ['p1', 30, 3],
      ['p2', 40, 4],
    ]);
    expect([u.lastKind, u.lastAt]).toEqual(['turn_completed', iso(T0 + 5)]);
  });
});

describe('Grok paths', () => {
  it.each([
    ['/home/u/.grok/sessions/%2Ftmp%2Fproject/019f6851-7ec4-7ef0-97d3-03f3eee38755/summary.json', true],
    ['/home/u/.grok/sessions/C%3A%5Cwork/019f6851/summary.json', true],
    ['/home/u/.grok/sessions/%2Ftmp%2Fproject/019f6851/chat_history.jsonl', false],
    ['/home/u/.grok/sessions/%2Ftmp%2Fproject/019f6851/subagents/019f6852/meta.json', false],
    ['/home/u/.grok/sessions/project/019f6851/summary.json', false],
    ['/home/u/notes/summary.json', false],
  ])('%s claimed: %s', (path, claimed) => expect(grokReader.claims(path)).toBe(claimed));

  it('treats every other file of a session folder as its companion, honours GROK_HOME and resumes by id', () => {
    expect(grokReader.companion?.('/h/.grok/sessions/%2Ftmp/019f/updates.jsonl')).toBe(true);
    expect(grokReader.companion?.('/h/.grok/sessions/%2Ftmp/019f/subagents/019e/meta.json')).toBe(true);
    expect(grokReader.companion?.('/h/elsewhere/updates.jsonl')).toBe(false);
    expect(bucketPath('/h/.grok/sessions/%2Ftmp%2Fmy%20app/019f')).toBe('/tmp/my app');
    expect(grokRoots({}, '/home/u')).toEqual(['/home/u/.grok/sessions']);
    expect(grokRoots({ GROK_HOME: '/opt/grok' }, '/home/u')).toEqual(['/opt/grok/sessions']);
    expect(grokReader.resumeCommand({ id: '019f', isSubAgent: false })).toBe('grok --resume 019f');
    expect(grokReader.resumeCommand({ id: '019f', isSubAgent: true })).toBeNull();
  });
});
