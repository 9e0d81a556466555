// Tests for the Claude Code reader: path claims, the project's fixtures, and sub-agent folders.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/session.ts';
import { countToolCalls } from '../../../shared/summarize.ts';
import { claimsClaudeCode, claudeCodeReader, readClaudeCodeFile } from './claude-code.ts';
import { valid } from '../../test-support/reader-checks.ts';
import { assistant, DAY, user } from './claude-code-test-records.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const project = join(here, './fixtures/projects/-home-dev-proj-ledger');
const MAIN = '9f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f';
const OLD = '2b3c4d5e-6f70-4819-8a2b-3c4d5e6f7081';

/** Reads through the reader a day after the file changed, so status never depends on when the test runs. */
async function read(path: string): Promise<Session> {
  const session = await readClaudeCodeFile(path, statSync(path).mtimeMs + DAY);
  return valid(session);
}

describe('claimsClaudeCode', () => {
  it.each([
    '/home/u/.claude/projects/-home-u-src-app/0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f.jsonl',
    '/cfg/claude/projects/C--Users-u-app/ses_stage0_small.jsonl',
    '/home/u/.claude/projects/-home-u-src-app/0a1b/subagents/agent-a0ad4f44468bdf20d.jsonl',
    '/home/u/.claude/projects/-home-u-src-app/agent-5e6f7a8b.jsonl',
  ])('claims %s', (p) => expect(claimsClaudeCode(p)).toBe(true));

  it.each([
    '/home/u/.claude/projects/-home-u-src-app/0a1b.jsonl.tmp',
    '/home/u/.claude/projects/-home-u-src-app/0a1b/subagents/agent-a0ad.meta.json',
    '/home/u/.claude/projects/-home-u-src-app/0a1b/tool-results/x.jsonl',
    '/home/u/.claude/projects/0a1b.jsonl',
    '/home/u/.claude/_expected/a_happy_single/expected.jsonl',
    '/home/u/repo/vault/.projecthub/transcripts/2d7a9c4e.jsonl',
    '/home/u/projects/my app/notes.jsonl',
    '/home/u/.claude/projects/-home-u-src-app/0a1b/subagents/notes.jsonl',
    // Factory's Droid writes the same shape under ~/.factory/projects/.
    '/home/u/.factory/projects/-tmp/sid_stage0_small.jsonl',
  ])('does not claim %s', (p) => expect(claimsClaudeCode(p)).toBe(false));
});

describe('Claude Code fixtures', () => {
  it('reads a full session: titles, merged split response, tool results, todos, compaction and its sub-agent', async () => {
    const path = join(project, `${MAIN}.jsonl`);
    const s = await read(path);
    expect([s.key, s.id, s.title, s.status, s.outcome]).toEqual([`claude-code:${MAIN}`, MAIN, 'March ledger reconciliation', 'closed', null]);
    expect([s.createdAt, s.updatedAt, s.closedAt]).toEqual(['2026-03-12T09:15:00.000Z', '2026-03-12T09:21:30.400Z', null]);
    expect(s.project).toEqual({ path: '/home/dev/proj/ledger', name: 'ledger', branch: 'feature/reconcile', headCommit: null });
    expect(s.model).toEqual({ provider: 'anthropic', name: 'claude-sonnet-4-5-20250929', parameters: {} });
    expect(s.toolVersion).toBe('2.1.150');
    expect(s.messages.map((m) => m.role).join(' ')).toBe(
      'user user user user assistant tool assistant tool assistant tool assistant tool system user assistant',
    );
    expect(countToolCalls(s)).toBe(4);

    // Three lines of msg_01LedgerA1 are one message; its usage (repeated on each line, growing) counts once.
    const first = s.messages[4]!;
    expect(first.parts.map((p) => p.type)).toEqual(['thinking', 'text', 'tool_call']);
    expect(first.origin).toEqual({ fileIndex: 0, line: 6, pointer: null });
    expect(first.usage).toEqual({ input: 12, output: 120, cacheRead: 0, cacheWrite: 3000, reasoning: 0 });
    expect(s.usage).toEqual({ input: 8287, output: 345, cacheRead: 10200, cacheWrite: 3800, reasoning: 0 });
    expect(s.cost?.usd).toBeCloseTo(0.047346, 9);
    expect(s.cost?.estimated).toBe(true);

    // Command caveats and slash commands are marked, and the title skipped them.
    expect(s.messages.slice(0, 3).map((m) => m.annotations)).toEqual([{ isMeta: true }, { command: true }, { command: true }]);
    expect(s.messages[5]?.parts[0]).toEqual({
      type: 'tool_result',
      callId: 'toolu_01Read',
      output: '     1\tdate,Amount\n     2\t2026-03-01,120.00\n     3\t2026-03-02,-45.10',
      isError: null,
    });
    expect(s.messages[5]?.annotations).toMatchObject({ toolUseResult: { type: 'text', file: { numLines: 3 } } });
    expect(s.messages[11]?.parts[0]).toMatchObject({ type: 'tool_result', callId: 'toolu_01Bash', isError: true });

    const compaction = s.messages[12]!;
    expect(compaction.parts).toEqual([
      {
        type: 'compaction',
        summary: expect.stringMatching(/^This session is being continued .* \(#4411, #4419\) were found\.$/),
        trigger: 'auto',
        tokensBefore: 154210,
      },
    ]);
    expect(compaction.annotations).toEqual({ compactMetadata: { trigger: 'auto', preTokens: 154210 }, summaryLine: 17 });
    expect(s.messages[13]?.parts).toEqual([{ type: 'text', text: 'Fix the KeyError and rerun.' }]);

    expect(s.todos.map((t) => [t.content, t.status])).toEqual([
      ['Compare daily totals', 'completed'],
      ['Find duplicate entries', 'in_progress'],
      ['Rerun reconcile.py', 'pending'],
    ]);
    const child = `claude-code:${MAIN}/agent-b7c8d9e0f1a2b3c4`;
    expect(s.operations).toEqual([
      {
        id: 'toolu_01Task',
        type: 'subagent',
        name: 'Scan ledger for duplicates',
        timestamp: '2026-03-12T09:15:13.000Z',
        endedAt: '2026-03-12T09:15:41.000Z',
        status: 'completed',
        latencyMs: null,
        detail: { tool: 'Task', subagentType: 'Explore', description: 'Scan ledger for duplicates' },
        vcs: null,
        usage: null,
        cost: null,
        parentId: null,
        childSessionKey: child,
        origin: { fileIndex: 0, line: 12, pointer: null },
      },
    ]);
    expect(s.childKeys).toEqual([child, `claude-code:${MAIN}/agent-d4e5f6a7`]);
    expect(s.parentKey).toBeNull();
    expect(s.extra).toEqual({
      customTitle: 'March ledger reconciliation',
      aiTitle: 'Reconcile ledger with bank export',
      lastPrompt: 'Fix the KeyError and rerun.',
      permissionMode: 'acceptEdits',
      ignoredRecords: { 'file-history-snapshot': 1, 'system:turn_duration': 1 },
      version: '2.1.150',
    });
    expect(s.sourceFiles).toEqual([{ path, size: statSync(path).size, mtimeMs: statSync(path).mtimeMs, role: 'primary' }]);
    expect(s.warnings).toEqual([]);
  });

  it('reads a sub-agent file as its own session linked to the parent, titled by its meta', async () => {
    const path = join(project, MAIN, 'subagents/agent-b7c8d9e0f1a2b3c4.jsonl');
    const s = await read(path);
    expect([s.key, s.id, s.parentKey, s.title]).toEqual([
      `claude-code:${MAIN}/agent-b7c8d9e0f1a2b3c4`,
      `${MAIN}/agent-b7c8d9e0f1a2b3c4`,
      `claude-code:${MAIN}`,
      'Scan ledger for duplicates',
    ]);
    expect(s.messages.map((m) => [m.role, m.agentId])).toEqual([
      ['user', null],
      ['assistant', null],
      ['tool', null],
      ['assistant', null],
    ]);
    expect(s.model?.name).toBe('claude-haiku-4-5-20251001');
    expect(s.usage).toEqual({ input: 2000, output: 85, cacheRead: 1200, cacheWrite: 1200, reasoning: 0 });
    expect(s.extra).toEqual({ version: '2.1.150', agentType: 'Explore', description: 'Scan ledger for duplicates', toolUseId: 'toolu_01Task' });
    expect(s.sourceFiles.map((f) => f.role)).toEqual(['primary', 'meta']);
    expect(s.sourceFiles[1]?.path).toBe(join(project, MAIN, 'subagents/agent-b7c8d9e0f1a2b3c4.meta.json'));
    expect(s.warnings).toEqual([]);
  });

  it('titles a sub-agent without a meta file by its prompt', async () => {
    const s = await read(join(project, MAIN, 'subagents/agent-d4e5f6a7.jsonl'));
    expect([s.title, s.parentKey, s.sourceFiles.length]).toEqual(['Summarise what changed in scripts/reconcile.py', `claude-code:${MAIN}`, 1]);
  });

  it('keeps the inline sidechain of an older CLI in the parent, marked with an agent id, and titles by the summary record', async () => {
    const s = await read(join(project, `${OLD}.jsonl`));
    expect(s.title).toBe('Ledger import CLI scaffolding');
    expect(s.messages.map((m) => `${m.role}:${m.agentId ?? '-'}`)).toEqual([
      'user:-',
      'assistant:-',
      'user:sidechain',
      'assistant:sidechain',
      'tool:-',
      'assistant:-',
    ]);
    expect(s.operations.map((o) => [o.name, o.childSessionKey, o.status])).toEqual([['Find existing importers', null, 'completed']]);
    expect([s.toolVersion, s.childKeys, s.project.branch]).toEqual(['1.0.62', [], 'main']);
    expect(s.extra.summaries).toEqual(['Ledger import CLI scaffolding']);
  });

  it('links a 2.0-era agent-<id>.jsonl beside the parent to the session its records name', async () => {
    const s = await read(join(project, 'agent-5e6f7a8b.jsonl'));
    expect([s.key, s.parentKey, s.messages.map((m) => m.agentId)]).toEqual([`claude-code:${OLD}/agent-5e6f7a8b`, `claude-code:${OLD}`, [null, null]]);
  });

  it('is the reader registered as claude-code', async () => {
    expect(claudeCodeReader.format).toBe('claude-code');
    expect((await claudeCodeReader.read(join(project, `${OLD}.jsonl`))).key).toBe(`claude-code:${OLD}`);
  });
});

describe('sub-agent folders', () => {
  const root = mkdtempSync(join(tmpdir(), 'claude-code-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const dir = join(root, 'projects/-w');
  const agents = join(dir, 's1/subagents');
  const jsonl = (...values: unknown[]) => values.map((v) => JSON.stringify(v)).join('\n') + '\n';
  const task = (id: string) => ({ type: 'tool_use', id, name: 'Agent', input: { description: `job ${id}`, subagent_type: 'general-purpose' } });
  mkdirSync(agents, { recursive: true });
  writeFileSync(join(dir, 's1.jsonl'), jsonl(user('u1', 'Split the work'), assistant('a1', 'm1', [task('toolu_1')])));
  writeFileSync(
    join(agents, 'agent-aa.jsonl'),
    jsonl(user('u2', 'Do part one', { isSidechain: true }), assistant('a2', 'm2', [task('toolu_2')], { isSidechain: true })),
  );
  writeFileSync(join(agents, 'agent-aa.meta.json'), JSON.stringify({ agentType: 'general-purpose', description: 'Part one', toolUseId: 'toolu_1' }));
  writeFileSync(join(agents, 'agent-bb.jsonl'), jsonl(user('u3', 'Do part one, step A', { isSidechain: true })));
  writeFileSync(join(agents, 'agent-bb.meta.json'), JSON.stringify({ agentType: 'general-purpose', toolUseId: 'toolu_2', spawnDepth: 2 }));
  writeFileSync(join(agents, 'agent-cc.jsonl'), jsonl(user('u4', 'Check the logs', { isSidechain: true })));
  writeFileSync(join(agents, 'agent-cc.meta.json'), '[1]');
  const key = (agent: string) => `claude-code:s1/agent-${agent}`;

  it('links each spawning call to the agent its meta names, and lists every agent file as a child of the session', async () => {
    const parent = await read(join(dir, 's1.jsonl'));
    expect(parent.childKeys).toEqual([key('aa'), key('bb'), key('cc')]);
    expect(parent.operations.map((o) => [o.id, o.name, o.childSessionKey])).toEqual([['toolu_1', 'job toolu_1', key('aa')]]);
  });

  it("links an agent's own spawns to its siblings; every agent's parent is the session it ran in", async () => {
    const aa = await read(join(agents, 'agent-aa.jsonl'));
    expect([aa.parentKey, aa.childKeys, aa.operations[0]?.childSessionKey, aa.title]).toEqual(['claude-code:s1', [key('bb')], key('bb'), 'Part one']);
    const bb = await read(join(agents, 'agent-bb.jsonl'));
    // Its meta has a type but no description: the prompt titles it, the type stays in extra.
    expect([bb.parentKey, bb.extra.spawnDepth, bb.extra.agentType, bb.title]).toEqual(['claude-code:s1', 2, 'general-purpose', 'Do part one, step A']);
  });

  it('reads an agent whose meta file is not an object, saying so', async () => {
    const cc = await read(join(agents, 'agent-cc.jsonl'));
    expect([cc.title, cc.sourceFiles.length]).toEqual(['Check the logs', 1]);
    expect(cc.warnings).toEqual([
      { code: 'bad_meta', message: "The sub-agent's agent-cc.meta.json does not hold a JSON object; its type and description are unknown.", count: 1 },
    ]);
  });
});
