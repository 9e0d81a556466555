// The Qwen Code reader over the sample corpus (samples/qwen-code): the facts each chat file implies.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countToolCalls } from '../../../shared/summarize.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { valid } from '../../test-support/reader-checks.ts';
import { readQwenFile } from './qwen-code.ts';

const projects = join(samplesDir, 'qwen-code/.qwen/projects');
const DAY = 24 * 3600_000;

async function read(rel: string) {
  const path = join(projects, rel);
  return valid(await readQwenFile(path, statSync(path).mtimeMs + DAY));
}

const shape = (s: Awaited<ReturnType<typeof read>>) => s.messages.map((m) => `${m.role}:${m.parts.map((p) => p.type).join('+')}`);

describe('shared Qwen Code samples', () => {
  it('reads the chain: the typed prompt without its hook context, thought and call, the paired result, a notification', async () => {
    const s = await read('-tmp-as-qwen-fixture-project/chats/019f0000-0000-7000-8000-000000000001.jsonl');
    expect([s.key, s.title, s.createdAt, s.updatedAt, s.status, s.toolVersion, s.model?.name]).toEqual([
      'qwen-code:019f0000-0000-7000-8000-000000000001',
      'Inspect the synthetic fixture.',
      '2026-08-17T12:00:00.000Z',
      '2026-08-17T12:00:05.000Z',
      'unknown',
      '0.21.13',
      'synthetic-model',
    ]);
    expect(s.project).toEqual({ path: '/tmp/as-qwen-fixture/project', name: 'project', branch: 'fixture-branch', headCommit: null });
    expect(shape(s)).toEqual(['user:text', 'assistant:thinking+tool_call', 'tool:tool_result', 'assistant:text', 'user:text']);
    expect(s.messages[0]?.parts).toEqual([{ type: 'text', text: 'Inspect the synthetic fixture.' }]);
    expect(s.messages[2]?.parts).toEqual([{ type: 'tool_result', callId: 'synthetic-call-1', output: 'Synthetic file contents.', isError: false }]);
    expect(s.messages[4]?.annotations).toEqual({ displayText: 'Synthetic background notification.', kind: 'notification', injected: true });
    expect([countToolCalls(s), s.usage, s.warnings, s.extra]).toEqual([1, null, [], { projectFolder: '-tmp-as-qwen-fixture-project' }]);
  });

  it('leaves out the record of another session, and says so', async () => {
    const s = await read('-tmp-as-qwen-fixture-project/chats/019f0000-0000-7000-8000-000000000002.jsonl');
    expect([s.messages, s.title, s.createdAt, s.project.path]).toEqual([[], 'Qwen Code session 019f0000', null, null]);
    // Read a minute after it was copied: its only record is from August, so it is not running.
    const path = join(projects, '-tmp-as-qwen-fixture-project/chats/019f0000-0000-7000-8000-000000000002.jsonl');
    expect((await readQwenFile(path, statSync(path).mtimeMs + 60_000)).status).toBe('unknown');
    expect(s.warnings.map((w) => [w.code, w.message])).toEqual([
      [
        'foreign_records',
        '1 record of this file names another session (019f0000-0000-7000-8000-000000000099), not 019f0000-0000-7000-8000-000000000002; Qwen Code does not load it with this session, and it is left out.',
      ],
    ]);
  });

  it('reads a compact (dash-less) session id', async () => {
    const s = await read('-tmp-as-qwen-fixture-compact-project/chats/019f0000000070008000000000000003.jsonl');
    expect([s.key, s.title, shape(s), s.project.path, s.warnings]).toEqual([
      'qwen-code:019f0000000070008000000000000003',
      'Inspect a compact-ID synthetic fixture.',
      ['user:text'],
      '/tmp/as-qwen-fixture/compact-project',
      [],
    ]);
  });

  it('reads two records glued on one line apart, a "}{" inside the text notwithstanding', async () => {
    const s = await read('-tmp-as-qwen-fixture-glued-project/chats/019f0000-0000-7000-8000-000000000005.jsonl');
    expect([s.title, shape(s), s.model?.name]).toEqual(['Inspect {"glued": "objects"} safely.', ['user:text', 'assistant:text'], 'synthetic-glued-model']);
    expect(s.messages.map((m) => m.origin?.line)).toEqual([1, 1]);
    expect(s.warnings.map((w) => w.code)).toEqual(['glued_records']);
  });
});
