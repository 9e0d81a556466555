// Reads the Droid samples of the shared corpus (interactive sessions and stream-json logs) and checks the facts they imply.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/session.ts';
import { countToolCalls } from '../../../shared/summarize.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { valid } from '../../test-support/reader-checks.ts';
import { claimsDroid } from './droid-paths.ts';
import { readDroidFile } from './droid.ts';

const factory = join(samplesDir, 'droid/.factory');

async function read(rel: string): Promise<Session> {
  const path = join(factory, rel);
  expect(claimsDroid(path)).toBe(true);
  return valid(await readDroidFile(path, statSync(path).mtimeMs + 3600_000));
}

const shape = (s: Session) => s.messages.map((m) => `${m.role}:${m.parts.map((p) => p.type).join('+')}`);

describe('Droid samples', () => {
  it('reads the small session: an Execute call paired with its error output', async () => {
    const s = await read('sessions/-tmp/droid_s1.jsonl');
    expect([s.key, s.title, s.project.path, s.toolVersion, s.createdAt, s.updatedAt, s.status]).toEqual([
      'droid:droid_s1',
      'Stage0 Droid Small',
      '/tmp',
      '0.81.0',
      '2025-12-26T23:50:00.000Z',
      '2025-12-26T23:50:02.000Z',
      'closed',
    ]);
    expect(shape(s)).toEqual(['user:text', 'assistant:tool_call', 'tool:tool_result']);
    expect(countToolCalls(s)).toBe(1);
    expect(s.messages[2]?.parts[0]).toMatchObject({ callId: 'tu1', output: 'Error: Command failed (exit code: 1)\nls: /nope: No such file or directory' });
    expect([s.usage, s.model, s.warnings]).toEqual([null, null, []]);
  });

  it('reads the drift session: numeric version, no sessionTitle, the system reminder shown apart from the prompt', async () => {
    const s = await read('sessions/-tmp/droid_drift.jsonl');
    expect([s.title, s.toolVersion, s.extra.owner]).toEqual(['Stage0 Droid Drift', '2', 'alexm']);
    expect(shape(s)).toEqual(['system:text', 'user:text', 'assistant:text']);
    expect(s.messages.map((m) => (m.parts[0]?.type === 'text' ? m.parts[0].text : ''))).toEqual(['Be concise.', 'Do the thing', 'Ok']);
  });

  it('reads the small stream-json log: prompt, call, result, final answer, completed', async () => {
    const s = await read('projects/-tmp/sid_stage0_small.jsonl');
    expect([s.key, s.title, s.project.path, s.outcome?.status]).toEqual(['droid:sid_stage0_small', 'Do thing', null, 'completed']);
    expect(shape(s)).toEqual(['user:text', 'assistant:tool_call', 'tool:tool_result', 'assistant:text']);
    expect(s.messages[2]?.parts[0]).toEqual({ type: 'tool_result', callId: 'c1', output: '{"stdout":"hi\\n","exitCode":0}', isError: null });
  });

  it('reads the drift stream-json log: init facts, epoch-ms times, the error result, usage, and the trailing CLI error', async () => {
    const s = await read('projects/-tmp-drift/sid_stage0_drift.jsonl');
    expect([s.key, s.title, s.project.path, s.createdAt, s.updatedAt]).toEqual([
      'droid:sid_stage0_drift',
      'List files',
      '/tmp/drift',
      '2026-01-07T19:04:00.310Z',
      '2026-01-07T19:04:04.100Z',
    ]);
    expect(shape(s)).toEqual(['system:text', 'user:text', 'assistant:tool_call', 'tool:tool_result', 'assistant:text', 'system:text']);
    expect(s.messages[3]?.parts[0]).toEqual({
      type: 'tool_result',
      callId: 'call_1',
      output: 'ls: /non-existent-directory: No such file or directory',
      isError: true,
    });
    expect(s.model).toEqual({ provider: null, name: 'droid-model', parameters: { reasoningEffort: 'off' } });
    expect(s.usage).toEqual({ input: 10, output: 5, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
    expect(s.outcome).toEqual({ status: 'failed', summary: 'Authentication failed. Set FACTORY_API_KEY.', commitSha: null });
    expect(s.warnings.map((w) => w.code)).toEqual(['unpriced_model']);
  });
});
