// The planted corpus's session files for the formats with one file (or a file and its companions) per session: Claude Code, Codex, Gemini, ai-agent, Vizier and JidoCode; ai-agent v3 and ProjectHub are in redaction-formats.ts.
import { gzipSync } from 'node:zlib';
import type { Format, Slots } from './redaction-corpus.ts';
import { Prng } from './prng.ts';
import { claudeCodeLines, ledgerFiles, projecthubFiles } from './redaction-formats.ts';

const ISO = '2026-03-01T10:00:00.000Z';

function hexDigits(rng: Prng, count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += '0123456789abcdef'[Math.floor(rng.next() * 16)];
  return out;
}

/** The files of one session in `format`, relative to the corpus root. */
export function sessionFiles(format: Format, id: string, s: Slots): Array<[string, Buffer]> {
  const json = (v: unknown) => Buffer.from(`${JSON.stringify(v, null, 2)}\n`);
  const jsonl = (records: unknown[]) => Buffer.from(`${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  switch (format) {
    case 'claude-code':
      return [[`.claude/projects/-home-dev-proj/${id}.jsonl`, claudeCodeLines(id, s, '1.0.62', 'claude-opus-4-1')]];
    case 'codex': {
      const item = (payload: unknown) => ({ timestamp: ISO, type: 'response_item', payload });
      const records: unknown[] = [
        {
          timestamp: ISO,
          type: 'session_meta',
          payload: { id, timestamp: ISO, cwd: '/home/dev/proj', originator: 'codex_cli_rs', cli_version: '0.98.0', source: 'cli', model_provider: 'openai' },
        },
        item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: s.title || 'Look at the deploy config.' }] }),
      ];
      for (const t of s.texts)
        records.push(
          item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: t }] }),
          item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: t }] }),
        );
      records.push(
        item({
          type: 'function_call',
          name: 'shell',
          call_id: 'call_1',
          arguments: JSON.stringify({ command: ['bash', '-lc', s.toolInput || 'ls'], workdir: s.path || '/home/dev/proj' }),
        }),
        item({ type: 'function_call_output', call_id: 'call_1', output: JSON.stringify({ output: s.toolOutput || 'ok', metadata: { exit_code: 0 } }) }),
      );
      return [[`.codex/sessions/2026/03/01/rollout-2026-03-01T10-00-00-${id}.jsonl`, jsonl(records)]];
    }
    case 'gemini': {
      const messages: unknown[] = [{ id: 'm0', timestamp: ISO, type: 'user', content: s.title || 'Look at the deploy config.' }];
      s.texts.forEach((t, i) =>
        messages.push(
          { id: `u${i}`, timestamp: ISO, type: 'user', content: t },
          { id: `g${i}`, timestamp: ISO, type: 'gemini', content: [{ text: t }], model: 'gemini-2.5-pro' },
        ),
      );
      messages.push({
        id: 'tool',
        timestamp: ISO,
        type: 'gemini',
        content: [{ text: 'Running it.' }],
        model: 'gemini-2.5-pro',
        toolCalls: [
          {
            id: 'call-1',
            name: 'run_shell_command',
            args: { command: s.toolInput || 'ls', dir_path: s.path || '/home/dev/proj' },
            result: [{ functionResponse: { id: 'call-1', name: 'run_shell_command', response: { output: s.toolOutput || 'ok' } } }],
            status: 'success',
            timestamp: ISO,
          },
        ],
      });
      const hash = hexDigits(new Prng(id.length + id.charCodeAt(0)), 64);
      return [
        [
          `.gemini/tmp/${hash}/chats/session-2026-03-01T10-00-${id.slice(0, 8)}.json`,
          json({ sessionId: id, projectHash: hash, startTime: ISO, lastUpdated: ISO, messages }),
        ],
      ];
    }
    case 'ai-agent': {
      const http = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n${JSON.stringify({ choices: [{ message: { role: 'assistant', content: s.payload || 'Done.' } }] })}`;
      const snapshot = {
        version: 1,
        reason: 'final',
        opTree: {
          id: 'root',
          traceId: id,
          agentId: 'deployer',
          callPath: 'deployer',
          startedAt: 1772359200000,
          turns: [
            {
              id: 't1',
              index: 1,
              startedAt: 1772359200100,
              ops: [
                {
                  opId: 'llm-1',
                  kind: 'llm',
                  startedAt: 1772359200200,
                  endedAt: 1772359201000,
                  status: 'ok',
                  attributes: { provider: 'openai', model: 'gpt-4o' },
                  logs: [
                    {
                      timestamp: 1772359201000,
                      severity: 'TRC',
                      message: 'LLM response',
                      llmResponsePayload: { format: 'http', body: Buffer.from(http).toString('base64') },
                    },
                  ],
                },
                {
                  opId: 'tool-1',
                  kind: 'tool',
                  startedAt: 1772359201100,
                  endedAt: 1772359201900,
                  status: 'ok',
                  attributes: { name: 'shell__run', provider: 'shell', kind: 'mcp' },
                  request: { kind: 'tool', payload: { command: s.toolInput || 'ls', path: s.path || '/srv/app' } },
                  response: { payload: { output: s.toolOutput || 'ok' } },
                  logs: [],
                  accounting: [],
                },
              ],
              endedAt: 1772359202000,
            },
          ],
          endedAt: 1772359202100,
          success: true,
        },
      };
      return [[`.ai-agent/sessions/${id}.json.gz`, gzipSync(JSON.stringify(snapshot))]];
    }
    case 'vizier': {
      const messages = [
        { role: 'System', content: 'Work inside the worktree only.' },
        { role: 'User', content: `<instruction>${s.title || 'Look at the deploy config.'}</instruction>` },
      ];
      for (const t of s.texts) messages.push({ role: 'User', content: t }, { role: 'Assistant', content: t });
      const session = {
        schema: 'vizier.session.v1',
        id,
        created_at: ISO,
        updated_at: ISO,
        tool_version: '0.2.1',
        workflow_type: 'ask',
        mode: 'default',
        repo: { root: '/home/dev/proj', branch: 'main', head: 'a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9' },
        model: { provider: 'agent', name: 'codex', scope: 'ask' },
        messages,
        agent: { command: ['bash', '-c', s.toolInput || 'ls'], output: 'wrapped', exit_code: 0, stdout: s.toolOutput || 'ok\n', stderr: [], duration_ms: 1000 },
        operations: [],
      };
      return [[`proj/.vizier/sessions/${id}/session.json`, json(session)]];
    }
    case 'ai-agent-v3':
      return ledgerFiles(id, s);
    case 'projecthub':
      return projecthubFiles(id, s);
    case 'jido-code': {
      const conversation = [{ content: s.title || 'Look at the deploy config.', id: 'c0', role: 'user', timestamp: ISO }];
      s.texts.forEach((t, i) =>
        conversation.push({ content: t, id: `u${i}`, role: 'user', timestamp: ISO }, { content: t, id: `a${i}`, role: 'assistant', timestamp: ISO }),
      );
      const session = {
        closed_at: ISO,
        config: { model: 'claude-3-5-haiku', provider: 'anthropic' },
        conversation,
        created_at: ISO,
        id,
        name: 'deploy',
        project_path: '/home/dev/proj',
        todos: [],
        updated_at: ISO,
        version: 1,
      };
      return [[`.jido_code/sessions/${id}.json`, json(session)]];
    }
  }
}
