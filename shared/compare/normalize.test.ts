// Normalizing a session into turns: real prompts only, tool calls with their result status, sub-agents and injected context aside.
import { describe, expect, it } from 'vitest';
import type { Message } from '../session.ts';
import { normalizeSession } from './normalize.ts';
import { testSession } from './test-sessions.ts';
import { toolFamily, toolTarget } from './tools.ts';

const msg = (over: Partial<Message> & Pick<Message, 'role' | 'parts'>): Message => ({
  id: `m-${Math.random()}`,
  timestamp: null,
  model: null,
  usage: null,
  cost: null,
  agentId: null,
  origin: null,
  ...over,
});

describe('normalizeSession', () => {
  it('starts a turn at each typed prompt; injected context joins the first turn instead of making its own', () => {
    const s = testSession('vault:n', [], {
      messages: [
        msg({
          role: 'user',
          parts: [{ type: 'text', text: '<environment_context>\n<cwd>/src</cwd>\n</environment_context>' }],
          annotations: { injected: true },
        }),
        msg({ role: 'user', parts: [{ type: 'text', text: 'Fix the build' }] }),
        msg({
          role: 'assistant',
          parts: [
            { type: 'thinking', text: 'hmm', redacted: false },
            { type: 'text', text: 'Fixed.' },
          ],
        }),
        msg({ role: 'user', parts: [{ type: 'text', text: '<command-name>/clear</command-name>' }] }),
        msg({ role: 'user', parts: [{ type: 'text', text: 'Thanks' }] }),
      ],
    });
    const turns = normalizeSession(s);
    expect(turns.map((t) => [t.turn.prompt, t.turn.messageStart, t.turn.messageCount])).toEqual([
      ['Fix the build', 0, 4],
      ['Thanks', 4, 1],
    ]);
    // Thinking is the model's own scratchpad: only what it said and did is compared.
    expect(turns[0]!.turn.steps).toEqual([{ kind: 'text', text: 'Fixed.', truncated: false }]);
  });

  it('pairs tool results with their calls by id across messages and records ok, error or no result', () => {
    const s = testSession('vault:t', [], {
      messages: [
        msg({ role: 'user', parts: [{ type: 'text', text: 'Check' }] }),
        msg({
          role: 'assistant',
          parts: [
            { type: 'tool_call', callId: 'c1', name: 'Bash', input: { command: 'npm test' } },
            { type: 'tool_call', callId: 'c2', name: 'Read', input: { file_path: '/src/app/a.ts' } },
            { type: 'tool_call', callId: 'c3', name: 'Grep', input: { pattern: 'TODO' } },
          ],
        }),
        msg({ role: 'tool', parts: [{ type: 'tool_result', callId: 'c2', output: 'export {}', isError: null }] }),
        msg({ role: 'tool', parts: [{ type: 'tool_result', callId: 'c1', output: '1 failed', isError: true }] }),
      ],
    });
    const [turn] = normalizeSession(s);
    expect(turn!.turn.steps.map((st) => st.kind === 'tool' && [st.family, st.target, st.status])).toEqual([
      ['shell', 'npm test', 'error'],
      ['read', 'a.ts', 'ok'],
      ['search', 'TODO', 'none'],
    ]);
    expect([turn!.turn.toolCalls, turn!.turn.toolErrors]).toEqual([3, 1]);
  });

  it("counts a sub-agent's messages in the turn's size and tokens but not among its steps", () => {
    const s = testSession('vault:s', [], {
      messages: [
        msg({ role: 'user', parts: [{ type: 'text', text: 'Review it' }] }),
        msg({ role: 'user', agentId: 'r1', parts: [{ type: 'text', text: 'Review src/a.ts' }] }),
        msg({
          role: 'assistant',
          agentId: 'r1',
          usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
          parts: [{ type: 'text', text: 'Looks fine' }],
        }),
        msg({ role: 'assistant', parts: [{ type: 'text', text: 'The reviewer found nothing.' }] }),
      ],
    });
    const turns = normalizeSession(s);
    expect(turns).toHaveLength(1);
    expect(turns[0]!.turn).toMatchObject({ messageCount: 4, tokens: 15, steps: [{ kind: 'text', text: 'The reviewer found nothing.' }] });
  });
});

describe('tool calls across formats', () => {
  it('puts Claude Code, Codex and Gemini names for one kind of tool in one family', () => {
    expect(['Bash', 'shell', 'exec_command', 'run_shell_command'].map(toolFamily)).toEqual(['shell', 'shell', 'shell', 'shell']);
    expect(['Edit', 'apply_patch', 'replace'].map(toolFamily)).toEqual(['edit', 'edit', 'edit']);
    expect(toolFamily('run_tests')).toBe('run_tests');
  });

  it('reads the same target from differently shaped arguments', () => {
    const project = '/home/dev/harbor';
    expect(toolTarget('shell', { command: 'cargo test --lib' }, project)).toBe('cargo test --lib');
    expect(toolTarget('shell', { command: ['bash', '-lc', 'cargo test --lib'] }, project)).toBe('cargo test --lib');
    expect(toolTarget('shell', { command: ['rg', '-n', 'retry', 'src/'] }, project)).toBe('rg -n retry src/');
    expect(toolTarget('edit', { file_path: '/home/dev/harbor/src/webhook.rs' }, project)).toBe('src/webhook.rs');
    expect(toolTarget('edit', '*** Begin Patch\n*** Update File: src/webhook.rs\n@@\n-a\n+b\n*** End Patch', project)).toBe('src/webhook.rs');
  });
});
