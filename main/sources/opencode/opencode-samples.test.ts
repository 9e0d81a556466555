// The facts each OpenCode sample implies (samples/opencode: the store, six ai-viewer stores, the legacy storage tree), read through the reader as the app reads them.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { MessagePart, Session } from '../../../shared/session.ts';
import { Session as SessionSchema } from '../../../shared/session.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { openCodeReader } from './opencode.ts';

const container = openCodeReader.container!;
const home = (name: string) => join(samplesDir, 'opencode', '_homes', `aiv-${name}`, '.local', 'share', 'opencode', 'opencode.db');
const mainStore = join(samplesDir, 'opencode', '.local', 'share', 'opencode', 'opencode.db');

async function sessionsOf(store: string): Promise<Session[]> {
  const listed = await container.list(store);
  const sessions = await Promise.all(listed.map((s) => container.readOne(store, s.id)));
  for (const s of sessions) SessionSchema.parse(s);
  return sessions;
}

const shown = (p: MessagePart) =>
  p.type === 'text' || p.type === 'thinking'
    ? `${p.type}: ${p.text}`
    : p.type === 'tool_call'
      ? `call ${p.name} ${p.callId}`
      : p.type === 'tool_result'
        ? `result ${p.callId}${p.isError ? ' (error)' : ''}: ${p.output}`
        : p.type === 'image'
          ? `image ${p.mediaType} ${p.url}`
          : p.type;

describe('samples/opencode', () => {
  it('opencode.db (v1.2 schema): one session, a user and an assistant message, tokens and cost from message.data, the cwd from project.worktree', async () => {
    const [s, ...rest] = await sessionsOf(mainStore);
    expect(rest).toEqual([]);
    expect(s).toMatchObject({
      key: 'opencode:ses_001',
      title: 'Test session',
      formatVersion: '1.0',
      project: { path: '/tmp/my-project', name: 'my-project' },
      createdAt: '2023-11-14T22:13:20.000Z',
      updatedAt: '2023-11-14T22:14:10.000Z',
      parentKey: null,
      childKeys: [],
      warnings: [],
    });
    expect(s!.messages.map((m) => [m.role, m.parts.map(shown)])).toEqual([
      ['user', ['text: Hello from user']],
      ['assistant', ['text: Hello from assistant']],
    ]);
    expect(s!.messages[1]).toMatchObject({
      model: 'test-model',
      usage: { input: 100, output: 50, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
      cost: { usd: 0.01, estimated: false },
      origin: { fileIndex: 0, line: null, pointer: '/rows/message/msg_002' },
    });
    expect(s!.usage).toEqual({ input: 100, output: 50, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
    expect(s!.cost).toEqual({ usd: 0.01, estimated: false });
    expect(s!.sourceFiles).toEqual([expect.objectContaining({ path: mainStore, role: 'primary' })]);
    // A store of one session reads as a file too (`session-vault open opencode.db`).
    expect((await openCodeReader.read(mainStore)).key).toBe('opencode:ses_001');
  });

  it('a_happy: step-start, reasoning, text, a completed read tool, step-finish; usage and cost recorded once (not twice with the step)', async () => {
    const [s] = await sessionsOf(home('a_happy'));
    expect(s!.messages.map((m) => [m.role, m.parts.map(shown)])).toEqual([
      ['assistant', ['thinking: thinking it through', 'text: the answer', 'call read call_a4', 'result call_a4: package main']],
    ]);
    expect(s!.model).toEqual({ provider: 'anthropic', name: 'claude-x', parameters: {} });
    expect(s!.usage).toEqual({ input: 500, output: 80, cacheRead: 100, cacheWrite: 0, reasoning: 0 });
    expect(s!.cost).toEqual({ usd: 0.02, estimated: false });
    expect(s!.project.path).toBe('/work/proj');
    expect(s!.status).toBe('open');
  });

  it('b_subagent_task: the child names its parent (parent_id), and the parent lists the child by parent_id and by its task part', async () => {
    const sessions = await sessionsOf(home('b_subagent_task'));
    const parent = sessions.find((s) => s.id === 'ses_parent01')!;
    const child = sessions.find((s) => s.id === 'ses_child01')!;
    // The root's parent_id is '' (not NULL): no parent.
    expect(parent.parentKey).toBeNull();
    expect(parent.childKeys).toEqual(['opencode:ses_child01']);
    expect(parent.messages[0]!.parts.map(shown)).toEqual(['call task call_p2', 'result call_p2: child done']);
    expect(parent.operations.map((o) => [o.type, o.childSessionKey])).toEqual([['subagent', 'opencode:ses_child01']]);
    expect(child).toMatchObject({ parentKey: 'opencode:ses_parent01', title: 'Child session', childKeys: [] });
    expect(child.messages[0]!.parts.map(shown)).toEqual(['text: child reply']);
  });

  it('d_schema_drift: an older session table without agent, model, cost or token columns still reads, model and tokens from message.data', async () => {
    const [s] = await sessionsOf(home('d_schema_drift'));
    expect(s).toMatchObject({ key: 'opencode:ses_drift01', title: 'Old schema session', formatVersion: '0.9.0', warnings: [] });
    expect(s!.model?.name).toBe('claude-x');
    expect(s!.usage).toEqual({ input: 60, output: 15, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
    expect(s!.messages[0]!.parts.map(shown)).toEqual(['text: old reply']);
  });

  it('g_nested_subagent: root -> child -> grandchild through parent_id; turns with no content are shown empty, with their usage and a warning', async () => {
    const sessions = await sessionsOf(home('g_nested_subagent'));
    expect(sessions.map((s) => [s.id, s.parentKey, s.childKeys])).toEqual([
      ['ses_groot', null, ['opencode:ses_gchild']],
      ['ses_gchild', 'opencode:ses_groot', ['opencode:ses_ggrand']],
      ['ses_ggrand', 'opencode:ses_gchild', []],
    ]);
    for (const s of sessions) {
      expect(s.messages).toHaveLength(1);
      expect(s.messages[0]!.parts).toEqual([]);
      expect(s.messages[0]!.annotations).toMatchObject({ noContent: true });
      expect(s.warnings.map((w) => w.code)).toEqual(['missing_content']);
    }
    expect(sessions.map((s) => s.usage?.input)).toEqual([100, 90, 80]);
  });

  it('h_failed_tool: a bash tool in error shows its error text as a failed result', async () => {
    const [s] = await sessionsOf(home('h_failed_tool'));
    expect(s!.messages[0]!.parts.map(shown)).toEqual(['call bash call_f2', 'result call_f2 (error): command failed: exit status 2']);
    expect(s!.messages[0]!.parts[0]).toMatchObject({ input: { command: 'make build' } });
  });

  it('j_file_attachment: an image file part is an image with its URL', async () => {
    const [s] = await sessionsOf(home('j_file_attachment'));
    expect(s!.messages[0]!.parts).toEqual([{ type: 'image', mediaType: 'image/png', data: null, url: 'https://cdn.example.invalid/diagram.png' }]);
  });

  it('storage/ (migration marker 2): the session file with its messages in message/<session>/ and their parts in part/<message>/, in file order', async () => {
    const file = join(samplesDir, 'opencode', '.local', 'share', 'opencode', 'storage', 'session', 'proj_test', 'ses_s_stage0_small.json');
    const s = await openCodeReader.read(file);
    SessionSchema.parse(s);
    expect(s).toMatchObject({
      key: 'opencode:s_stage0_small',
      title: 'OpenCode Small',
      formatVersion: '1.3.17',
      project: { path: '/tmp/repo', name: 'repo' },
      createdAt: '2024-10-27T03:33:20.000Z',
      updatedAt: '2024-10-27T03:33:25.000Z',
      usage: null,
      cost: null,
      warnings: [],
    });
    expect(s.messages.map((m) => [m.id, m.role, m.parts.map(shown)])).toEqual([
      ['m_user_small', 'user', ['text: Hello']],
      ['m_assistant_small', 'assistant', ['call bash call_1', 'result call_1: a.txt\nb.txt\n', 'text: Found 2 files.']],
    ]);
    expect(s.model).toEqual({ provider: 'openai', name: 'gpt-4o-mini', parameters: {} });
    expect(s.extra.changes).toEqual({ additions: 1, deletions: 0, files: 1 });
    // Every message and part file is one of the session's files (a change to one re-reads it); each message's origin is its file.
    expect(s.sourceFiles.map((f) => [f.path.slice(file.length - 'session/proj_test/ses_s_stage0_small.json'.length), f.role])).toEqual([
      ['session/proj_test/ses_s_stage0_small.json', 'primary'],
      ['message/s_stage0_small/msg_0001.json', 'transcript'],
      ['message/s_stage0_small/msg_0002.json', 'transcript'],
      ['part/m_user_small/001.json', 'payload'],
      ['part/m_assistant_small/001.json', 'payload'],
      ['part/m_assistant_small/002.json', 'payload'],
    ]);
    expect(s.messages.map((m) => m.origin)).toEqual([
      { fileIndex: 1, line: null, pointer: '' },
      { fileIndex: 2, line: null, pointer: '' },
    ]);
  });
});
