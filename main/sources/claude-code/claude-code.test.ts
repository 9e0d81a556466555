// Tests for the Claude Code reader: path claims, the project's fixtures, and records built by hand.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/session.ts';
import { countToolCalls } from '../../../shared/summarize.ts';
import { claimsClaudeCode, claudeCodeReader, parseClaudeCode, readClaudeCodeFile, type ClaudeCodeContext } from './claude-code.ts';
import type { JsonLine } from '../jsonl.ts';
import { UnreadableError } from '../types.ts';
import { valid } from '../../test-support/reader-checks.ts';
import { extractIndexText } from '../../search-index/index-text.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const project = join(here, './fixtures/projects/-home-dev-proj-ledger');
const MAIN = '9f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f';
const OLD = '2b3c4d5e-6f70-4819-8a2b-3c4d5e6f7081';
const DAY = 24 * 3600_000;

/** Reads through the reader a day after the file changed, so status never depends on when the test runs. */
async function read(path: string): Promise<Session> {
  const session = await readClaudeCodeFile(path, statSync(path).mtimeMs + DAY);
  return valid(session);
}

function ctx(over: Partial<ClaudeCodeContext> = {}): ClaudeCodeContext {
  return {
    path: '/home/u/.claude/projects/-home-u-x/s1.jsonl',
    size: 1,
    mtimeMs: 1_000_000,
    warnings: [],
    now: 1_000_000 + DAY,
    layout: null,
    meta: null,
    children: [],
    extraFiles: [],
    ...over,
  };
}

const lines = (...values: unknown[]): JsonLine[] => values.map((value, i) => ({ value, line: i + 1 }));
const user = (uuid: string, content: unknown, more: object = {}) => ({
  type: 'user',
  uuid,
  timestamp: '2026-01-01T10:00:00Z',
  cwd: '/w',
  message: { role: 'user', content },
  ...more,
});
const assistant = (uuid: string, id: string | undefined, content: unknown[], more: object = {}, usage?: object) => ({
  type: 'assistant',
  uuid,
  timestamp: '2026-01-01T10:00:05Z',
  message: { id, role: 'assistant', model: 'claude-sonnet-4-5', content, usage },
  ...more,
});

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

describe('parseClaudeCode', () => {
  const waiting = lines(user('u1', 'Run the tests'), assistant('a1', 'm1', [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'npm test' } }]));

  it('is active while the file moves and the last turn has no final answer', () => {
    expect(parseClaudeCode(waiting, ctx({ now: 1_000_000 + 60_000 })).status).toBe('active');
    expect(parseClaudeCode(waiting, ctx({ now: 1_000_000 + 11 * 60_000 })).status).toBe('closed');
    const answered = lines(user('u1', 'Hi'), assistant('a1', 'm1', [{ type: 'text', text: 'Hello' }]));
    expect(parseClaudeCode(answered, ctx({ now: 1_000_000 + 60_000 })).status).toBe('closed');
  });

  it('warns about a message with no content, naming the keys it held: a user turn is left out, a reply kept for its tokens', () => {
    const s = parseClaudeCode(
      lines(
        { type: 'user', uuid: 'u1', timestamp: '2026-01-01T10:00:00Z', message: { role: 'user' } },
        {
          type: 'assistant',
          uuid: 'a1',
          timestamp: '2026-01-01T10:00:01Z',
          message: { id: 'm', role: 'assistant', model: 'claude-sonnet-4-5', text: 'an answer under another key' },
        },
      ),
      ctx(),
    );
    expect(s.messages.map((m) => [m.role, m.parts])).toEqual([['assistant', []]]);
    expect(s.warnings.filter((w) => w.code === 'missing_content')).toEqual([
      {
        code: 'missing_content',
        message: 'A user message has no content (it held nothing else); it was left out (the raw record is in the file).',
        count: 1,
      },
      {
        code: 'missing_content',
        message: 'An assistant message has no content (it held only "id", "model", "text"); it is shown without text, for its model and token counts.',
        count: 1,
      },
    ]);
  });

  it('is not active when its records are old, however recently the file was copied or touched', () => {
    const now = Date.parse('2026-01-01T12:00:00Z'); // the records are from 10:00, two hours before
    expect(parseClaudeCode(waiting, ctx({ mtimeMs: now - 1000, now })).status).toBe('closed');
    const soon = Date.parse('2026-01-01T10:01:00Z');
    expect(parseClaudeCode(waiting, ctx({ mtimeMs: soon - 1000, now: soon })).status).toBe('active');
  });

  it("takes its title from a summary only when the summary's leaf is one of its own records (a resumed file carries other sessions' summaries)", () => {
    const turn = [user('u1', 'Fix the flaky login test'), assistant('a1', 'm1', [{ type: 'text', text: 'Fixed.' }])];
    const foreign = parseClaudeCode(lines({ type: 'summary', summary: 'Earlier session about billing', leafUuid: 'elsewhere-9' }, ...turn), ctx());
    expect(foreign.title).toBe('Fix the flaky login test');
    const own = parseClaudeCode(
      lines(
        { type: 'summary', summary: 'Earlier session about billing', leafUuid: 'elsewhere-9' },
        { type: 'summary', summary: 'Login test fix', leafUuid: 'a1' },
        ...turn,
      ),
      ctx(),
    );
    expect(own.title).toBe('Login test fix');
  });

  it('counts usage once per message.id, and once per requestId when lines have no message id', () => {
    const usage = { input_tokens: 100, output_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
    const s = parseClaudeCode(
      lines(
        user('u1', 'Go'),
        assistant('a1', undefined, [{ type: 'text', text: 'one' }], { requestId: 'r1' }, usage),
        assistant('a2', undefined, [{ type: 'text', text: 'two' }], { requestId: 'r1' }, usage),
      ),
      ctx(),
    );
    expect(s.messages.map((m) => m.usage?.input ?? null)).toEqual([null, 100, null]);
    expect(s.usage).toEqual({ input: 100, output: 10, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
  });

  it('reads blocks: redacted thinking, images, tool-result images, queued prompts and nested API errors', () => {
    const s = parseClaudeCode(
      lines(
        user('u1', [
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0K' } },
          { type: 'text', text: 'What is this?' },
        ]),
        assistant('a1', 'm1', [
          { type: 'redacted_thinking', data: 'Enc' },
          { type: 'tool_use', id: 't1', name: 'Screenshot', input: {} },
        ]),
        user('u2', [
          {
            type: 'tool_result',
            tool_use_id: 't1',
            content: [
              { type: 'text', text: 'captured' },
              { type: 'image', source: { type: 'url', url: 'https://x/y.png' } },
            ],
          },
        ]),
        { type: 'attachment', uuid: 'q1', attachment: { type: 'queued_command', prompt: 'also check the logs' } },
        {
          type: 'system',
          subtype: 'api_error',
          uuid: 's1',
          error: { status: 401, error: { error: { type: 'authentication_error', message: 'invalid x-api-key' } } },
        },
      ),
      ctx(),
    );
    expect(s.messages.map((m) => m.parts)).toEqual([
      [
        { type: 'image', mediaType: 'image/png', data: 'iVBORw0K', url: null },
        { type: 'text', text: 'What is this?' },
      ],
      [
        { type: 'thinking', text: '', redacted: true },
        { type: 'tool_call', callId: 't1', name: 'Screenshot', input: {} },
      ],
      [
        { type: 'tool_result', callId: 't1', output: 'captured', isError: null },
        { type: 'image', mediaType: null, data: null, url: 'https://x/y.png' },
      ],
      [{ type: 'text', text: 'also check the logs' }],
      [{ type: 'text', text: 'invalid x-api-key' }],
    ]);
    expect(s.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user', 'system']);
    expect([s.messages[3]?.annotations, s.messages[4]?.annotations]).toEqual([{ queued: true }, { subtype: 'api_error' }]);
    expect(s.title).toBe('What is this?');
  });

  it('shows a compact summary with no boundary before it as a compaction, not as a prompt', () => {
    const s = parseClaudeCode(lines(user('u1', 'Summary: we fixed the parser.', { isCompactSummary: true }), user('u2', 'Next: the lexer')), ctx());
    expect(s.messages[0]).toMatchObject({
      role: 'system',
      parts: [{ type: 'compaction', summary: 'Summary: we fixed the parser.', trigger: null, tokensBefore: null }],
      annotations: { compactSummary: true },
    });
    expect(s.title).toBe('Next: the lexer');
  });

  it('counts each unknown record and block type in one warning, and prices nothing for an unknown model', () => {
    const s = parseClaudeCode(
      lines(
        user('u1', 'x'),
        { type: 'telemetry-ping' },
        { type: 'telemetry-ping' },
        {
          type: 'assistant',
          uuid: 'a1',
          message: {
            id: 'm1',
            role: 'assistant',
            model: 'my-local-model',
            content: [{ type: 'hologram' }, { type: 'hologram' }, { type: 'text', text: 'ok' }],
            usage: { input_tokens: 5, output_tokens: 1 },
          },
        },
      ),
      ctx(),
    );
    expect(s.warnings).toEqual([
      { code: 'unknown_record_type', message: 'Records of unknown type "telemetry-ping" were skipped.', count: 2 },
      { code: 'unknown_block_type', message: 'Content blocks of unknown type "hologram" were skipped.', count: 2 },
      { code: 'unpriced_model', message: 'No price is known for model "my-local-model"; its tokens are not in the estimated cost.', count: 1 },
    ]);
    expect([s.cost, s.usage?.input]).toEqual([null, 5]);
  });

  it('refuses a file without any conversation record, saying what it holds', () => {
    const run = () =>
      parseClaudeCode(
        lines({ type: 'summary', summary: 'Old chat', leafUuid: 'x' }, { type: 'file-history-snapshot' }, { type: 'file-history-snapshot' }),
        ctx(),
      );
    expect(run).toThrow(UnreadableError);
    expect(run).toThrow('Not a Claude Code conversation: no user, assistant or system record (the file holds 1 × summary, 2 × file-history-snapshot).');
  });

  it('lists the hooks its hook_progress records, hook attachments and stop-hook summaries name, each once, where search finds them', () => {
    const hook = (hookEvent: string, command: string) => ({
      type: 'progress',
      uuid: `p-${hookEvent}-${command.length}`,
      data: { type: 'hook_progress', hookEvent, hookName: `${hookEvent}:startup`, command },
    });
    const s = parseClaudeCode(
      lines(
        hook('SessionStart', 'bin/announce-sprint'),
        user('u1', 'hi'),
        hook('PreToolUse', 'lint-staged --quiet'),
        hook('PreToolUse', 'lint-staged --quiet'),
        { type: 'progress', uuid: 'p-bash', data: { type: 'bash_progress', output: 'partial' } },
        // The same run's attachment: it printed nothing worth a note.
        {
          type: 'attachment',
          uuid: 'a1',
          attachment: {
            type: 'hook_success',
            hookEvent: 'PreToolUse',
            hookName: 'PreToolUse:startup',
            command: 'lint-staged --quiet',
            stdout: '{}',
            stderr: '',
          },
        },
        // A stop hook's summary names the commands it ran.
        { type: 'system', subtype: 'stop_hook_summary', uuid: 's-stop', hookInfos: [{ command: 'node review-gate.mjs', durationMs: 112 }] },
      ),
      ctx(),
    );
    expect(s.extra.hooks).toEqual([
      { hookEvent: 'SessionStart', hookName: 'SessionStart:startup', command: 'bin/announce-sprint' },
      { hookEvent: 'PreToolUse', hookName: 'PreToolUse:startup', command: 'lint-staged --quiet' },
      { hookEvent: 'Stop', hookName: null, command: 'node review-gate.mjs' },
    ]);
    expect(s.messages).toHaveLength(1);
    expect(s.extra.ignoredRecords).toEqual({ progress: 4, 'attachment:hook_success': 1, 'system:stop_hook_summary': 1 });
    expect(extractIndexText(s).more.split(/\s+/)).toEqual(expect.arrayContaining(['announce', 'sprint', 'staged']));
  });

  it("shows what a hook added to the model's context or reported as an error as a folded system note", () => {
    const attachment = (uuid: string, body: object) => ({ type: 'attachment', uuid, attachment: body });
    const s = parseClaudeCode(
      lines(
        user('u1', 'deploy it'),
        attachment('a1', { type: 'hook_additional_context', hookEvent: 'PreToolUse', hookName: 'guard', content: ['Deploys freeze on Fridays.'] }),
        attachment('a2', {
          type: 'hook_blocking_error',
          hookEvent: 'PreToolUse',
          hookName: 'guard',
          blockingError: { blockingError: 'Blocked: freeze window', command: 'bin/guard' },
        }),
      ),
      ctx(),
    );
    expect(s.messages.slice(1).map((m) => [m.role, m.parts, m.annotations])).toEqual([
      [
        'system',
        [{ type: 'text', text: 'Deploys freeze on Fridays.' }],
        { kind: 'hook', attachment: 'hook_additional_context', hookEvent: 'PreToolUse', hookName: 'guard' },
      ],
      [
        'system',
        [{ type: 'text', text: 'Blocked: freeze window' }],
        { kind: 'hook', attachment: 'hook_blocking_error', hookEvent: 'PreToolUse', hookName: 'guard' },
      ],
    ]);
    expect(s.extra.hooks).toEqual([
      { hookEvent: 'PreToolUse', hookName: 'guard', command: null },
      { hookEvent: 'PreToolUse', hookName: 'guard', command: 'bin/guard' },
    ]);
    // A stop hook's errors are its summary's text.
    const stop = {
      type: 'system',
      subtype: 'stop_hook_summary',
      uuid: 's1',
      hookInfos: [{ command: 'bin/check' }],
      hookErrors: ['check failed: 2 lint errors'],
    };
    const stopped = parseClaudeCode(lines(user('u1', 'go'), stop), ctx());
    expect(stopped.messages[1]?.parts).toEqual([{ type: 'text', text: 'check failed: 2 lint errors' }]);
  });

  it('keeps the plugin, skill and MCP tool a reply is attributed to on the message', () => {
    const attributed = { attributionPlugin: 'codex', attributionSkill: 'review', attributionMcpServer: 'filesystem', attributionMcpTool: 'read_file' };
    const s = parseClaudeCode(lines(user('u1', 'review it'), assistant('a1', 'msg_1', [{ type: 'text', text: 'Reviewed.' }], attributed)), ctx());
    expect(s.messages[1]?.annotations).toEqual(attributed);
  });

  it("shows an API refusal by its explanation, not by the bare word 'refusal'", () => {
    const refusal = {
      type: 'system',
      subtype: 'api_refusal',
      uuid: 's3',
      content: 'refusal',
      apiRefusalCategory: 'policy',
      apiRefusalExplanation: 'Refused for policy reasons.',
    };
    const s = parseClaudeCode(lines(user('u1', 'hi'), refusal), ctx());
    expect(s.messages[1]?.parts).toEqual([{ type: 'text', text: 'Refused for policy reasons.' }]);
    expect(s.messages[1]?.annotations).toEqual({ subtype: 'api_refusal', refusalCategory: 'policy' });
  });

  it("takes a loose file's id from its records' sessionId, as Claude Code does, not from the name it was renamed to", () => {
    const loose = { path: '/home/u/Downloads/claude-session (1).jsonl', layout: null };
    const own = '11111111-1111-4111-8111-111111111111';
    const resumed = parseClaudeCode(
      lines(user('u1', 'earlier', { sessionId: '0a0a0a0a-0000-4000-8000-000000000000' }), user('u2', 'go on', { sessionId: own })),
      ctx(loose),
    );
    expect([resumed.id, resumed.key]).toEqual([own, `claude-code:${own}`]);
    // No record names a session: the file's name is all there is.
    expect(parseClaudeCode(lines(user('u1', 'hi')), ctx(loose)).id).toBe('claude-session (1)');
    // A sub-agent's records carry its parent's id: its name stays its id.
    const agent = user('u1', 'task', { sessionId: own, isSidechain: true, agentId: 'a1' });
    expect(parseClaudeCode(lines(agent), ctx({ ...loose, path: '/home/u/Downloads/agent copy.jsonl' })).id).toBe('agent copy');
    // In its projects folder the file's name is the id Claude Code resumes by.
    expect(parseClaudeCode(lines(user('u1', 'hi', { sessionId: own })), ctx({ layout: { kind: 'session', sessionId: 's1' } })).id).toBe('s1');
  });

  it('names the session after the file and falls back to a generic title when nothing else says one', () => {
    const s = parseClaudeCode(lines({ type: 'assistant', message: { model: 'claude-opus-4-1', content: [] } }), ctx());
    expect([s.id, s.key, s.title, s.project.path, s.messages[0]?.id]).toEqual(['s1', 'claude-code:s1', 'Claude Code session s1', null, 'line-1']);
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
