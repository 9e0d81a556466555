// Reads every Codex sample of the shared corpus into the facts each one implies.
import { describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/session.ts';
import { countToolCalls } from '../../../shared/summarize.ts';
import { readSample as read } from './codex-sample-read.ts';

const R = '<ROOT>/project';
type Row = [
  string,
  string,
  string,
  string,
  string | null,
  string | null,
  Session['status'],
  number,
  number,
  [number, number, number, number] | null,
  string | null,
  string[],
];

/** file, title, createdAt, updatedAt, project path, branch, status, messages, tool calls, [input, output, cacheRead, reasoning], parentKey, childKeys. */
const SAMPLES: Row[] = [
  [
    '2025/09/10/rollout-2025-09-10T12-00-00-00000000-0000-0000-0000-0000000d21f7.jsonl',
    "Translate 'hello' to Spanish",
    '2025-09-10T12:00:00.000Z',
    '2025-09-10T12:00:03.000Z',
    null,
    null,
    'unknown',
    4,
    1,
    null,
    null,
    [],
  ],
  [
    '2025/11/20/rollout-2025-11-20T18-59-09-019aa234-0000-7000-8000-00000000000b.jsonl',
    'list the files',
    '2025-11-20T16:59:09.857Z',
    '2025-11-20T16:59:15.000Z',
    '<ROOT>/legacy-project',
    'main',
    'unknown',
    5,
    1,
    null,
    null,
    [],
  ],
  [
    '2025/12/18/rollout-2025-12-18T10-00-00-019b2ea4-aaaa-bbbb-cccc-58208e1f0000.jsonl',
    'Start',
    '2025-12-18T10:00:00.000Z',
    '2025-12-18T10:00:16.000Z',
    '/tmp/large',
    null,
    'unknown',
    16,
    1,
    [1211, 54, 10880, 128],
    null,
    [],
  ],
  [
    '2026/03/03/rollout-2026-03-03T12-30-03-019cb33f-0000-7000-8000-00000000000e.jsonl',
    'work on a long task',
    '2026-03-03T12:30:03.100Z',
    '2026-03-03T12:30:11.000Z',
    R,
    'main',
    'closed',
    4,
    0,
    null,
    null,
    [],
  ],
  [
    '2026/03/11/rollout-2026-03-11T15-51-06-019cdd2a-0000-7000-8000-00000000001a.jsonl',
    'start a slow operation',
    '2026-03-11T15:51:06.100Z',
    '2026-03-11T15:51:30.000Z',
    R,
    'main',
    'closed',
    2,
    1,
    null,
    null,
    [],
  ],
  [
    '2026/03/31/rollout-2026-03-31T21-32-12-019d452a-0000-7000-8000-00000000000f.jsonl',
    'run the long command',
    '2026-03-31T21:32:12.100Z',
    '2026-03-31T21:32:19.500Z',
    R,
    'main',
    'closed',
    4,
    1,
    null,
    null,
    [],
  ],
  [
    '2026/04/01/rollout-2026-04-01T09-00-00-019d4abc-0000-7000-8000-00000000001b.jsonl',
    'do something heavy',
    '2026-04-01T09:00:00.100Z',
    '2026-04-01T09:00:02.000Z',
    R,
    'main',
    'closed',
    2,
    1,
    null,
    null,
    [],
  ],
  [
    '2026/04/02/rollout-2026-04-02T10-15-30-019d8a30-0000-7000-8000-000000000031.jsonl',
    'run the failing build',
    '2026-04-02T10:15:30.100Z',
    '2026-04-02T10:15:34.500Z',
    R,
    'main',
    'closed',
    4,
    1,
    null,
    null,
    [],
  ],
  [
    '2026/04/03/rollout-2026-04-03T11-20-00-019d8f40-0000-7000-8000-000000000051.jsonl',
    'research two topics online',
    '2026-04-03T11:20:00.100Z',
    '2026-04-03T11:20:04.500Z',
    R,
    'main',
    'closed',
    4,
    2,
    null,
    null,
    [],
  ],
  [
    '2026/04/04/rollout-2026-04-04T12-30-00-019d9450-0000-7000-8000-000000000071.jsonl',
    'apply the patch',
    '2026-04-04T12:30:00.100Z',
    '2026-04-04T12:30:04.500Z',
    R,
    'main',
    'closed',
    4,
    1,
    null,
    null,
    [],
  ],
  [
    '2026/04/05/rollout-2026-04-05T13-40-00-019d9960-0000-7000-8000-0000000000ff.jsonl',
    'say hello',
    '2026-04-05T13:40:00.100Z',
    '2026-04-05T13:40:02.500Z',
    R,
    'main',
    'closed',
    2,
    0,
    null,
    null,
    [],
  ],
  [
    '2026/05/06/rollout-2026-05-06T22-46-58-019dfed4-0000-7000-8000-00000000000a.jsonl',
    'please summarize the build script',
    '2026-05-06T19:47:01.532Z',
    '2026-05-06T19:47:10.200Z',
    R,
    'main',
    'closed',
    5,
    1,
    [900, 40, 300, 40],
    null,
    [],
  ],
  [
    '2026/05/08/rollout-2026-05-08T00-40-27-019e0462-0000-7000-8000-00000000000d.jsonl',
    'continue from the previous session',
    '2026-05-08T00:40:27.500Z',
    '2026-05-08T00:40:31.500Z',
    R,
    'main',
    'closed',
    2,
    0,
    null,
    null,
    [],
  ],
  [
    '2026/05/17/rollout-2026-05-17T15-37-16-019e35f0-0000-7000-8000-00000000000c.jsonl',
    'explore the repository structure',
    '2026-05-17T12:37:16.100Z',
    '2026-05-17T12:37:21.000Z',
    R,
    'main',
    'closed',
    2,
    0,
    [900, 40, 0, 20],
    'codex:019e2e0a-0000-7000-8000-0000000000fe',
    [],
  ],
  [
    '2026/05/20/rollout-2026-05-20T10-15-00-019e8a10-0000-7000-8000-000000000010.jsonl',
    'spawn an explorer to map the repo',
    '2026-05-20T10:15:00.100Z',
    '2026-05-20T10:15:06.000Z',
    R,
    'main',
    'closed',
    2,
    0,
    [1200, 50, 0, 30],
    null,
    ['codex:019e8a11-0000-7000-8000-0000000000aa'],
  ],
  [
    '2026/05/21/rollout-2026-05-21T14-20-00-019e9b20-0000-7000-8000-000000000011.jsonl',
    'start a slow analysis',
    '2026-05-21T14:20:00.100Z',
    '2026-05-21T14:20:07.500Z',
    R,
    'main',
    'closed',
    4,
    1,
    null,
    null,
    [],
  ],
  [
    '2026/05/22/rollout-2026-05-22T09-05-00-019eac30-0000-7000-8000-000000000012.jsonl',
    'look up the latest release notes online',
    '2026-05-22T09:05:00.100Z',
    '2026-05-22T09:05:06.000Z',
    R,
    'main',
    'closed',
    3,
    1,
    [1500, 50, 0, 40],
    null,
    [],
  ],
  // The composite fixture's later lines have "[trimmed for fixture]" everywhere, including timestamps and the thread name.
  [
    '2026/08/03/rollout-2026-08-03T10-48-56-019fc8be-3658-7ca3-9e29-000000000000.jsonl',
    '[trimmed for fixture]',
    '2026-08-03T10:48:56.000Z',
    '2026-08-03T10:48:56.000Z',
    '/tmp/repo',
    'main',
    'closed',
    31,
    8,
    [12757, 18, 3584, 63],
    null,
    ['codex:[trimmed for fixture]'],
  ],
];

describe('shared Codex samples', () => {
  it.each(SAMPLES)('%s', async (rel, title, createdAt, updatedAt, path, branch, status, messages, tools, usage, parentKey, childKeys) => {
    const s = await read(rel);
    expect([s.title, s.createdAt, s.updatedAt, s.project.path, s.project.branch, s.status]).toEqual([title, createdAt, updatedAt, path, branch, status]);
    expect([s.messages.length, countToolCalls(s)]).toEqual([messages, tools]);
    const u = s.usage;
    expect(u ? [u.input, u.output, u.cacheRead, u.reasoning] : null).toEqual(usage);
    expect([s.parentKey, s.childKeys]).toEqual([parentKey, childKeys]);
  });

  it('reads the schema-drift rollout (no envelope, flat records) by its file-name id', async () => {
    const s = await read(SAMPLES[0]?.[0] ?? '');
    expect(s.id).toBe('00000000-0000-0000-0000-0000000d21f7');
    expect(s.model?.name).toBe('gpt-4o-mini');
    expect(s.messages.map((m) => m.parts[0])).toEqual([
      { type: 'text', text: "Translate 'hello' to Spanish" },
      { type: 'tool_call', callId: null, name: 'translate', input: { text: 'hello', to: 'es' } },
      { type: 'tool_result', callId: null, output: 'hola', isError: null },
      { type: 'text', text: '"hola"' },
    ]);
    expect(s.operations.map((o) => [o.name, o.status])).toEqual([['translate', 'completed']]);
  });

  it('keeps the composite 0.146 rollout whole: later session_meta lines, aborted turn, echo-only messages', async () => {
    const s = await read(SAMPLES.at(-1)?.[0] ?? '');
    expect(s.id).toBe('019fc8be-3658-7ca3-9e29-000000000000');
    expect((s.extra.otherSessionMeta as unknown[]).length).toBe(6);
    expect(s.extra.abortedTurns).toEqual([{ turnId: '019fc8be-0000-7000-8000-000000000001', reason: 'interrupted', timestamp: '2026-08-03T10:48:56.000Z' }]);
    expect(s.model).toEqual({
      provider: 'openai',
      name: 'gpt-5.6-sol',
      parameters: { reasoningEffort: '[trimmed for fixture]', reasoningSummary: '[trimmed for fixture]' },
    });
    expect(s.messages.filter((m) => (m.annotations as { fromEvent?: boolean } | undefined)?.fromEvent).map((m) => m.origin?.line)).toEqual([71, 85, 102, 110]);
    expect(s.warnings.map((w) => [w.code, w.count])).toEqual([
      ['bad_timestamp', 92],
      ['bad_timestamp', 6],
      ['ended_without_completion', 1],
    ]);
    expect(s.cost?.estimated).toBe(true);
  });
});
