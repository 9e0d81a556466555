// `codex exec --json` output saved under any name opens as a Codex session: items in order, tokens from turn.completed, nested error text kept.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Session } from '../../../shared/session.ts';
import { testTempDir } from '../../test-support/temp-dir.ts';
import { resolveReader } from '../recognize.ts';
import { errorText } from './codex-exec-json.ts';

// Event shapes as `codex exec --json` prints them (Codex's exec event stream).
const RUN = [
  { type: 'thread.started', thread_id: '0199a213-81c0-7800-8aa1-bbab2a035a53' },
  { type: 'turn.started' },
  { type: 'item.completed', item: { id: 'item_0', type: 'reasoning', text: '**Listing the files**' } },
  {
    type: 'item.started',
    item: { id: 'item_1', type: 'command_execution', command: 'bash -lc ls', aggregated_output: '', exit_code: null, status: 'in_progress' },
  },
  {
    type: 'item.completed',
    item: { id: 'item_1', type: 'command_execution', command: 'bash -lc ls', aggregated_output: 'README.md\nsrc\n', exit_code: 0, status: 'completed' },
  },
  {
    type: 'item.completed',
    item: {
      id: 'item_2',
      type: 'todo_list',
      items: [
        { text: 'read the tree', completed: true },
        { text: 'summarise', completed: false },
      ],
    },
  },
  { type: 'item.completed', item: { id: 'item_3', type: 'agent_message', text: 'The repo has a README and a src folder.' } },
  { type: 'turn.completed', usage: { input_tokens: 24763, cached_input_tokens: 24448, output_tokens: 122 } },
  { type: 'turn.started' },
  { type: 'error', message: '{"type":"error","error":{"type":"invalid_request_error","message":"The model gpt-x does not exist"}}' },
  { type: 'turn.failed', error: { message: 'stream disconnected before completion' } },
];

function write(events: object[], name = 'codex run output.jsonl'): string {
  const path = join(testTempDir('sv-codex-exec-'), name);
  writeFileSync(path, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  return path;
}

describe('codex exec --json output', () => {
  it("is recognised in a plain folder and reads items in order, with the turn's tokens counted and errors kept", async () => {
    const path = write(RUN);
    const reader = await resolveReader(path);
    expect(reader?.format).toBe('codex');
    const s = await reader!.read(path);
    expect(() => Session.parse(s)).not.toThrow();
    expect(s.key).toBe('codex:0199a213-81c0-7800-8aa1-bbab2a035a53');
    expect(s.messages.map((m) => [m.role, m.parts.map((p) => p.type)])).toEqual([
      ['assistant', ['thinking']],
      ['tool', ['tool_call', 'tool_result']],
      ['assistant', ['text']],
      ['system', ['text']],
      ['system', ['text']],
    ]);
    expect(s.usage).toEqual({ input: 315, cacheRead: 24448, cacheWrite: 0, output: 122, reasoning: 0 });
    expect(s.messages[2]?.usage?.output).toBe(122);
    expect(s.todos.map((t) => [t.content, t.status])).toEqual([
      ['read the tree', 'completed'],
      ['summarise', 'pending'],
    ]);
    const errorMessage = s.messages[3]!.parts[0];
    expect(errorMessage).toMatchObject({ type: 'text', text: expect.stringContaining('The model gpt-x does not exist') });
    expect(s.outcome).toEqual({ status: 'failed', summary: 'stream disconnected before completion', commitSha: null });
    expect(s.title).toBe('The repo has a README and a src folder.');
  });

  // OpenAI's usage counts reasoning inside output_tokens, as the rollout's token_count does (codex-usage.ts): a turn
  // that reports both must not have its reasoning counted (and billed) twice.
  it('counts reasoning once when a turn reports it inside its output', async () => {
    const path = write([
      RUN[0]!,
      { type: 'turn.completed', usage: { input_tokens: 1000, cached_input_tokens: 400, output_tokens: 300, reasoning_output_tokens: 120 } },
    ]);
    const s = await (await resolveReader(path))!.read(path);
    expect(s.usage).toEqual({ input: 600, cacheRead: 400, cacheWrite: 0, output: 180, reasoning: 120 });
  });

  it("keeps a nested provider error's own words first and the wrapper after them", () => {
    expect(errorText({ message: '{"error":{"message":"Rate limit reached"}}' })).toBe('Rate limit reached\n({"error":{"message":"Rate limit reached"}})');
    expect(errorText({ message: 'plain words' })).toBe('plain words');
  });

  it("is not taken for another format's JSONL", async () => {
    const path = write(
      [
        { type: 'message', role: 'user', content: 'hi' },
        { type: 'item', value: 1 },
      ],
      'other.jsonl',
    );
    expect((await resolveReader(path))?.format).not.toBe('codex');
  });
});

describe('an exec item with no text', () => {
  it('is left out with a warning, never shown as an empty answer', async () => {
    const run = RUN.map((e) =>
      e.type === 'item.completed' && e.item?.id === 'item_3' ? { ...e, item: { id: 'item_3', type: 'agent_message', body: 'x' } } : e,
    );
    const path = write(run);
    const s = await (await resolveReader(path))!.read(path);
    expect(s.messages.map((m) => [m.role, m.parts.map((p) => p.type)])).toEqual([
      ['assistant', ['thinking']],
      ['tool', ['tool_call', 'tool_result']],
      // The turn's tokens, which the missing answer would have held, stay on a marker without text.
      ['assistant', []],
      ['system', ['text']],
      ['system', ['text']],
    ]);
    expect(s.warnings.filter((w) => w.code === 'missing_content').map((w) => w.message)).toEqual([
      'A Codex exec agent_message item has no content (it held only "body"); it was left out (the raw record is in the file).',
    ]);
  });
});
