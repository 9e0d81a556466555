// The Devin sample store: one visible session whose main chain is the conversation, an abandoned branch kept aside, a hidden session not listed.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { valid } from '../../test-support/reader-checks.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { devinReader } from './devin.ts';

const store = join(samplesDir, 'devin', '.local', 'share', 'devin', 'cli', 'sessions.db');
const container = devinReader.container!;

describe('Devin sample', () => {
  it('lists only the visible session (hidden-otter is retired)', async () => {
    expect((await container.list(store)).map((s) => s.id)).toEqual(['bald-ketch']);
    expect((await devinReader.read(store)).key).toBe('devin:bald-ketch');
  });

  it('shows the main chain, root to tip: system prompt, prompt, thinking with a tool call, its result, the answer', async () => {
    const s = valid(await container.readOne(store, 'bald-ketch'));
    expect([s.title, s.model, s.project.path, s.project.name]).toEqual([
      'Fix the broken checks',
      { provider: 'Windsurf', name: 'swe-1-7', parameters: { agentMode: 'bypass' } },
      '/tmp/as-agent-lab/devin/project',
      'project',
    ]);
    expect(s.messages.map((m) => [m.id, m.role, m.timestamp, m.origin?.pointer])).toEqual([
      ['m1', 'system', '2026-08-06T08:17:55.000Z', '/rows/message_nodes/1'],
      ['m2', 'user', '2026-08-06T08:18:00.000Z', '/rows/message_nodes/2'],
      ['m3', 'assistant', '2026-08-06T08:18:10.000Z', '/rows/message_nodes/3'],
      ['m4', 'tool', '2026-08-06T08:18:20.000Z', '/rows/message_nodes/4'],
      ['m5', 'assistant', '2026-08-06T08:20:00.000Z', '/rows/message_nodes/5'],
    ]);
    expect(s.messages[2]!.parts).toEqual([
      { type: 'thinking', text: 'I should read it first.', redacted: false },
      { type: 'text', text: 'Reading the file.' },
      { type: 'tool_call', callId: 'call_1', name: 'read_file', input: { path: 'hello.py' } },
    ]);
    expect(s.messages[3]!.parts).toEqual([{ type: 'tool_result', callId: 'call_1', output: 'print("hello")', isError: null }]);
    expect(s.systemPrompt?.text).toBe('You are Devin.');
    expect([s.createdAt, s.updatedAt, s.status]).toEqual(['2026-08-06T08:17:55.000Z', '2026-08-06T08:20:00.000Z', 'unknown']);
    expect(s.messages.flatMap((m) => m.parts).some((p) => p.type === 'text' && p.text.includes('ABANDONED'))).toBe(false);
    expect(s.warnings).toEqual([]);
  });

  it('keeps the abandoned branch reachable as operations, nested as it branched off the prompt', async () => {
    const s = await container.readOne(store, 'bald-ketch');
    expect(s.operations.map((o) => [o.id, o.type, o.name, o.parentId, o.origin?.pointer])).toEqual([
      ['node-6', 'abandoned_branch', 'assistant: ABANDONED BRANCH', null, '/rows/message_nodes/6'],
      ['node-7', 'abandoned_branch', 'tool: ABANDONED RESULT', 'node-6', '/rows/message_nodes/7'],
    ]);
    expect(s.operations[0]!.detail).toMatchObject({ forkedFromNode: 2 });
    expect(s.extra).toEqual({ backend: 'Windsurf', agentMode: 'bypass', abandonedNodes: 2 });
  });

  it('still reads the hidden session when asked by id, marked hidden; and gives each session only its own rows', async () => {
    const hidden = valid(await container.readOne(store, 'hidden-otter'));
    expect([hidden.title, hidden.extra.hidden, hidden.messages.length]).toEqual(['Retired session', true, 1]);
    const rows = await container.rows!(store, 'bald-ketch');
    expect(Object.keys(rows.message_nodes!.rows)).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    expect(Object.keys(rows.sessions!.rows)).toEqual(['bald-ketch']);
  });
});
