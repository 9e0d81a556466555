// The Copilot CLI reader over the sample corpus (samples/copilot-cli): the facts each file implies, read from the files.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countToolCalls } from '../../../shared/summarize.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { valid } from '../../test-support/reader-checks.ts';
import { readCopilotFile } from './copilot-cli.ts';

const state = join(samplesDir, 'copilot-cli/.copilot/session-state');
const DAY = 24 * 3600_000;

async function read(rel: string) {
  const path = join(state, rel);
  return valid(await readCopilotFile(path, statSync(path).mtimeMs + DAY));
}

const shape = (s: Awaited<ReturnType<typeof read>>) => s.messages.map((m) => `${m.role}:${m.parts.map((p) => p.type).join('+')}`);

describe('shared Copilot CLI samples', () => {
  it('reads the 1.0.11 folder layout: context, one bash call paired with its result, output tokens', async () => {
    const s = await read('aaaabbbb-1111-2222-3333-ccccddddeeee/events.jsonl');
    expect([s.key, s.title, s.formatVersion, s.toolVersion, s.createdAt, s.updatedAt, s.status]).toEqual([
      'copilot-cli:aaaabbbb-1111-2222-3333-ccccddddeeee',
      'List the files',
      'events.jsonl',
      '1.0.11',
      '2026-03-26T17:50:34.302Z',
      '2026-03-26T17:50:37.100Z',
      'unknown',
    ]);
    expect(s.project).toEqual({ path: '/tmp/project', name: 'project', branch: 'main', headCommit: '0000000000000000000000000000000000000000' });
    expect(shape(s)).toEqual(['user:text', 'assistant:tool_call', 'tool:tool_result', 'assistant:text']);
    expect(s.messages[1]?.parts[0]).toEqual({ type: 'tool_call', callId: 'call_1', name: 'bash', input: { command: 'ls', description: 'List files' } });
    expect(s.messages[2]?.parts[0]).toEqual({ type: 'tool_result', callId: 'call_1', output: 'file1\nfile2\n', isError: false });
    expect(s.operations.filter((o) => o.type === 'tool').map((o) => [o.name, o.status, o.latencyMs])).toEqual([['bash', 'completed', 100]]);
    // No shutdown yet: the 12 + 14 output tokens the messages counted are all the file has; the model is not named.
    expect([s.usage, s.cost, s.model]).toEqual([{ input: 0, output: 26, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, null, null]);
    expect(s.extra).toEqual({ producer: 'copilot-agent', repository: 'example/repo' });
  });

  it('reads the legacy flat file with drift: the call before its request once, a result for an unknown call, shutdown usage', async () => {
    const s = await read('copilot_stage0_drift.jsonl');
    expect([s.key, s.title, s.formatVersion, s.toolVersion, s.status, s.closedAt]).toEqual([
      'copilot-cli:copilot_stage0_drift',
      'Copilot CLI session copilot_stage0_drift',
      'legacy-flat',
      '0.0.420',
      'closed',
      '2025-12-18T22:00:07.000Z',
    ]);
    // No context in session.start: the folder the session trusted is where it ran.
    expect(s.project).toEqual({ path: '/tmp/drift', name: 'drift', branch: null, headCommit: null });
    expect(shape(s)).toEqual(['system:text', 'assistant:tool_call', 'tool:tool_result', 'system:compaction', 'tool:tool_result', 'assistant:text']);
    expect(countToolCalls(s)).toBe(1);
    expect(s.messages[4]?.parts[0]).toEqual({ type: 'tool_result', callId: 'call_2', output: 'exit code: 1\n', isError: true });
    expect(s.messages[4]?.annotations).toEqual({ note: 'result of a call this session does not record' });
    // modelMetrics: 1000 input of which 800 cached, 50 output, on gpt-4.1 ($2 / $8 / $0.50 per million).
    expect(s.usage).toEqual({ input: 200, output: 50, cacheRead: 800, cacheWrite: 0, reasoning: 0 });
    expect(s.cost?.usd).toBeCloseTo((200 * 2 + 50 * 8 + 800 * 0.5) / 1e6, 12);
    expect(s.cost?.estimated).toBe(true);
    expect(s.model?.name).toBe('gpt-4.1');
    expect(s.extra).toMatchObject({ premiumRequests: 1, nanoAiu: 3236385000, shutdownType: 'routine' });
    expect(s.warnings).toEqual([]);
  });

  it('reads the 1.0.77 sample: model change, notices, hooks, sub-agent lines, resume after shutdown', async () => {
    const s = await read('copilot_stage0_small/events.jsonl');
    expect([s.key, s.title, s.toolVersion, s.createdAt, s.status]).toEqual([
      'copilot-cli:copilot_stage0_small',
      'List the files',
      '1.0.77',
      '2025-12-18T21:32:05.000Z',
      'unknown',
    ]);
    expect(s.model).toEqual({ provider: null, name: 'gpt-5-mini', parameters: { reasoningEffort: 'medium' } });
    expect(s.project.path).toBe('/tmp/repo');
    expect(s.systemPrompt?.text).toBe('[trimmed for fixture]');
    expect(s.messages).toHaveLength(17);
    expect(countToolCalls(s)).toBe(4);
    expect(s.messages.filter((m) => m.agentId !== null).map((m) => m.role)).toEqual(['assistant', 'tool']);
    expect(s.messages.map((m) => (m.annotations as { kind?: string } | undefined)?.kind).filter(Boolean)).toEqual([
      'info',
      'error',
      'meta',
      'notification',
      'abort',
      'truncation',
    ]);
    // The first reply's reasoning is encrypted: shown as redacted thinking.
    expect(s.messages.find((m) => m.id === 'e9')?.parts[0]).toEqual({ type: 'thinking', text: '', redacted: true });
    expect(s.operations.filter((o) => o.type !== 'tool').map((o) => [o.type, o.name, o.status])).toEqual([
      ['hook', 'postToolUse', 'unfinished'],
      ['subagent', '[trimmed for fixture]', 'completed'],
      ['usage', 'gpt-5-mini', null],
    ]);
    // Session-wide tokenDetails (100 in, 5 of them cached, 15 out) for the shutdown's model.
    expect(s.usage).toEqual({ input: 95, output: 15, cacheRead: 5, cacheWrite: 0, reasoning: 0 });
    expect(s.extra).toMatchObject({ resumes: 2, nanoAiu: 3236385000, premiumRequests: 1 });
    expect(s.warnings.map((w) => [w.code, w.count])).toEqual([['bad_timestamp', 16]]);
  });
});
