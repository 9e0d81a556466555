// Tests for the Cline-family reader: history shapes, tool pairing, the <task> unwrap, environment details, tokens and cost from api_req_started, UI-only tasks, paths, companions, the twin rule and default roots.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isShadowedTwin } from '../../catalogue/walk-rules.ts';
import { failure, valid } from '../../test-support/reader-checks.ts';
import { testTempDir } from '../../test-support/temp-dir.ts';
import { findReader } from '../registry.ts';
import { clineReader, rooCodeReader } from './cline.ts';
import { usageFacts } from '../../search-index/usage-facts.ts';

const ENV = '<environment_details>\n# Current Working Directory (/home/dev/proj) Files\nsrc/a.ts\n</environment_details>';
const request = (over: Record<string, unknown>) => ({ type: 'say', say: 'api_req_started', text: JSON.stringify(over) });

/** Writes a task folder under a fake VS Code globalStorage and returns the folder. */
function task(ext: string, id: string, files: Record<string, unknown>): string {
  const dir = join(testTempDir('sv-cline-'), '.config', 'Code', 'User', 'globalStorage', ext, 'tasks', id);
  mkdirSync(dir, { recursive: true });
  for (const [name, value] of Object.entries(files)) writeFileSync(join(dir, name), typeof value === 'string' ? value : JSON.stringify(value));
  return dir;
}
const CLINE_EXT = 'saoudrizwan.claude-dev';
const HISTORY = 'api_conversation_history.json';

describe('Cline history', () => {
  it('unwraps the <task>, keeps environment details aside, pairs tool results and sums tokens and cost from the UI requests', async () => {
    const dir = task(CLINE_EXT, '1700000000000', {
      [HISTORY]: [
        {
          role: 'user',
          content: [
            { type: 'text', text: '<task>\nFix the login bug\n</task>' },
            { type: 'text', text: ENV },
          ],
          ts: 1700000000100,
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Look at auth first.' },
            { type: 'text', text: 'Reading auth.' },
            { type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'auth.ts' } },
          ],
          ts: 1700000001000,
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: 'export {}' },
            { type: 'text', text: ENV },
          ],
          ts: 1700000002000,
        },
        { role: 'user', content: [{ type: 'text', text: '<feedback>\nAlso add a test\n</feedback>' }] },
      ],
      'ui_messages.json': [
        { ts: 1700000000000, type: 'say', say: 'text', text: 'Fix the login bug' },
        { ts: 1700000000500, ...request({ tokensIn: 100, tokensOut: 20, cacheWrites: 5, cacheReads: 0, cost: 0.01 }) },
        { ts: 1700000001500, ...request({ tokensIn: 200, tokensOut: 30, cacheWrites: 0, cacheReads: 50, cost: 0.02 }) },
        { ts: 1700000003000, type: 'say', say: 'completion_result', text: 'Fixed.' },
      ],
      'task_metadata.json': {
        files_in_context: [{ path: 'auth.ts' }],
        model_usage: [{ model_id: 'claude-sonnet-4-5', model_provider_id: 'anthropic', mode: 'act' }],
      },
    });
    const s = valid(await clineReader.read(join(dir, HISTORY)));
    expect(s.key).toBe('cline:1700000000000');
    expect(s.title).toBe('Fix the login bug');
    expect(s.messages.map((m) => [m.role, m.parts.map((p) => p.type)])).toEqual([
      ['user', ['text']],
      ['assistant', ['thinking', 'text', 'tool_call']],
      ['tool', ['tool_result']],
      ['user', ['text']],
    ]);
    expect(s.messages[0]!.parts).toEqual([{ type: 'text', text: 'Fix the login bug' }]);
    expect(s.messages[0]!.annotations).toEqual({ wrappedIn: ['task'], environmentDetails: [ENV] });
    expect(s.messages[2]!.parts[0]).toEqual({ type: 'tool_result', callId: 't1', output: 'export {}', isError: null });
    expect((s.messages[2]!.annotations as Record<string, unknown>).environmentDetails).toEqual([ENV]);
    expect(s.messages[3]!.parts).toEqual([{ type: 'text', text: 'Also add a test' }]);
    expect(s.usage).toEqual({ input: 300, output: 50, cacheRead: 50, cacheWrite: 5, reasoning: 0 });
    expect(s.cost?.estimated).toBe(false);
    expect(s.cost?.usd).toBeCloseTo(0.03);
    expect(s.model).toEqual({ provider: 'anthropic', name: 'claude-sonnet-4-5', parameters: {} });
    expect(s.project).toMatchObject({ path: '/home/dev/proj', name: 'proj' });
    expect(s.createdAt).toBe('2023-11-14T22:13:20.000Z');
    expect(s.updatedAt).toBe(new Date(1700000003000).toISOString());
    expect(s.status).toBe('closed');
    expect(s.outcome).toEqual({ status: 'completed', summary: 'Fixed.', commitSha: null });
    expect(s.sourceFiles.map((f) => [f.path.split('/').at(-1), f.role])).toEqual([
      [HISTORY, 'primary'],
      ['ui_messages.json', 'transcript'],
      ['task_metadata.json', 'meta'],
    ]);
    expect(s.extra).toMatchObject({ extension: CLINE_EXT, apiRequests: 2, filesInContext: 1, mode: 'act' });
    expect(s.warnings).toEqual([]);
  });

  it("shows attempt_completion's result as the answer, keeping the call only when the user's feedback answered it", async () => {
    const dir = task(CLINE_EXT, '1700000000002', {
      [HISTORY]: [
        { role: 'user', content: '<task>\nSum the list\n</task>' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'attempt_completion', input: { result: 'The sum is 6.' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: '<feedback>\nShow the steps\n</feedback>' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Steps follow.' },
            { type: 'tool_use', id: 'c2', name: 'attempt_completion', input: { result: '1 + 2 + 3 = 6.' } },
          ],
        },
      ],
    });
    const s = valid(await clineReader.read(join(dir, HISTORY)));
    expect(s.messages.map((m) => [m.role, m.parts.map((p) => (p.type === 'text' ? p.text : p.type))])).toEqual([
      ['user', ['Sum the list']],
      ['assistant', ['The sum is 6.', 'tool_call']],
      ['tool', ['tool_result']],
      ['assistant', ['Steps follow.', '1 + 2 + 3 = 6.']],
    ]);
    expect(s.warnings).toEqual([]);
  });

  it('warns about an unknown block type and a message with no content instead of dropping them silently', async () => {
    const dir = task(CLINE_EXT, '1700000000001', {
      [HISTORY]: [
        { role: 'user', content: '<task>\nhi\n</task>' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'hello' },
            { type: 'hologram', data: 1 },
          ],
        },
        { role: 'user', content: [] },
        { role: 'critic', content: 'x' },
      ],
    });
    const s = valid(await clineReader.read(join(dir, HISTORY)));
    expect(s.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(s.warnings.map((w) => w.code).sort()).toEqual(['missing_content', 'unknown_block_type', 'unknown_record_type']);
    expect(s.warnings.find((w) => w.code === 'unknown_block_type')?.message).toContain('hologram');
    expect(s.warnings.find((w) => w.code === 'unknown_record_type')?.message).toContain('critic');
  });

  it('a history that is not JSON is unreadable with the place of the error; a broken ui_messages.json beside it only warns', async () => {
    const broken = task(CLINE_EXT, '1700000000002', { [HISTORY]: '[{"role": "user", "content": "hi"' });
    const err = await failure(() => clineReader.read(join(broken, HISTORY)));
    expect(err.code).toBe('invalid_json');
    expect(err.message).toMatch(/Invalid JSON/);
    const object = task(CLINE_EXT, '1700000000003', { [HISTORY]: { role: 'user' } });
    expect((await failure(() => clineReader.read(join(object, HISTORY)))).message).toMatch(/list of messages is expected/);
    const dir = task(CLINE_EXT, '1700000000004', { [HISTORY]: [{ role: 'user', content: 'hi' }], 'ui_messages.json': '{oops' });
    const s = valid(await clineReader.read(join(dir, HISTORY)));
    expect(s.messages).toHaveLength(1);
    expect(s.warnings.find((w) => w.code === 'bad_meta')?.message).toMatch(/ui_messages\.json cannot be read/);
  });
});

describe('a task with only ui_messages.json', () => {
  it('is read from the UI messages: the prompt, reasoning, commands paired with their output, tool calls and the result', async () => {
    const dir = task('rooveterinaryinc.roo-cline', '0b6c0d7e-aaaa-4bbb-8ccc-000000000001', {
      'ui_messages.json': [
        { ts: 1700000000000, type: 'say', say: 'text', text: 'List the files', images: ['data:image/png;base64,iVBO'] },
        { ts: 1700000000500, ...request({ tokensIn: 10, tokensOut: 5, cost: 0.001 }) },
        { ts: 1700000001000, type: 'say', say: 'reasoning', text: 'use ls' },
        { ts: 1700000002000, type: 'ask', ask: 'command', text: 'ls' },
        { ts: 1700000003000, type: 'ask', ask: 'command_output', text: 'a.ts' },
        { ts: 1700000003100, type: 'ask', ask: 'command_output', text: 'b.ts' },
        { ts: 1700000004000, type: 'ask', ask: 'tool', text: JSON.stringify({ tool: 'readFile', path: 'a.ts' }) },
        { ts: 1700000005000, type: 'say', say: 'teleport', text: 'beam me up' },
        { ts: 1700000006000, type: 'say', say: 'completion_result', text: 'Two files.' },
      ],
      'history_item.json': { id: 'x', task: 'List the files', workspace: '/w/repo', mode: 'code', apiConfigName: 'default', parentTaskId: 'p1' },
    });
    const file = join(dir, 'ui_messages.json');
    expect(findReader(file)?.format).toBe('roo-code');
    const s = valid(await rooCodeReader.read(file));
    expect(s.key).toBe('roo-code:0b6c0d7e-aaaa-4bbb-8ccc-000000000001');
    expect(s.title).toBe('List the files');
    expect(s.messages.map((m) => [m.role, m.parts.map((p) => p.type)])).toEqual([
      ['user', ['text', 'image']],
      ['assistant', ['thinking']],
      ['assistant', ['tool_call']],
      ['tool', ['tool_result']],
      ['assistant', ['tool_call']],
      ['assistant', ['text']],
      ['assistant', ['text']],
    ]);
    const call = s.messages[2]!.parts[0]!;
    const result = s.messages[3]!.parts[0]!;
    expect(call).toMatchObject({ type: 'tool_call', name: 'execute_command', input: { command: 'ls' } });
    expect(result).toMatchObject({ type: 'tool_result', output: 'a.ts\nb.ts' });
    expect(call.type === 'tool_call' && result.type === 'tool_result' && call.callId === result.callId).toBe(true);
    expect(s.messages[4]!.parts[0]).toMatchObject({ name: 'readFile', input: { tool: 'readFile', path: 'a.ts' } });
    expect(s.warnings.find((w) => w.code === 'unknown_record_type')?.message).toContain('say: teleport');
    expect(s.project.path).toBe('/w/repo');
    expect(s.parentKey).toBe('roo-code:p1');
    expect(s.extra).toMatchObject({ mode: 'code', apiProfile: 'default' });
    expect(s.cost).toEqual({ usd: 0.001, estimated: false });
  });
});

describe('Cline UI messages', () => {
  it('shows a follow-up question with its options, and marks the recorded cost partial when a request with tokens recorded none', async () => {
    const dir = task(CLINE_EXT, '1700000000005', {
      'ui_messages.json': [
        { ts: 1700000000000, type: 'say', say: 'text', text: 'Pick a database' },
        { ts: 1700000000500, ...request({ tokensIn: 10, tokensOut: 5, cost: 0.002 }) },
        { ts: 1700000001000, type: 'ask', ask: 'followup', text: JSON.stringify({ question: 'Which one?', options: ['Postgres', 'SQLite'] }) },
        { ts: 1700000002000, type: 'say', say: 'user_feedback', text: 'SQLite' },
        { ts: 1700000002500, ...request({ tokensIn: 20, tokensOut: 5 }) },
      ],
    });
    const s = valid(await clineReader.read(join(dir, 'ui_messages.json')));
    expect(s.messages.map((m) => [m.role, m.parts])).toEqual([
      ['user', [{ type: 'text', text: 'Pick a database' }]],
      ['assistant', [{ type: 'text', text: 'Which one?\n- Postgres\n- SQLite' }]],
      ['user', [{ type: 'text', text: 'SQLite' }]],
    ]);
    expect(s.usage).toMatchObject({ input: 30, output: 10 });
    expect(s.cost).toEqual({ usd: 0.002, estimated: false, unpricedMessages: 1 });
    expect(s.extra.readFrom).toMatch(/no api_conversation_history/);
  });
});

describe('Cline cost', () => {
  it('estimates the cost from the price table when the requests recorded tokens and a model but no cost', async () => {
    const dir = task(CLINE_EXT, '1700000000007', {
      [HISTORY]: [{ role: 'user', content: [{ type: 'text', text: '<task>\nRename a file\n</task>' }] }],
      'ui_messages.json': [{ ts: 1700000000500, ...request({ tokensIn: 100_000, tokensOut: 0 }) }],
      'task_metadata.json': { model_usage: [{ model_id: 'claude-sonnet-4-5', model_provider_id: 'anthropic', mode: 'act' }] },
    });
    const s = valid(await clineReader.read(join(dir, HISTORY)));
    expect(s.model?.name).toBe('claude-sonnet-4-5');
    // Sonnet 4.5 input: $3 per million tokens (under 200k tokens a request).
    expect(s.cost?.estimated).toBe(true);
    expect(s.cost?.usd).toBeCloseTo(0.3, 6);
  });
});

describe('Cline requests', () => {
  it('counts each request in the hour it was made, a recorded cost as recorded and a missing one estimated from its model', async () => {
    const day1 = Date.parse('2026-03-01T23:50:00Z');
    const day2 = Date.parse('2026-03-02T00:20:00Z');
    const dir = task(CLINE_EXT, String(day1 - 60_000), {
      [HISTORY]: [{ role: 'user', content: [{ type: 'text', text: '<task>\nPort the parser\n</task>' }] }],
      'ui_messages.json': [
        { ts: day1 - 60_000, type: 'say', say: 'text', text: 'Port the parser' },
        { ts: day1, ...request({ tokensIn: 1_000, tokensOut: 100, cost: 0.01 }) },
        { ts: day2, ...request({ tokensIn: 100_000, tokensOut: 0, model: 'claude-sonnet-4-5' }) },
        { ts: day2 + 1_000, ...request({}) },
      ],
      'task_metadata.json': { model_usage: [{ model_id: 'claude-sonnet-4-5', model_provider_id: 'anthropic', mode: 'act' }] },
    });
    const s = valid(await clineReader.read(join(dir, HISTORY)));
    // The request without tokens or a cost is no call.
    expect(s.operations.map((o) => [o.type, o.name, o.timestamp, o.usage?.input, o.cost, o.origin])).toEqual([
      ['llm', 'claude-sonnet-4-5', new Date(day1).toISOString(), 1_000, { usd: 0.01, estimated: false }, { fileIndex: 1, line: null, pointer: '/1' }],
      ['llm', 'claude-sonnet-4-5', new Date(day2).toISOString(), 100_000, { usd: 0.3, estimated: true }, { fileIndex: 1, line: null, pointer: '/2' }],
    ]);
    expect(s.sourceFiles[1]!.path.endsWith('ui_messages.json')).toBe(true);
    expect(s.usage).toMatchObject({ input: 101_000, output: 100 });
    expect(s.cost?.estimated).toBe(true);
    expect(s.cost?.usd).toBeCloseTo(0.31, 6);
    // Each request on its own day, not the whole task on its last.
    const hours = usageFacts(s, () => 0).hours.map((h) => [new Date(h.hourMs).toISOString(), h.input, h.calls, Math.round(h.costUsd * 100) / 100]);
    expect(hours).toEqual([
      ['2026-03-01T23:00:00.000Z', 1_000, 1, 0.01],
      ['2026-03-02T00:00:00.000Z', 100_000, 1, 0.3],
    ]);
  });

  it('gives each request and answer the model task_metadata.json had in use at its time, when the task switched models', async () => {
    const t0 = Date.parse('2026-03-01T10:00:00Z');
    const dir = task(CLINE_EXT, String(t0), {
      [HISTORY]: [
        { role: 'user', content: [{ type: 'text', text: '<task>\nPort the parser\n</task>' }], ts: t0 },
        { role: 'assistant', content: [{ type: 'text', text: 'Planning.' }], ts: t0 + 2_000 },
        { role: 'user', content: [{ type: 'text', text: 'Now in act mode with the other model.' }], ts: t0 + 60_000 },
        { role: 'assistant', content: [{ type: 'text', text: 'Porting.' }], ts: t0 + 62_000 },
      ],
      'ui_messages.json': [
        { ts: t0 + 1_000, ...request({ tokensIn: 100_000, tokensOut: 0 }) },
        { ts: t0 + 61_000, ...request({ tokensIn: 100_000, tokensOut: 0 }) },
      ],
      'task_metadata.json': {
        model_usage: [
          { ts: t0 + 1_500, model_id: 'claude-opus-4-1', model_provider_id: 'anthropic', mode: 'plan' },
          { ts: t0 + 60_500, model_id: 'claude-sonnet-4-5', model_provider_id: 'anthropic', mode: 'act' },
        ],
      },
    });
    const s = valid(await clineReader.read(join(dir, HISTORY)));
    // The first request came a moment before Cline recorded its model; each is priced as its own model (Opus 4.1 input: $15 a million).
    expect(s.operations.map((o) => [o.name, o.cost?.usd])).toEqual([
      ['claude-opus-4-1', 1.5],
      ['claude-sonnet-4-5', 0.3],
    ]);
    expect(s.messages.filter((m) => m.role === 'assistant').map((m) => m.model)).toEqual(['claude-opus-4-1', 'claude-sonnet-4-5']);
    expect(s.cost?.usd).toBeCloseTo(1.8, 6);
    expect(usageFacts(s, () => 0).hours.map((h) => [h.model, h.input])).toEqual([
      ['claude-opus-4-1', 100_000],
      ['claude-sonnet-4-5', 100_000],
    ]);
    expect(s.model?.name).toBe('claude-sonnet-4-5');
  });

  it('a task whose UI messages are gone is counted from its Roo history item, at its last activity', async () => {
    const dir = task('rooveterinaryinc.roo-cline', '1700000000009', {
      [HISTORY]: [{ role: 'user', content: [{ type: 'text', text: '<task>\nTidy up\n</task>' }], ts: 1700000000100 }],
      'history_item.json': { tokensIn: 500, tokensOut: 50, totalCost: 0.004 },
    });
    const s = valid(await rooCodeReader.read(join(dir, HISTORY)));
    expect(s.operations).toEqual([]);
    expect(s.cost).toEqual({ usd: 0.004, estimated: false });
    expect(usageFacts(s, () => 0).hours.map((h) => [h.input, h.calls])).toEqual([[500, 1]]);
  });
});

describe('Cline paths', () => {
  const base = '/h/.config/Code/User/globalStorage';
  it('claims the history, or the UI messages, of a task folder of its own extension only', () => {
    expect(clineReader.claims(`${base}/saoudrizwan.claude-dev/tasks/1700000000000/${HISTORY}`)).toBe(true);
    expect(clineReader.claims(`${base}/saoudrizwan.claude-dev/tasks/1700000000000/ui_messages.json`)).toBe(true);
    expect(clineReader.claims(`${base}/saoudrizwan.claude-dev/tasks/1700000000000/task_metadata.json`)).toBe(false);
    expect(clineReader.companion?.(`${base}/saoudrizwan.claude-dev/tasks/1700000000000/task_metadata.json`)).toBe(true);
    expect(clineReader.claims(`${base}/rooveterinaryinc.roo-cline/tasks/abc/${HISTORY}`)).toBe(false);
    expect(rooCodeReader.claims(`${base}/rooveterinaryinc.roo-cline/tasks/abc/${HISTORY}`)).toBe(true);
    expect(rooCodeReader.companion?.(`${base}/rooveterinaryinc.roo-cline/tasks/abc/history_item.json`)).toBe(true);
    expect(clineReader.claims(`${base}/saoudrizwan.claude-dev/elsewhere/1/${HISTORY}`)).toBe(false);
    expect(clineReader.claims(`${base}/saoudrizwan.claude-dev/tasks/1/${HISTORY}.tmp`)).toBe(false);
    expect(findReader(`${base}/saoudrizwan.claude-dev/tasks/1/${HISTORY}`)?.format).toBe('cline');
  });

  it('leaves ui_messages.json to the history beside it, only in a tasks/<id>/ folder', () => {
    const dir = `${base}/saoudrizwan.claude-dev/tasks/1700000000000`;
    expect(isShadowedTwin('ui_messages.json', (n) => n === HISTORY, dir)).toBe(true);
    expect(isShadowedTwin('ui_messages.json', () => false, dir)).toBe(false);
    expect(isShadowedTwin('ui_messages.json', (n) => n === HISTORY, '/h/notes')).toBe(false);
  });

  it('looks in globalStorage of every VS Code build on Linux, macOS and Windows, honouring XDG_CONFIG_HOME and APPDATA', () => {
    const roots = clineReader.defaultRoots({ XDG_CONFIG_HOME: '/x', APPDATA: 'C:/Users/u/AppData/Roaming' }, '/h');
    expect(roots).toContain('/x/Code/User/globalStorage/saoudrizwan.claude-dev/tasks');
    expect(roots).toContain('/h/Library/Application Support/Cursor/User/globalStorage/saoudrizwan.claude-dev/tasks');
    expect(roots).toContain('C:/Users/u/AppData/Roaming/Windsurf/User/globalStorage/saoudrizwan.claude-dev/tasks');
    expect(roots).toHaveLength(15);
    expect(rooCodeReader.defaultRoots({}, '/h')).toContain('/h/.config/VSCodium/User/globalStorage/rooveterinaryinc.roo-cline/tasks');
    expect(clineReader.resumeCommand({ id: '1', isSubAgent: false })).toBeNull();
  });
});
