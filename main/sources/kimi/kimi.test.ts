// Tests the Kimi reader on both layouts: the wire as the full record, companions, sub-agents, tokens, status, warnings.
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/session.ts';
import { countToolCalls } from '../../../shared/summarize.ts';
import { extractIndexText } from '../../search-index/index-text.ts';
import { readHead } from '../head.ts';
import { failure, valid } from '../../test-support/reader-checks.ts';
import { kimiReader, readKimiFile } from './kimi.ts';

const home = mkdtempSync(join(tmpdir(), 'sv-kimi-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const jsonl = (...values: unknown[]) => `${values.map((v) => JSON.stringify(v)).join('\n')}\n`;
const shape = (s: Session) => s.messages.map((m) => `${m.role}:${m.parts.map((p) => p.type).join('+')}`);
const T = 1_770_000_000;

function put(path: string, text: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

async function read(path: string, after = 3600_000): Promise<Session> {
  expect(kimiReader.claims(path)).toBe(true);
  return valid(await readKimiFile(path, statSync(path).mtimeMs + after));
}

const wire = (offset: number, type: string, payload: unknown = {}) => ({ timestamp: T + offset, message: { type, payload } });

describe('kimi-cli', () => {
  const session = join(home, '.kimi/sessions/3f2a9c41d5b6e7f8091a2b3c4d5e6f70/1b7c-aaaa');

  it('reads the conversation from wire.jsonl when the context was cleared, with tokens, thinking and its sub-agent', async () => {
    // After /clear the context holds only what came later; the wire has every event.
    const context = put(
      join(session, 'context.jsonl'),
      jsonl(
        { role: '_system_prompt', content: 'You are Kimi.\nThe current working directory is `/home/dev/app`. Be careful.' },
        { role: 'user', content: 'second question' },
      ),
    );
    put(
      join(session, 'wire.jsonl'),
      jsonl(
        { type: 'metadata', protocol_version: '1.3' },
        wire(0, 'TurnBegin', { user_input: [{ type: 'text', text: 'Find the provider registry' }] }),
        wire(1, 'StepBegin', { n: 1 }),
        wire(2, 'ContentPart', { type: 'think', think: 'Search first.', encrypted: null }),
        wire(2, 'ContentPart', { type: 'text', text: 'Searching.' }),
        wire(3, 'ToolCall', { type: 'function', id: 'tc1', function: { name: 'Shell', arguments: '{"command":"rg provider"}' } }),
        wire(3, 'StatusUpdate', { token_usage: { input_other: 100, output: 20, input_cache_read: 400, input_cache_creation: 8 }, context_tokens: 528 }),
        wire(4, 'ToolResult', { tool_call_id: 'tc1', return_value: { is_error: false, output: 'src/providers/mod.rs', message: '' } }),
        wire(5, 'StepBegin', { n: 2 }),
        wire(5, 'ToolCall', { type: 'function', id: 'tc2', function: { name: 'Agent', arguments: '{"prompt":"check"}' } }),
        wire(6, 'SubagentEvent', { parent_tool_call_id: 'tc2', agent_id: 'a1', subagent_type: 'explore', event: { type: 'TurnBegin', payload: {} } }),
        wire(7, 'ToolResult', { tool_call_id: 'tc2', return_value: { is_error: false, output: [{ type: 'text', text: 'checked' }] } }),
        wire(8, 'StepBegin', { n: 3 }),
        wire(8, 'ContentPart', { type: 'text', text: 'It is in src/providers.' }),
        wire(8, 'StatusUpdate', { token_usage: { input_other: 50, output: 10 } }),
        wire(9, 'HoloEvent', {}),
        wire(9, 'TurnEnd'),
      ),
    );
    put(join(session, 'state.json'), JSON.stringify({ version: 1, custom_title: 'Provider hunt', archived: true, archived_at: T + 100 }));
    put(
      join(session, 'subagents/a1/context.jsonl'),
      jsonl({ role: 'user', content: 'check' }, { role: 'assistant', content: [{ type: 'text', text: 'checked' }] }),
    );
    put(
      join(session, 'subagents/a1/meta.json'),
      JSON.stringify({
        agent_id: 'a1',
        subagent_type: 'explore',
        status: 'completed',
        description: 'Check the registry',
        launch_spec: { effective_model: 'kimi-k2.6' },
      }),
    );

    const s = await read(context);
    expect([s.key, s.title, s.project.path, s.status, s.formatVersion]).toEqual(['kimi:1b7c-aaaa', 'Provider hunt', '/home/dev/app', 'closed', '1.3']);
    expect(shape(s)).toEqual([
      'user:text',
      'assistant:thinking+text+tool_call',
      'tool:tool_result',
      'assistant:tool_call',
      'tool:tool_result',
      'assistant:text',
    ]);
    expect(s.messages[1]?.origin).toEqual({ fileIndex: 1, line: 4, pointer: null });
    expect(s.sourceFiles.map((f) => f.role)).toEqual(['primary', 'transcript', 'meta']);
    expect(s.messages[1]?.parts[2]).toEqual({ type: 'tool_call', callId: 'tc1', name: 'Shell', input: { command: 'rg provider' } });
    expect(countToolCalls(s)).toBe(2);
    expect(s.messages[1]?.usage).toEqual({ input: 100, output: 20, cacheRead: 400, cacheWrite: 8, reasoning: 0 });
    expect(s.usage).toEqual({ input: 150, output: 30, cacheRead: 400, cacheWrite: 8, reasoning: 0 });
    expect([s.createdAt, s.updatedAt]).toEqual([new Date(T * 1000).toISOString(), new Date((T + 9) * 1000).toISOString()]);
    expect(s.childKeys).toEqual(['kimi:1b7c-aaaa/a1']);
    expect(s.extra).toMatchObject({ archived: true, readFrom: 'wire.jsonl', subagentCalls: { tc2: 'kimi:1b7c-aaaa/a1' }, contextTokens: 528 });
    expect(s.warnings.map((w) => [w.code, w.message])).toEqual([
      ['unknown_record_type', 'Unknown record type "HoloEvent" (1 record) skipped.'],
      // kimi-cli keeps the model in its global config, not in the session.
      ['unpriced_model', 'The session does not name its model; its tokens are not in the estimated cost.'],
    ]);

    const sub = await read(join(session, 'subagents/a1/context.jsonl'));
    expect([sub.key, sub.parentKey, sub.title, sub.model?.name, sub.extra.subagent_type]).toEqual([
      'kimi:1b7c-aaaa/a1',
      'kimi:1b7c-aaaa',
      'Check the registry',
      'kimi-k2.6',
      'explore',
    ]);
  });

  it('reads an older session folder that holds only its wire.jsonl, and says why when that wire holds no conversation', async () => {
    const dir = join(home, '.kimi/sessions/3f2a9c41d5b6e7f8091a2b3c4d5e6f70/wire-only');
    const path = put(
      join(dir, 'wire.jsonl'),
      jsonl(
        { type: 'metadata', protocol_version: '1.3' },
        wire(0, 'TurnBegin', { user_input: 'Where is the registry?' }),
        wire(1, 'StepBegin', { n: 1 }),
        wire(2, 'ContentPart', { type: 'text', text: 'In src/providers.' }),
        wire(2, 'StatusUpdate', { token_usage: { input_other: 40, output: 8 } }),
        wire(3, 'TurnEnd'),
      ),
    );
    const s = await read(path);
    expect([s.key, s.status, s.formatVersion, shape(s)]).toEqual(['kimi:wire-only', 'closed', '1.3', ['user:text', 'assistant:text']]);
    // The wire is the session's one file: messages point into it.
    expect(s.sourceFiles.map((f) => [f.path, f.role])).toEqual([[path, 'primary']]);
    expect(s.messages[1]?.origin).toEqual({ fileIndex: 0, line: 4, pointer: null });
    expect(s.usage).toMatchObject({ input: 40, output: 8 });

    const markers = put(join(home, '.kimi/sessions/3f2a9c41d5b6e7f8091a2b3c4d5e6f70/markers-only/wire.jsonl'), jsonl(wire(0, 'TurnBegin'), wire(1, 'TurnEnd')));
    expect(await failure(() => readKimiFile(markers))).toMatchObject({
      code: 'empty_file',
      message: 'This wire.jsonl holds no conversation, and no context.jsonl lies beside it.',
    });
  });

  it('reads the context when the wire has only markers: checkpoints are not prompts, tool calls keep their arguments', async () => {
    const dir = join(home, '.kimi/sessions/3f2a9c41d5b6e7f8091a2b3c4d5e6f70/ctx-only');
    const path = put(
      join(dir, 'context.jsonl'),
      jsonl(
        { role: '_checkpoint', id: 0 },
        { role: 'user', content: [{ type: 'text', text: '<system>CHECKPOINT 0</system>' }] },
        { role: 'user', content: 'Rename the module' },
        { role: 'assistant', content: '', tool_calls: [{ type: 'function', id: 't', function: { name: 'Edit', arguments: 'not json' } }] },
        { role: 'tool', tool_call_id: 't', content: [{ type: 'text', text: 'ok' }] },
        { role: '_usage', token_count: 4096 },
      ),
    );
    // A turn that began half a minute ago and never ended.
    const began = Math.floor(Date.now() / 1000) - 30;
    put(join(dir, 'wire.jsonl'), jsonl({ timestamp: began, message: { type: 'TurnBegin' } }, { timestamp: began + 1, message: { type: 'ToolCall' } }));
    const s = await read(path, 60_000);
    expect(shape(s)).toEqual(['user:text', 'user:text', 'assistant:tool_call', 'tool:tool_result']);
    expect(s.messages[0]?.annotations).toEqual({ injected: true });
    expect(s.messages[2]?.parts[0]).toEqual({ type: 'tool_call', callId: 't', name: 'Edit', input: 'not json' });
    // The second prompt began the wire's only turn, which is still open: running.
    expect([s.title, s.messages[1]?.timestamp, s.status, s.extra.contextTokens]).toEqual([
      'Rename the module',
      new Date(began * 1000).toISOString(),
      'active',
      4096,
    ]);
  });

  it('reads a session whose state.json gives an archive time no date can hold, leaving that time out', async () => {
    const dir = join(home, '.kimi/sessions/3f2a9c41d5b6e7f8091a2b3c4d5e6f70/far-archive');
    const path = put(join(dir, 'context.jsonl'), jsonl({ role: 'user', content: 'Rename the module' }, { role: 'assistant', content: 'Done.' }));
    put(join(dir, 'state.json'), JSON.stringify({ version: 1, archived: true, archived_at: 1e300 }));
    const s = await read(path);
    expect([s.title, s.extra.archived, s.extra.archivedAt]).toEqual(['Rename the module', true, undefined]);
  });

  it('does not read a state.json or wire.jsonl that links to a file outside the session folder', async () => {
    const dir = join(home, '.kimi/sessions/3f2a9c41d5b6e7f8091a2b3c4d5e6f70/linked');
    const path = put(join(dir, 'context.jsonl'), jsonl({ role: 'user', content: 'hello' }));
    const secret = put(join(home, 'elsewhere/state.json'), JSON.stringify({ custom_title: 'Secret title from elsewhere' }));
    const wireElsewhere = put(join(home, 'elsewhere/wire.jsonl'), jsonl(wire(0, 'TurnBegin', { user_input: 'not this session' })));
    symlinkSync(secret, join(dir, 'state.json'));
    symlinkSync(wireElsewhere, join(dir, 'wire.jsonl'));
    const s = await read(path);
    expect([s.title, s.sourceFiles.length, shape(s)]).toEqual(['hello', 1, ['user:text']]);
  });

  it('refuses an emptied context with no wire to read instead, saying why', async () => {
    const path = put(join(home, '.kimi/sessions/3f2a9c41d5b6e7f8091a2b3c4d5e6f70/cleared/context.jsonl'), '');
    const err = await failure(() => readKimiFile(path));
    expect([err.code, err.message]).toEqual([
      'empty_file',
      'The context file is empty (kimi-cli empties it on /clear) and no wire.jsonl beside it holds the conversation.',
    ]);
  });
});

describe('Kimi Code', () => {
  it('reads a kimi-cli wire (protocol 1.3 events) lying in an agent folder as that wire, keyed as the agent', async () => {
    const session = join(home, '.kimi-code/sessions/wd_app_0123456789ab/session_wire13');
    const events = jsonl(
      { type: 'metadata', protocol_version: '1.3' },
      wire(0, 'TurnBegin', { user_input: 'List the providers' }),
      wire(1, 'StepBegin', { n: 1 }),
      wire(2, 'ContentPart', { type: 'text', text: 'Two: kimi and echo.' }),
      wire(3, 'TurnEnd'),
    );
    const main = put(join(session, 'agents/main/wire.jsonl'), events);
    const helper = put(join(session, 'agents/explore-1/wire.jsonl'), events);
    const s = await read(main);
    expect([s.key, s.formatVersion, shape(s), s.messages[1]?.origin?.fileIndex]).toEqual(['kimi:session_wire13', '1.3', ['user:text', 'assistant:text'], 0]);
    const sub = await read(helper);
    expect([sub.key, sub.parentKey, shape(sub)]).toEqual(['kimi:session_wire13/explore-1', 'kimi:session_wire13', ['user:text', 'assistant:text']]);
  });

  const session = join(home, '.kimi-code/sessions/wd_app_0123456789ab/session_5c1e');
  const op = (time: number, type: string, rest: Record<string, unknown> = {}) => ({ type, ...rest, time: T * 1000 + time });
  const loop = (time: number, event: Record<string, unknown>) => op(time, 'context.append_loop_event', { event });

  it('reads the main agent and its sub-agent from state.json: loop events, usage per step, links both ways', async () => {
    put(
      join(session, 'state.json'),
      JSON.stringify({
        createdAt: '2026-02-02T00:00:00.000Z',
        title: 'Port the parser',
        isCustomTitle: true,
        workDir: '/home/dev/app',
        agents: { main: { type: 'main', parentAgentId: null }, 'explore-1': { type: 'explore', parentAgentId: 'main' } },
      }),
    );
    const main = put(
      join(session, 'agents/main/wire.jsonl'),
      jsonl(
        { type: 'metadata', protocol_version: '1.4', created_at: T * 1000 },
        op(1, 'config.update', { modelAlias: 'moonshot-ai/kimi-k2.7-code', thinkingEffort: 'on' }),
        op(2, 'turn.prompt', { input: [{ type: 'text', text: 'Port the parser' }] }),
        op(3, 'context.append_message', { message: { role: 'user', content: [{ type: 'text', text: 'Port the parser' }], toolCalls: [] } }),
        op(4, 'llm.request', { provider: 'kimi', model: 'kimi-k2.7-code' }),
        loop(5, { type: 'step.begin', step: 1 }),
        loop(6, { type: 'content.part', part: { type: 'think', think: 'Read it first.' } }),
        loop(7, { type: 'tool.call', toolCallId: 'c1', name: 'Read', args: { path: 'parser.py' } }),
        loop(8, { type: 'tool.result', toolCallId: 'c1', result: { output: 'def parse(): ...', isError: false } }),
        loop(9, {
          type: 'step.end',
          model: 'kimi-k2.7-code',
          finishReason: 'tool_calls',
          usage: { inputOther: 300, output: 40, inputCacheRead: 1000, inputCacheCreation: 0 },
        }),
        loop(10, { type: 'content.part', part: { type: 'text', text: 'Ported.' } }),
        loop(11, { type: 'step.end', usage: { inputOther: 20, output: 5 } }),
        op(12, 'turn.ended', { reason: 'completed' }),
        op(13, 'future.op', {}),
        loop(14, { type: 'future.event' }),
      ),
    );
    const sub = put(
      join(session, 'agents/explore-1/wire.jsonl'),
      jsonl(
        { type: 'metadata', protocol_version: '1.4' },
        op(20, 'context.append_message', { message: { role: 'user', content: [{ type: 'text', text: 'Where is parse()?' }] } }),
        loop(21, { type: 'content.part', part: { type: 'text', text: 'In parser.py.' } }),
      ),
    );

    const s = await read(main);
    expect([s.key, s.title, s.project.path, s.status]).toEqual(['kimi:session_5c1e', 'Port the parser', '/home/dev/app', 'closed']);
    expect(shape(s)).toEqual(['user:text', 'assistant:thinking+tool_call', 'tool:tool_result', 'assistant:text']);
    expect(s.messages[1]?.usage).toEqual({ input: 300, output: 40, cacheRead: 1000, cacheWrite: 0, reasoning: 0 });
    expect(s.usage).toEqual({ input: 320, output: 45, cacheRead: 1000, cacheWrite: 0, reasoning: 0 });
    expect(s.model).toEqual({ provider: 'kimi', name: 'kimi-k2.7-code', parameters: { thinkingEffort: 'on' } });
    expect([s.parentKey, s.childKeys]).toEqual([null, ['kimi:session_5c1e/explore-1']]);
    expect(s.warnings.map((w) => w.message)).toEqual([
      'Unknown record type "future.op" (1 record) skipped.',
      'Unknown record type "loop event future.event" (1 record) skipped.',
    ]);

    const child = await read(sub);
    expect([child.key, child.parentKey, child.title, child.extra.agentType]).toEqual([
      'kimi:session_5c1e/explore-1',
      'kimi:session_5c1e',
      'Where is parse()?',
      'explore',
    ]);
    expect(kimiReader.resumeCommand({ id: child.id, isSubAgent: true })).toBeNull();
  });

  it('keeps the tool definitions of llm.tools_snapshot ops (each once) and the active tools in the extras, where search finds their words', async () => {
    const agent = { name: 'Agent', description: 'Launch a subagent to handle a delegated task.', parameters: { type: 'object' } };
    const grep = { name: 'Grep', description: 'Search file contents with ripgrep patterns.' };
    const path = put(
      join(home, '.kimi-code/sessions/wd_app_0123456789ab/session_tools/agents/main/wire.jsonl'),
      jsonl(
        { type: 'metadata', protocol_version: '1.4' },
        op(1, 'llm.tools_snapshot', { hash: 'h1', tools: [agent] }),
        op(2, 'context.append_message', { message: { role: 'user', content: [{ type: 'text', text: 'hi' }] } }),
        op(3, 'llm.tools_snapshot', { hash: 'h2', tools: [agent, grep] }),
        op(4, 'tools.set_active_tools', { names: ['Agent', 'Grep', 'CreateGoal'] }),
      ),
    );
    const s = await read(path);
    expect(s.extra.tools).toEqual([agent, grep]);
    // The latest list of the tools switched on, which may name tools no snapshot described.
    expect(s.extra.activeTools).toEqual(['Agent', 'Grep', 'CreateGoal']);
    expect(s.warnings).toEqual([]);
    expect(extractIndexText(s).more).toContain('delegated');
  });

  // The op shapes of an authentic Kimi Code 0.29.1 capture (jazzyalex/agent-sessions' kimi fixtures, MIT): a manual
  // compaction, plan mode switched on and off, and the approval of each tool call.
  it('shows a compaction with its summary and tokens, and knows plan mode and approvals without a warning', async () => {
    const path = put(
      join(home, '.kimi-code/sessions/wd_app_0123456789ab/session_compact/agents/main/wire.jsonl'),
      jsonl(
        { type: 'metadata', protocol_version: '1.4' },
        op(1, 'context.append_message', { message: { role: 'user', content: [{ type: 'text', text: 'Plan the port' }] } }),
        op(2, 'plan_mode.enter', { id: 'zatanna-moon-knight-groot' }),
        loop(3, { type: 'tool.call', toolCallId: 'ExitPlanMode_7', name: 'ExitPlanMode', args: {} }),
        op(4, 'permission.record_approval_result', { turnId: 1, toolCallId: 'ExitPlanMode_7', toolName: 'ExitPlanMode', result: { decision: 'approved' } }),
        op(5, 'plan_mode.exit'),
        op(6, 'full_compaction.begin', { source: 'manual' }),
        op(7, 'context.apply_compaction', {
          summary: 'Handoff: the parser is ported; the tests are next.',
          contextSummary: 'The conversation so far has been compacted.',
          compactedCount: 56,
          tokensBefore: 15912,
          tokensAfter: 654,
        }),
        op(8, 'full_compaction.complete'),
        op(9, 'context.append_message', { message: { role: 'user', content: [{ type: 'text', text: 'Go on' }] } }),
      ),
    );
    const s = await read(path);
    expect(shape(s)).toEqual(['user:text', 'assistant:tool_call', 'system:compaction', 'user:text']);
    expect(s.messages[2]?.parts).toEqual([
      { type: 'compaction', summary: 'Handoff: the parser is ported; the tests are next.', trigger: 'manual', tokensBefore: 15912 },
    ]);
    expect(s.messages[2]?.annotations).toEqual({ tokensAfter: 654, compactedMessages: 56 });
    expect(s.messages[2]?.timestamp).toBe(new Date(T * 1000 + 6).toISOString());
    expect(s.warnings).toEqual([]);
    // The summary is the session's text: search finds it.
    expect(extractIndexText(s).body).toContain('Handoff');
  });

  it('keeps the working folder when a later config.update names an empty one (agentsview kimi_test.go)', async () => {
    const path = put(
      join(home, '.kimi-code/sessions/wd_app_0123456789ab/session_cwd/agents/main/wire.jsonl'),
      jsonl(
        { type: 'metadata', protocol_version: '1.4' },
        op(1, 'config.update', { cwd: '/Users/helix/Code/mcp-hub' }),
        op(2, 'context.append_message', { message: { role: 'user', content: [{ type: 'text', text: 'hi' }] } }),
        op(3, 'config.update', { cwd: '' }),
      ),
    );
    expect((await read(path)).project.path).toBe('/Users/helix/Code/mcp-hub');
  });

  it('recognises a journal and a kimi-cli context by their first records wherever they lie', async () => {
    const journal = put(join(home, 'Downloads/kimi-journal.jsonl'), jsonl({ type: 'metadata', protocol_version: '1.4' }, op(1, 'turn.prompt', {})));
    const context = put(join(home, 'Downloads/kimi-context.jsonl'), jsonl({ role: '_system_prompt', content: 'x' }, { role: 'user', content: 'hi' }));
    const other = put(join(home, 'Downloads/other.jsonl'), jsonl({ role: 'user', content: 'hi' }, { role: 'assistant', content: 'yo' }));
    expect(await Promise.all([journal, context, other].map(async (p) => kimiReader.recognizes?.(await readHead(p))))).toEqual([true, true, false]);
    const loose = valid(await readKimiFile(context));
    expect([loose.key, loose.title]).toEqual(['kimi:kimi-context', 'hi']);
  });
});
