// The Claude Code reader over the sample corpus (samples/): every transcript, ai-viewer's expected events, and the malformed files.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Session } from '../../../shared/session.ts';
import { countToolCalls } from '../../../shared/summarize.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { parseClaudeCode, readClaudeCodeFile } from './claude-code.ts';
import { isPrompt } from './claude-code-facts.ts';
import { readJsonLines } from '../jsonl.ts';
import { isRecord } from '../coerce.ts';
import { valid } from '../../test-support/reader-checks.ts';

const projects = join(samplesDir, 'claude-code/projects');
const DAY = 24 * 3600_000;

async function read(rel: string): Promise<Session> {
  const path = join(projects, rel);
  const session = await readClaudeCodeFile(path, statSync(path).mtimeMs + DAY);
  return valid(session);
}

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

/** One normalized event of netdata/ai-viewer's expected.jsonl. */
interface ExpectedEvent {
  kind: string;
  payload: Record<string, unknown>;
}

function loadExpected(caseName: string): ExpectedEvent[] {
  const text = readFileSync(join(samplesDir, 'claude-code/_expected', caseName, 'expected.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as ExpectedEvent);
}

/** ai-viewer names a sub-agent "<parent>:agent:<id>"; our key is "claude-code:<parent>/agent-<id>". */
const keyOf = (nativeId: string) => `claude-code:${nativeId.replace(':agent:', '/agent-')}`;

interface ExpectedSession {
  parent: string | null;
  cwd: string;
  extras: Record<string, unknown>;
  models: Set<string>;
  llmOps: number;
  toolOps: number;
  turns: number;
  tokens: [number, number, number, number];
  children: string[];
  compactions: Array<{ trigger: unknown; preTokens: unknown }>;
  updates: Record<string, unknown>;
  agentName: string;
}

function expectedSessions(events: ExpectedEvent[]): Map<string, ExpectedSession> {
  const sessions = new Map<string, ExpectedSession>();
  const llm = new Set<string>();
  for (const { kind, payload: p } of events) {
    const id = String(p.NativeID ?? p.SessionNativeID ?? '');
    if (kind === 'session_started') {
      sessions.set(id, {
        parent: p.ParentNativeID ? String(p.ParentNativeID) : null,
        cwd: String(p.Cwd),
        extras: (p.Extras ?? {}) as Record<string, unknown>,
        models: new Set(),
        llmOps: 0,
        toolOps: 0,
        turns: 0,
        tokens: [0, 0, 0, 0],
        children: [],
        compactions: [],
        updates: {},
        agentName: '',
      });
      continue;
    }
    const s = sessions.get(id);
    if (!s) continue;
    if (kind === 'turn_started') s.turns++;
    if (kind === 'session_updated') {
      Object.assign(s.updates, p.Extras ?? {});
      if (p.AgentName) s.agentName = String(p.AgentName);
    }
    if (kind === 'op_started' && p.Kind === 'llm') {
      s.llmOps++;
      s.models.add(String(p.Model));
      llm.add(`${id}:${p.TurnSeq}:${p.Seq}`);
    }
    if (kind === 'op_started' && (p.Kind === 'tool' || p.Kind === 'session')) s.toolOps++;
    if (kind === 'op_started' && p.ChildSessionNativeID) s.children.push(String(p.ChildSessionNativeID));
    if (kind === 'op_started' && p.Kind === 'compaction') {
      const extras = p.Extras as Record<string, unknown>;
      s.compactions.push({ trigger: extras.trigger, preTokens: extras.preTokens });
    }
    if (kind === 'op_finalized' && llm.has(`${id}:${p.TurnSeq}:${p.Seq}`)) {
      const t = s.tokens;
      s.tokens = [t[0] + Number(p.TokensIn), t[1] + Number(p.TokensOut), t[2] + Number(p.TokensCacheRead), t[3] + Number(p.TokensCacheWrite)];
    }
  }
  return sessions;
}

const CASES: Array<[string, string[]]> = [
  ['a_happy_single', ['-home-user-src-demo/11111111-1111-4111-8111-111111111111.jsonl']],
  [
    'b_subagent_sidechain',
    [
      '-home-user-src-demo/22222222-2222-4222-8222-222222222222.jsonl',
      '-home-user-src-demo/22222222-2222-4222-8222-222222222222/subagents/agent-a1b2c3d4e5f6071.jsonl',
    ],
  ],
  ['c_compaction', ['-home-user-src-demo/33333333-3333-4333-8333-333333333333.jsonl']],
  ['d_cwd_change', ['-home-user-src-demo/44444444-4444-4444-8444-444444444444.jsonl']],
  ['e_snapshots_lastwins', ['-home-user-src-demo/55555555-5555-4555-8555-555555555555.jsonl']],
  ['f_orphan_root', ['-home-user-src-old/66666666-6666-4666-8666-666666666666/subagents/agent-fedcba9876543210.jsonl']],
  ['g_resumed', ['-home-user-src-demo/77777777-7777-4777-8777-777777777777.jsonl']],
];

describe("ai-viewer's expected events for the Claude Code cases", () => {
  it.each(CASES)('%s', async (caseName, files) => {
    const ours = new Map<string, Session>();
    for (const rel of files) {
      const s = await read(rel);
      ours.set(s.key, s);
    }
    for (const [nativeId, want] of expectedSessions(loadExpected(caseName))) {
      const s = ours.get(keyOf(nativeId));
      if (want.extras.orphanRoot === true) {
        // ai-viewer invents a root for a sub-agent folder without its parent file; we list only the child,
        // whose parentKey still names that root so the catalogue can group it.
        expect(s).toBeUndefined();
        expect([...ours.values()].map((o) => o.parentKey)).toContain(keyOf(nativeId));
        continue;
      }
      expect(s, `session ${nativeId}`).toBeDefined();
      if (!s) continue;
      expect(s.parentKey).toBe(want.parent ? keyOf(want.parent) : null);
      if (want.cwd) expect(s.project.path).toBe(want.cwd);
      if (want.extras.gitBranch) expect(s.project.branch).toBe(want.extras.gitBranch);
      expect(s.extra.version).toBe(want.extras.version);
      const assistants = s.messages.filter((m) => m.role === 'assistant' && m.usage);
      expect(new Set(assistants.map((m) => m.model))).toEqual(want.models);
      expect(assistants).toHaveLength(want.llmOps);
      expect(s.usage ? [s.usage.input, s.usage.output, s.usage.cacheRead, s.usage.cacheWrite] : [0, 0, 0, 0]).toEqual(want.tokens);
      expect(countToolCalls(s)).toBe(want.toolOps);
      expect(s.messages.filter(isPrompt)).toHaveLength(want.turns);
      expect(s.operations.map((o) => o.childSessionKey)).toEqual(want.children.map(keyOf));
      const compactions = s.messages.flatMap((m) =>
        m.parts.flatMap((p) => (p.type === 'compaction' ? [{ trigger: p.trigger, preTokens: p.tokensBefore }] : [])),
      );
      expect(compactions).toEqual(want.compactions);
      if (want.updates.permissionMode !== undefined) expect(s.extra.permissionMode).toBe(want.updates.permissionMode);
      if (want.updates.customTitle !== undefined || want.updates.aiTitle !== undefined) expect(s.title).toBe(want.agentName);
      // ai-viewer names a sub-agent by its agentType; we title it by the meta's description (more specific)
      // and keep the type in extra.agentType.
      if (want.parent) expect(s.extra.agentType).toBe(want.agentName);
    }
  });
});

interface Expectation {
  warnings: string[];
  messages: number;
  check?: (s: Session) => void;
}

/** Every malformed file that imitates Claude Code, parsed as a session named after the file: all stay readable. */
const MALFORMED: Record<string, Expectation> = {
  'blank_lines_between_records__claude_code.jsonl': { warnings: [], messages: 2 },
  'crlf_line_endings__claude_code.jsonl': {
    warnings: [],
    messages: 2,
    check: (s) => expect(s.messages[1]?.parts).toEqual([{ type: 'text', text: 'hi there' }]),
  },
  'invalid_utf8_bytes__claude_code.jsonl': {
    warnings: ['invalid_utf8'],
    messages: 3,
    check: (s) => expect(s.messages[1]?.parts[0]).toEqual({ type: 'text', text: expect.stringMatching(/^bad bytes: \uFFFD+ .* end$/) }),
  },
  'lone_surrogate_escape__claude_code.jsonl': {
    warnings: ['lone_surrogate'],
    messages: 2,
    check: (s) => expect(s.messages[1]?.parts[0]).toEqual({ type: 'text', text: 'half an emoji: \uFFFD and a reversed pair \uFFFD\uFFFD' }),
  },
  'torn_last_line__claude_code.jsonl': { warnings: ['torn_line'], messages: 2, check: (s) => expect(s.usage?.output).toBe(3) },
  'unknown_record_types__claude_code.jsonl': {
    warnings: ['unknown_record_type', 'unknown_block_type'],
    messages: 2,
    check: (s) => expect(s.messages[1]?.parts).toEqual([{ type: 'text', text: 'still readable' }]),
  },
  'utf8_bom__claude_code.jsonl': { warnings: ['bom'], messages: 2, check: (s) => expect(s.title).toBe('hello') },
  'wrong_types__claude_code_content_and_usage.jsonl': {
    warnings: [
      'wrong_type',
      'wrong_type',
      'missing_content',
      'bad_timestamp',
      'wrong_type',
      'wrong_type',
      'bad_value',
      'bad_value',
      'missing_content',
      'missing_type',
      'not_a_record',
      'not_a_record',
      'not_a_record',
    ],
    // Neither turn holds content of a usable type, nor the reply a usable model or token count: both are left out,
    // each with a warning, never shown as empty messages.
    messages: 0,
    check: (s) => {
      expect(s.warnings.filter((w) => w.code === 'missing_content').map((w) => w.message)).toEqual([
        'A user message has no content (none of it can be shown); it was left out (the raw record is in the file).',
        'An assistant message has no content (none of it can be shown); it was left out (the raw record is in the file).',
      ]);
      expect(s.usage).toBeNull();
      expect(s.warnings.find((w) => w.code === 'bad_value')?.message).toBe(
        'Field "message.usage.output_tokens" should be a whole number of tokens of at least 0 but is -5; it was skipped.',
      );
    },
  },
};

describe('malformed inputs through the Claude Code parser', () => {
  const dir = join(samplesDir, 'malformed');

  it('has an expectation for every Claude Code-like sample', () => {
    expect(
      readdirSync(dir)
        .filter((n) => n.includes('__claude_code'))
        .sort(),
    ).toEqual(Object.keys(MALFORMED).sort());
  });

  it.each(Object.entries(MALFORMED))('%s', async (name, expected) => {
    const path = join(dir, name);
    const { records, warnings } = await readJsonLines(path);
    const s = parseClaudeCode(records, { path, size: 1, mtimeMs: 0, now: DAY, warnings, layout: null, meta: null, children: [], extraFiles: [] });
    expect(Session.safeParse(s).success).toBe(true);
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    expect(s.warnings.flatMap((w) => Array(w.count).fill(w.code))).toEqual(expected.warnings);
    expect(s.messages).toHaveLength(expected.messages);
    // Loose files: the session their records name, else the file's name.
    const named = records.some((r) => isRecord(r.value) && typeof r.value.sessionId === 'string');
    expect(s.key).toBe(named ? 'claude-code:m0000000-0000-4000-8000-00000000aaaa' : `claude-code:${name.replace(/\.jsonl$/, '')}`);
    expected.check?.(s);
  });
});
