// The Vibe reader over the sample corpus (samples/vibe): a session with its meta.json, and an abandoned empty one.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { samplesDir } from '../../test-support/samples.ts';
import { failure, valid } from '../../test-support/reader-checks.ts';
import { readVibeFile, vibeReader } from './vibe.ts';

const logs = join(samplesDir, 'vibe/.vibe/logs/session');
const DAY = 24 * 3600_000;

describe('Vibe samples', () => {
  it('session_basic: five messages, session tokens from meta.json, git, model and working directory', async () => {
    const path = join(logs, 'session_20260613_100000_abc123de/messages.jsonl');
    expect(vibeReader.claims(path)).toBe(true);
    const s = valid(await readVibeFile(path, statSync(path).mtimeMs + DAY));
    expect(s.key).toBe('vibe:abc123def-0000-0000-0000-000000000000');
    expect(s.title).toBe('Create a Python function to sort a list');
    expect(s.messages.map((m) => [m.id, m.role])).toEqual([
      ['msg_001', 'user'],
      ['msg_002', 'assistant'],
      ['msg_003', 'assistant'],
      ['msg_004', 'user'],
      ['msg_005', 'assistant'],
    ]);
    expect(s.messages[2]!.parts).toEqual([{ type: 'text', text: '```python\ndef sort_list(lst):\n    return sorted(lst)\n```' }]);
    expect(s.messages[2]!.origin).toEqual({ fileIndex: 0, line: 3, pointer: null });
    expect(s.project).toEqual({ path: '/home/user/projects/myapp', name: 'myapp', branch: 'main', headCommit: 'abc123def456' });
    expect([s.createdAt, s.updatedAt]).toEqual(['2026-06-13T10:00:00.000Z', '2026-06-13T10:05:00.000Z']);
    expect(s.model?.name).toBe('mistral-medium-3.5');
    // Vibe counts tokens per session only: 100 prompt and 50 completion tokens, nothing cached.
    expect(s.usage).toEqual({ input: 100, output: 50, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
    expect(s.messages.every((m) => m.usage === null)).toBe(true);
    expect(s.cost?.estimated).toBe(true);
    expect([s.parentKey, s.childKeys]).toEqual([null, []]);
    expect(s.sourceFiles.map((f) => f.role)).toEqual(['primary', 'meta']);
    expect(s.status).toBe('closed');
    expect(s.warnings).toEqual([]);
  });

  it('session_empty: a zero-byte messages.jsonl without meta.json is listed as an empty file, like any empty file', async () => {
    const path = join(logs, 'session_20260613_120000_00000000/messages.jsonl');
    expect(vibeReader.claims(path)).toBe(true);
    const err = await failure(() => readVibeFile(path));
    expect([err.code, err.message]).toEqual(['empty_file', 'File is empty (0 bytes).']);
  });
});
