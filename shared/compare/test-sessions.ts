// Hand-made canonical sessions for the comparison's tests: turns written as prompts, replies and tool calls.
import type { Message, Session, TokenUsage } from '../session.ts';
import { emptySession } from '../empty-session.ts';

export type StepSpec = string | { tool: string; input: unknown; output?: string; error?: boolean } | { compaction: string };

export interface TurnSpec {
  prompt: string;
  steps?: StepSpec[];
  /** Tokens spent on the turn's first reply (all counted as output). */
  tokens?: number;
  usd?: number;
}

const usage = (output: number): TokenUsage => ({ input: 0, output, cacheRead: 0, cacheWrite: 0, reasoning: 0 });

/** One user message per prompt, then one message per step (tool results in a `tool` message), a second apart. */
export function messages(turns: readonly TurnSpec[], start = Date.parse('2026-01-01T10:00:00Z')): Message[] {
  const out: Message[] = [];
  let n = 0;
  const base = (role: Message['role']): Message => ({
    id: `m${n}`,
    role,
    timestamp: new Date(start + n++ * 1000).toISOString(),
    model: null,
    usage: null,
    cost: null,
    parts: [],
    agentId: null,
    origin: null,
  });
  for (const turn of turns) {
    out.push({ ...base('user'), parts: [{ type: 'text', text: turn.prompt }] });
    let first = true;
    for (const step of turn.steps ?? []) {
      const m = base('assistant');
      if (first && turn.tokens !== undefined) m.usage = usage(turn.tokens);
      if (first && turn.usd !== undefined) m.cost = { usd: turn.usd, estimated: false };
      first = false;
      if (typeof step === 'string') {
        out.push({ ...m, parts: [{ type: 'text', text: step }] });
      } else if ('compaction' in step) {
        out.push({ ...m, role: 'system', parts: [{ type: 'compaction', summary: null, trigger: step.compaction, tokensBefore: null }] });
      } else {
        const callId = `call-${n}`;
        out.push({ ...m, parts: [{ type: 'tool_call', callId, name: step.tool, input: step.input }] });
        if (step.output !== undefined) {
          out.push({ ...base('tool'), parts: [{ type: 'tool_result', callId, output: step.output, isError: step.error ?? false }] });
        }
      }
    }
  }
  return out;
}

export function testSession(key: string, turns: readonly TurnSpec[], over: Partial<Session> = {}): Session {
  const msgs = messages(turns);
  return emptySession(key, {
    format: 'vault',
    project: { path: '/src/app', name: 'app', branch: 'main', headCommit: null },
    createdAt: msgs[0]?.timestamp ?? null,
    updatedAt: msgs.at(-1)?.timestamp ?? null,
    messages: msgs,
    ...over,
  });
}

/** A small realistic task: four turns with replies and tool calls. */
export const BASE_TURNS: TurnSpec[] = [
  { prompt: 'Where is the retry loop of the webhook sender?', steps: ['In src/webhook.ts, inside deliver().'], tokens: 1000 },
  {
    prompt: 'Make the retry use exponential backoff and keep the maximum at five attempts.',
    steps: [
      { tool: 'Read', input: { file_path: '/src/app/src/webhook.ts' }, output: 'for (let attempt = 0; attempt < 5; attempt++) {' },
      { tool: 'Edit', input: { file_path: '/src/app/src/webhook.ts', old_string: 'sleep(1000)', new_string: 'sleep(backoff(attempt))' }, output: 'ok' },
      'Retries now wait 1, 2, 4, 8 and 16 seconds between attempts.',
    ],
    tokens: 4000,
  },
  { prompt: 'Run the tests.', steps: [{ tool: 'Bash', input: { command: 'npm test' }, output: '12 passed' }, 'All 12 tests pass.'], tokens: 2000 },
  {
    prompt: 'Write a changelog entry for the release notes.',
    steps: [{ tool: 'Write', input: { file_path: '/src/app/CHANGELOG.md', content: '- backoff' }, output: 'ok' }, 'Added.'],
    tokens: 500,
  },
];
