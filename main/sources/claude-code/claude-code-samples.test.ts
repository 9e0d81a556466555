// The Claude Code reader over every transcript of the sample corpus (samples/claude-code/projects): the facts each one implies.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { countToolCalls } from '../../../shared/summarize.ts';
import { readSample as read, sampleProjects as projects } from './claude-code-sample-read.ts';

interface Facts {
  title: string;
  span: [string, string];
  path: string | null;
  branch: string | null;
  messages: number;
  toolCalls: number;
  /** input, output, cacheRead, cacheWrite */
  tokens: [number, number, number, number] | null;
  parent: string | null;
  children: string[];
}

const SAMPLES: Array<[string, Facts]> = [
  [
    '-home-user-src-demo/11111111-1111-4111-8111-111111111111.jsonl',
    {
      title: '[REDACTED_TITLE]',
      span: ['2026-05-26T10:00:00.000Z', '2026-05-26T10:00:05.500Z'],
      path: '<HOME>/src/demo',
      branch: 'master',
      messages: 4,
      toolCalls: 1,
      tokens: [320, 125, 4100, 10],
      parent: null,
      children: [],
    },
  ],
  [
    '-home-user-src-demo/22222222-2222-4222-8222-222222222222.jsonl',
    {
      title: '[REDACTED_USER_MESSAGE]',
      span: ['2026-05-26T11:00:00.000Z', '2026-05-26T11:00:44.000Z'],
      path: '<HOME>/src/demo',
      branch: 'main',
      messages: 2,
      toolCalls: 1,
      tokens: [300, 60, 5000, 0],
      parent: null,
      children: ['22222222-2222-4222-8222-222222222222/agent-a1b2c3d4e5f6071'],
    },
  ],
  [
    '-home-user-src-demo/22222222-2222-4222-8222-222222222222/subagents/agent-a1b2c3d4e5f6071.jsonl',
    {
      title: '[REDACTED_DESCRIPTION]',
      span: ['2026-05-26T11:00:05.000Z', '2026-05-26T11:00:40.000Z'],
      path: '<HOME>/src/demo',
      branch: null,
      messages: 2,
      toolCalls: 0,
      tokens: [150, 30, 1000, 0],
      parent: '22222222-2222-4222-8222-222222222222',
      children: [],
    },
  ],
  [
    '-home-user-src-demo/33333333-3333-4333-8333-333333333333.jsonl',
    {
      title: '[REDACTED_USER_MESSAGE]',
      span: ['2026-05-26T12:00:00.000Z', '2026-05-26T12:03:02.000Z'],
      path: '<HOME>/src/demo',
      branch: 'main',
      messages: 5,
      toolCalls: 0,
      tokens: [8900, 150, 700000, 0],
      parent: null,
      children: [],
    },
  ],
  [
    '-home-user-src-demo/44444444-4444-4444-8444-444444444444.jsonl',
    {
      title: '[REDACTED_USER_MESSAGE]',
      span: ['2026-05-26T13:00:00.000Z', '2026-05-26T13:00:05.500Z'],
      path: '<HOME>/src/demo',
      branch: 'main',
      messages: 4,
      toolCalls: 1,
      tokens: [230, 60, 0, 0],
      parent: null,
      children: [],
    },
  ],
  [
    '-home-user-src-demo/55555555-5555-4555-8555-555555555555.jsonl',
    {
      title: '[REDACTED_TITLE]',
      span: ['2026-05-26T14:00:00.000Z', '2026-05-26T14:00:03.500Z'],
      path: '<HOME>/src/demo',
      branch: 'main',
      messages: 2,
      toolCalls: 0,
      tokens: [110, 25, 0, 0],
      parent: null,
      children: [],
    },
  ],
  [
    '-home-user-src-demo/77777777-7777-4777-8777-777777777777.jsonl',
    {
      title: '[REDACTED_USER_MESSAGE]',
      span: ['2026-05-26T15:00:00.000Z', '2026-05-26T16:30:02.500Z'],
      path: '<HOME>/src/demo',
      branch: 'main',
      messages: 4,
      toolCalls: 0,
      tokens: [240, 55, 0, 0],
      parent: null,
      children: [],
    },
  ],
  [
    '-home-user-src-old/66666666-6666-4666-8666-666666666666/subagents/agent-fedcba9876543210.jsonl',
    {
      title: '[REDACTED_DESCRIPTION]',
      span: ['2026-02-10T09:00:00.000Z', '2026-02-10T09:00:30.500Z'],
      path: '<HOME>/src/old',
      branch: null,
      messages: 2,
      toolCalls: 0,
      tokens: [90, 20, 0, 0],
      parent: '66666666-6666-4666-8666-666666666666',
      children: [],
    },
  ],
  [
    '-tmp-large/ses_stage0_large.jsonl',
    {
      title: 'Start',
      span: ['2025-12-16T02:00:00.000Z', '2025-12-16T02:00:09.000Z'],
      path: '/tmp/large',
      branch: 'main',
      messages: 10,
      toolCalls: 1,
      tokens: null,
      parent: null,
      children: [],
    },
  ],
  [
    '-tmp-project/ses_stage0_drift.jsonl',
    {
      title: 'Open README',
      span: ['2025-12-16T01:00:00.000Z', '2026-04-16T20:10:42.522Z'],
      path: '/tmp/project',
      branch: 'main',
      messages: 5,
      toolCalls: 1,
      tokens: null,
      parent: null,
      children: [],
    },
  ],
  [
    '-tmp/0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f.jsonl',
    {
      title: 'Delegate a repo search to a subagent',
      span: ['2025-12-16T00:00:00.000Z', '2025-12-16T00:00:02.000Z'],
      path: '/tmp',
      branch: 'main',
      messages: 2,
      toolCalls: 1,
      tokens: null,
      parent: null,
      children: ['0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f/agent-a0ad4f44468bdf20d'],
    },
  ],
  [
    '-tmp/0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f/subagents/agent-a0ad4f44468bdf20d.jsonl',
    {
      // Its meta holds only {agentType, spawnDepth}: the prompt names it better than the bare type.
      title: 'Search the repo for TODO comments',
      span: ['2025-12-16T00:00:02.200Z', '2025-12-16T00:00:02.500Z'],
      path: '/tmp',
      branch: 'main',
      messages: 3,
      toolCalls: 1,
      tokens: null,
      parent: '0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f',
      children: [],
    },
  ],
  // A composite fixture: "[trimmed for fixture]" stands in for many values, including gitBranch and timestamps.
  [
    '-tmp/ses_stage0_small.jsonl',
    {
      title: 'Stage0 small fixture',
      span: ['2025-12-16T00:00:00.000Z', '2026-04-16T20:10:42.522Z'],
      path: '/tmp',
      branch: '[trimmed for fixture]',
      // 26 conversation messages and three hooks' notes (additional context, a non-blocking and a blocking error).
      messages: 29,
      toolCalls: 3,
      tokens: [10, 5, 0, 0],
      parent: null,
      children: [],
    },
  ],
];

describe('shared Claude Code samples', () => {
  it('covers every transcript in the sample tree', () => {
    const all = readdirSync(projects, { recursive: true, encoding: 'utf8' }).filter((p) => p.endsWith('.jsonl'));
    expect(all.sort()).toEqual(SAMPLES.map(([rel]) => rel).sort());
  });

  it.each(SAMPLES)('%s', async (rel, facts) => {
    const s = await read(rel);
    const usage = s.usage ? [s.usage.input, s.usage.output, s.usage.cacheRead, s.usage.cacheWrite] : null;
    expect({
      title: s.title,
      span: [s.createdAt, s.updatedAt],
      path: s.project.path,
      branch: s.project.branch,
      messages: s.messages.length,
      toolCalls: countToolCalls(s),
      tokens: usage,
      parent: s.parentKey?.replace(/^claude-code:/, '') ?? null,
      children: s.childKeys.map((k) => k.replace(/^claude-code:/, '')),
    }).toEqual(facts);
    expect(s.status).toBe('closed');
  });

  it('reads the 1.9 top-level tool_use / tool_result records of the drift sample as a call and its result', async () => {
    const s = await read('-tmp-project/ses_stage0_drift.jsonl');
    expect(s.messages.slice(1, 3).map((m) => [m.role, m.parts])).toEqual([
      ['assistant', [{ type: 'tool_call', callId: null, name: 'bash', input: { command: 'cat README.md' } }]],
      ['tool', [{ type: 'tool_result', callId: null, output: '# Title\n\nBody\n', isError: null }]],
    ]);
    expect(s.extra).toMatchObject({ permissionMode: 'bypassPermissions', mode: 'normal', version: '2.1.112' });
  });

  it('keeps the composite sample readable, reporting its placeholder timestamps once with a count', async () => {
    const s = await read('-tmp/ses_stage0_small.jsonl');
    // claude-opus-5 is in the price database now, so no model is left unpriced.
    expect(s.warnings.map((w) => [w.code, w.count])).toEqual([['bad_timestamp', 45]]);
    expect(s.cost).toEqual({ usd: (10 * 5 + 5 * 25) / 1e6, estimated: true });
    expect(s.extra).toMatchObject({ customTitle: 'Stage0 small fixture', aiTitle: 'Stage0 AI title', agentName: 'Claude Code' });
    const compactions = s.messages.flatMap((m) => m.parts.filter((p) => p.type === 'compaction'));
    expect(compactions[0]).toEqual({ type: 'compaction', summary: 'Summary of prior context.', trigger: 'auto', tokensBefore: 120000 });
    expect(s.messages.filter((m) => (m.annotations as Record<string, unknown> | undefined)?.queued === true)).toHaveLength(4);
  });
});
