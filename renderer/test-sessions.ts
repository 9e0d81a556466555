// Realistic canonical sessions for tests: a Claude-Code-like transcript (tools, thinking, sub-agent, compaction) and an ai-agent op tree.
import type { Message, MessagePart, Operation, Session } from '../shared/session.ts';
import { session } from './test-fixtures.ts';

let seq = 0;

export function msg(role: Message['role'], parts: MessagePart[], over: Partial<Message> = {}): Message {
  seq++;
  return {
    id: `m${seq}`,
    role,
    timestamp: new Date(Date.UTC(2026, 4, 26, 10, 0, seq)).toISOString(),
    model: role === 'assistant' ? 'claude-opus-4-7' : null,
    usage: null,
    cost: null,
    parts,
    agentId: null,
    origin: { fileIndex: 0, line: seq, pointer: null },
    ...over,
  };
}

export const text = (t: string): MessagePart => ({ type: 'text', text: t });
export const call = (callId: string | null, name: string, input: unknown): MessagePart => ({ type: 'tool_call', callId, name, input });
export const result = (callId: string | null, output: string, isError: boolean | null = false): MessagePart => ({
  type: 'tool_result',
  callId,
  output,
  isError,
});

export function op(id: string, over: Partial<Operation> = {}): Operation {
  return {
    id,
    type: 'tool',
    name: null,
    timestamp: null,
    endedAt: null,
    status: 'ok',
    latencyMs: null,
    detail: null,
    vcs: null,
    usage: null,
    cost: null,
    parentId: null,
    childSessionKey: null,
    origin: null,
    ...over,
  };
}

const usage = (input: number, output: number, cacheRead = 0) => ({ input, output, cacheRead, cacheWrite: 0, reasoning: 0 });

export function transcriptSession(): Session {
  seq = 0;
  const longLog = Array.from({ length: 120 }, (_, i) => `PASS src/test/case-${i}.test.ts (${i + 3} ms)`).join('\n');
  const messages: Message[] = [
    msg('user', [text('<command-name>/clear</command-name>')], { annotations: { isMeta: true } }),
    msg('user', [
      text(
        'Fix the **flaky** test in `src/retry.ts`:\n\n| case | result |\n|---|---|\n| retry once | fails |\n\n- [x] reproduce\n- [ ] fix\n\nSee https://example.com/issue/7 and <script>alert(1)</script>',
      ),
    ]),
    msg(
      'assistant',
      [
        { type: 'thinking', text: 'The retry loop probably uses the wall clock. '.repeat(30), redacted: false },
        text('Let me look at the file first.\n\n```ts\nconst delay = (ms: number) => new Promise((r) => setTimeout(r, ms));\n```'),
        call('toolu_1', 'Read', { file_path: '/home/dev/src/app/src/retry.ts' }),
        call('toolu_2', 'Bash', { command: 'npm test -- retry', description: 'Run the retry tests' }),
      ],
      { usage: usage(1200, 340, 20_000), cost: { usd: 0.1234, estimated: true } },
    ),
    msg('user', [result('toolu_1', 'export function retry() {\n  return Date.now();\n}'), result('toolu_2', longLog)]),
    msg('assistant', [call('toolu_3', 'Edit', { file_path: 'src/retry.ts', old_string: 'Date.now()', new_string: 'clock.now()' })]),
    msg('user', [result('toolu_3', 'Error: old_string not found in file', true)]),
    msg('assistant', [
      { type: 'thinking', text: '', redacted: true },
      call('toolu_4', 'Task', { description: 'Find other clock uses', subagent_type: 'Explore', prompt: 'Search for Date.now' }),
    ]),
    msg('user', [text('Search for Date.now')], { agentId: 'a1b2c3d4e5' }),
    msg('assistant', [call('toolu_s1', 'Grep', { pattern: 'Date.now', path: 'src' })], { agentId: 'a1b2c3d4e5' }),
    msg('user', [result('toolu_s1', 'src/retry.ts:2\nsrc/cache.ts:14')], { agentId: 'a1b2c3d4e5' }),
    msg('assistant', [text('Two uses: `retry.ts` and `cache.ts`.')], { agentId: 'a1b2c3d4e5' }),
    msg('user', [result('toolu_4', 'Two uses: retry.ts and cache.ts. agentId: a1b2c3d4e5')]),
    msg('system', [
      { type: 'compaction', summary: 'The user asked to fix a flaky retry test; two clock uses were found.', trigger: 'auto', tokensBefore: 155_000 },
    ]),
    msg('user', [
      {
        type: 'image',
        mediaType: 'image/png',
        data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
        url: null,
      },
      text('Here is the screenshot.'),
    ]),
    msg('assistant', [call('toolu_5', 'WebFetch', { url: 'https://example.com/docs' })]),
  ];
  return session({
    key: 'claude-code:rich',
    format: 'claude-code',
    title: 'Fix the flaky retry test',
    messages,
    usage: usage(5400, 1200, 80_000),
    cost: { usd: 0.4321, estimated: true },
    childKeys: ['claude-code:rich/agent-a1b2c3d4e5'],
    operations: [op('toolu_4', { type: 'subagent', name: 'Find other clock uses', childSessionKey: 'claude-code:rich/agent-a1b2c3d4e5' })],
    warnings: [{ code: 'unknown_record_type', message: 'Record type "pr-link" is not known', count: 3 }],
    extra: { version: '2.1.150', permissionMode: 'plan', cwds: ['/home/dev/src/app', '/home/dev/src/app/pkg'] },
  });
}

export function opTreeSession(): Session {
  const t = (s: number) => new Date(Date.UTC(2026, 4, 26, 12, 0, s)).toISOString();
  const operations: Operation[] = [
    op('turn-1', { type: 'turn', name: 'Turn 1', timestamp: t(0), endedAt: t(40), status: 'ok', latencyMs: 40_000, usage: usage(900, 300) }),
    op('llm-1', {
      type: 'llm',
      name: 'anthropic/claude-sonnet',
      parentId: 'turn-1',
      timestamp: t(0),
      latencyMs: 3200,
      usage: usage(500, 120),
      cost: { usd: 0.003, estimated: true },
    }),
    op('tool-1', { type: 'tool', name: 'github__search_code', parentId: 'turn-1', timestamp: t(4), latencyMs: 800, detail: { query: 'retry', hits: 3 } }),
    op('agent-1', {
      type: 'session',
      name: 'agent: web-research',
      parentId: 'turn-1',
      timestamp: t(5),
      latencyMs: 30_000,
      childSessionKey: 'ai-agent:child-1',
    }),
    op('agent-1/llm', {
      type: 'llm',
      name: 'openai/gpt-5',
      parentId: 'agent-1',
      timestamp: t(6),
      latencyMs: 9000,
      usage: usage(400, 180),
      cost: { usd: 0.002, estimated: false },
    }),
    op('agent-1/tool', {
      type: 'tool',
      name: 'fetch_url',
      parentId: 'agent-1',
      timestamp: t(16),
      latencyMs: 12_000,
      status: 'failed',
      detail: { error: 'timeout after 12s', url: 'https://example.com' },
    }),
    op('turn-2', { type: 'turn', name: 'Turn 2', timestamp: t(41), endedAt: t(50), status: 'failed', latencyMs: 9000 }),
  ];
  return session({ key: 'ai-agent:tree', format: 'ai-agent', title: 'Research the retry bug', operations });
}
