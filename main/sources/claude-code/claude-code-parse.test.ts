// Tests for the Claude Code parser on records built by hand: status, titles, usage, blocks, hooks, warnings and refusals.
import { describe, expect, it } from 'vitest';
import { parseClaudeCode } from './claude-code.ts';
import { UnreadableError } from '../types.ts';
import { extractIndexText } from '../../search-index/index-text.ts';
import { assistant, ctx, lines, user } from './claude-code-test-records.ts';

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
