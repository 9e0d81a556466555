// Writes one large, realistic Claude Code transcript or Codex rollout of a given size (deterministic).
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { once } from 'node:events';
import { Prng } from './prng.ts';

type Emit = (record: unknown) => Promise<void>;

async function writeRecords(path: string, targetBytes: number, body: (emit: Emit, rng: Prng, done: () => boolean) => Promise<void>): Promise<number> {
  await mkdir(dirname(path), { recursive: true });
  const out = createWriteStream(path);
  let written = 0;
  const emit: Emit = async (record) => {
    const line = `${JSON.stringify(record)}\n`;
    written += Buffer.byteLength(line);
    if (!out.write(line)) await once(out, 'drain');
  };
  await body(emit, new Prng(42), () => written >= targetBytes);
  out.end();
  await once(out, 'finish');
  return written;
}

const iso = (start: number, i: number) => new Date(start + i * 7_000).toISOString();

/** A Claude Code session: prompts, split assistant responses, Read/Bash tool calls with large outputs. */
export function writeClaudeTranscript(path: string, targetBytes: number, sessionId = 'bbbbbbbb-0000-4000-8000-000000000200'): Promise<number> {
  const start = Date.parse('2026-06-01T09:00:00.000Z');
  return writeRecords(path, targetBytes, async (emit, rng, done) => {
    const base = { sessionId, cwd: '/home/dev/src/big-project', version: '2.1.150', gitBranch: 'main', isSidechain: false, userType: 'external' };
    let i = 0;
    let parent: string | null = null;
    const uuid = () => `00000000-0000-4000-8000-${(i++).toString(16).padStart(12, '0')}`;
    while (!done()) {
      const u = uuid();
      await emit({
        ...base,
        type: 'user',
        uuid: u,
        parentUuid: parent,
        timestamp: iso(start, i),
        message: { role: 'user', content: rng.text(rng.int(40, 400)) },
      });
      parent = u;
      const msgId = `msg_${i}`;
      const toolId = `toolu_${i}`;
      const usage = {
        input_tokens: rng.int(100, 4000),
        output_tokens: rng.int(50, 1500),
        cache_read_input_tokens: rng.int(0, 90000),
        cache_creation_input_tokens: rng.int(0, 5000),
      };
      const a1 = uuid();
      await emit({
        ...base,
        type: 'assistant',
        uuid: a1,
        parentUuid: parent,
        requestId: `req_${i}`,
        timestamp: iso(start, i),
        message: {
          id: msgId,
          type: 'message',
          role: 'assistant',
          model: 'claude-opus-4-7',
          usage,
          content: [{ type: 'thinking', thinking: rng.text(rng.int(100, 2000)), signature: 'sig' }],
        },
      });
      const a2 = uuid();
      await emit({
        ...base,
        type: 'assistant',
        uuid: a2,
        parentUuid: a1,
        requestId: `req_${i}`,
        timestamp: iso(start, i),
        message: {
          id: msgId,
          type: 'message',
          role: 'assistant',
          model: 'claude-opus-4-7',
          usage,
          content: [
            {
              type: 'tool_use',
              id: toolId,
              name: rng.pick(['Read', 'Bash', 'Grep', 'Edit']),
              input: { file_path: `/home/dev/src/big-project/src/file${rng.int(1, 500)}.ts` },
            },
          ],
        },
      });
      const t = uuid();
      const output = rng.text(rng.next() < 0.02 ? rng.int(50_000, 400_000) : rng.int(500, 8_000));
      await emit({
        ...base,
        type: 'user',
        uuid: t,
        parentUuid: a2,
        timestamp: iso(start, i),
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolId, content: output, is_error: false }] },
        toolUseResult: { stdout: output.slice(0, 200) },
      });
      const a3 = uuid();
      await emit({
        ...base,
        type: 'assistant',
        uuid: a3,
        parentUuid: t,
        requestId: `req_${i}b`,
        timestamp: iso(start, i),
        message: {
          id: `${msgId}b`,
          type: 'message',
          role: 'assistant',
          model: 'claude-opus-4-7',
          usage,
          content: [{ type: 'text', text: rng.text(rng.int(100, 1500)) }],
        },
      });
      parent = a3;
    }
    await emit({ type: 'ai-title', aiTitle: 'Refactor the big project', sessionId });
  });
}

/** A Codex rollout: turns with reasoning, function calls (JSON-string arguments) and outputs, cumulative token counts. */
export function writeCodexRollout(path: string, targetBytes: number, sessionId = '019f0000-0000-7000-8000-000000000100'): Promise<number> {
  const start = Date.parse('2026-06-02T09:00:00.000Z');
  return writeRecords(path, targetBytes, async (emit, rng, done) => {
    let i = 0;
    const ts = () => iso(start, i++);
    await emit({
      timestamp: ts(),
      type: 'session_meta',
      payload: {
        id: sessionId,
        timestamp: ts(),
        cwd: '/home/dev/src/big-project',
        originator: 'codex_cli_rs',
        cli_version: '0.128.0',
        source: 'cli',
        git: { commit_hash: 'a'.repeat(40), branch: 'main' },
      },
    });
    let total = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 };
    while (!done()) {
      const turn = `turn-${i}`;
      await emit({
        timestamp: ts(),
        type: 'turn_context',
        payload: {
          turn_id: turn,
          cwd: '/home/dev/src/big-project',
          model: 'gpt-5-codex',
          effort: 'high',
          approval_policy: 'on-request',
          sandbox_policy: { type: 'workspace-write' },
        },
      });
      await emit({ timestamp: ts(), type: 'event_msg', payload: { type: 'task_started', turn_id: turn } });
      await emit({
        timestamp: ts(),
        type: 'response_item',
        payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: rng.text(rng.int(40, 400)) }] },
      });
      await emit({
        timestamp: ts(),
        type: 'response_item',
        payload: {
          type: 'reasoning',
          summary: [{ type: 'summary_text', text: rng.text(rng.int(100, 800)) }],
          encrypted_content: 'x'.repeat(rng.int(200, 2000)),
        },
      });
      const call = `call_${i}`;
      await emit({
        timestamp: ts(),
        type: 'response_item',
        payload: { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', `rg -n ${rng.text(10)}`] }), call_id: call },
      });
      const output = rng.text(rng.next() < 0.02 ? rng.int(50_000, 300_000) : rng.int(500, 8_000));
      await emit({
        timestamp: ts(),
        type: 'response_item',
        payload: { type: 'function_call_output', call_id: call, output: JSON.stringify({ output, metadata: { exit_code: 0, duration_seconds: 0.4 } }) },
      });
      await emit({
        timestamp: ts(),
        type: 'response_item',
        payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: rng.text(rng.int(100, 1500)) }] },
      });
      const last = {
        input_tokens: rng.int(1000, 20000),
        cached_input_tokens: rng.int(0, 15000),
        output_tokens: rng.int(50, 2000),
        reasoning_output_tokens: rng.int(0, 1000),
        total_tokens: 0,
      };
      last.total_tokens = last.input_tokens + last.output_tokens;
      total = {
        input_tokens: total.input_tokens + last.input_tokens,
        cached_input_tokens: total.cached_input_tokens + last.cached_input_tokens,
        output_tokens: total.output_tokens + last.output_tokens,
        reasoning_output_tokens: total.reasoning_output_tokens + last.reasoning_output_tokens,
        total_tokens: total.total_tokens + last.total_tokens,
      };
      await emit({
        timestamp: ts(),
        type: 'event_msg',
        payload: { type: 'token_count', info: { total_token_usage: total, last_token_usage: last, model_context_window: 258400 } },
      });
      await emit({ timestamp: ts(), type: 'event_msg', payload: { type: 'task_complete', turn_id: turn } });
    }
  });
}
