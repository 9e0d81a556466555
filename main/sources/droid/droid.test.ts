// Tests the Droid reader: its paths (and Claude Code's leaving them alone), the settings companion, both dialects' edge cases.
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/session.ts';
import { claimsClaudeCode } from '../claude-code/claude-code.ts';
import type { DocumentContext } from '../coerce.ts';
import { extractIndexText } from '../../search-index/index-text.ts';
import { readHead } from '../head.ts';
import type { JsonLine } from '../jsonl.ts';
import { failure, valid } from '../../test-support/reader-checks.ts';
import { claimsDroid, isDroidCompanion } from './droid-paths.ts';
import { droidReader, parseDroid, readDroidFile } from './droid.ts';

const home = mkdtempSync(join(tmpdir(), 'sv-droid-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const jsonl = (...values: unknown[]) => `${values.map((v) => JSON.stringify(v)).join('\n')}\n`;
const lines = (...values: unknown[]): JsonLine[] => values.map((value, i) => ({ value, line: i + 1 }));
const ctx: DocumentContext = { path: '/h/.factory/sessions/-tmp/s.jsonl', size: 1, mtimeMs: 0, warnings: [] };
const parse = (...values: unknown[]): Session => valid(parseDroid(lines(...values), ctx, null, 3600_000));
const start = { type: 'session_start', id: 'd1', title: 'Droid run', cwd: '/home/dev/app', version: '0.81.0' };
const message = (id: string, role: string, content: unknown, timestamp = '2026-01-05T10:00:00.000Z') => ({
  type: 'message',
  id,
  timestamp,
  message: { role, content },
});

describe('Droid paths', () => {
  it.each(['/home/u/.factory/sessions/-home-u-app/d1.jsonl', '/home/u/.factory/projects/-tmp/sid_1.jsonl', '/home/u/.factory/projects/a/b/run.jsonl'])(
    'claims %s',
    (p) => {
      expect(claimsDroid(p)).toBe(true);
    },
  );

  it('keeps Claude Code off ~/.factory/projects/<dir>/<id>.jsonl: Droid claims it', () => {
    const path = '/home/u/.factory/projects/-tmp/sid_stage0_small.jsonl';
    expect([claimsClaudeCode(path), claimsDroid(path)]).toEqual([false, true]);
    // Claude Code's own projects folder stays Claude Code's.
    expect(claimsDroid('/home/u/.claude/projects/-tmp/0a1b.jsonl')).toBe(false);
  });

  it.each([
    '/home/u/.factory/sessions/d1.jsonl',
    '/home/u/.factory/sessions/-tmp/d1.jsonl.tmp',
    '/home/u/.factory/sessions/-tmp/d1.settings.json',
    '/home/u/.factory/settings.json',
  ])('does not claim %s', (p) => {
    expect(claimsDroid(p)).toBe(false);
  });

  it('treats <id>.settings.json as a companion, never a session', () => {
    expect(isDroidCompanion('/home/u/.factory/sessions/-tmp/d1.settings.json')).toBe(true);
  });

  it('looks in ~/.factory (sessions and projects), or where DROID_SESSIONS_DIR says, and resumes with droid --resume', () => {
    expect(droidReader.defaultRoots({}, '/home/u')).toEqual(['/home/u/.factory/sessions', '/home/u/.factory/projects']);
    expect(droidReader.defaultRoots({ DROID_SESSIONS_DIR: '/a, /b' }, '/home/u')).toEqual(['/a', '/b', '/home/u/.factory/projects']);
    expect(droidReader.resumeCommand({ id: 'd1', isSubAgent: false })).toBe('droid --resume d1');
  });
});

describe('Droid sessions', () => {
  it('reads the model and tokens (thinking included) from <id>.settings.json beside the session', async () => {
    const dir = join(home, '.factory/sessions/-home-dev-app');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'd1.jsonl');
    writeFileSync(
      path,
      jsonl(start, message('m1', 'user', [{ type: 'text', text: 'Add tests' }]), message('m2', 'assistant', [{ type: 'text', text: 'Done' }])),
    );
    writeFileSync(
      join(dir, 'd1.settings.json'),
      JSON.stringify({
        model: 'claude-sonnet-4-5-20250929',
        providerLock: 'anthropic',
        reasoningEffort: 'medium',
        tokenUsage: { inputTokens: 1200, outputTokens: 300, cacheCreationTokens: 40, cacheReadTokens: 900, thinkingTokens: 60 },
      }),
    );
    const s = valid(await readDroidFile(path, statSync(path).mtimeMs + 3600_000));
    expect(s.model).toEqual({ provider: 'anthropic', name: 'claude-sonnet-4-5-20250929', parameters: { reasoningEffort: 'medium' } });
    expect(s.usage).toEqual({ input: 1200, output: 300, cacheRead: 900, cacheWrite: 40, reasoning: 60 });
    expect(s.cost?.estimated).toBe(true);
    expect(s.sourceFiles.map((f) => f.role)).toEqual(['primary', 'meta']);
  });

  it('does not read settings that link to a file outside the session folder', async () => {
    const dir = join(home, '.factory/sessions/-linked');
    mkdirSync(dir, { recursive: true });
    mkdirSync(join(home, 'elsewhere'), { recursive: true });
    const path = join(dir, 'd3.jsonl');
    writeFileSync(path, jsonl(start, message('m1', 'user', 'hi')));
    writeFileSync(join(home, 'elsewhere/d3.settings.json'), JSON.stringify({ model: 'secret-model', tokenUsage: { inputTokens: 1 } }));
    symlinkSync(join(home, 'elsewhere/d3.settings.json'), join(dir, 'd3.settings.json'));
    const s = valid(await readDroidFile(path));
    expect([s.model, s.usage, s.sourceFiles.length]).toEqual([null, null, 1]);
  });

  it('reports settings it cannot read and reads the session without them', async () => {
    const dir = join(home, '.factory/sessions/-broken');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'd2.jsonl');
    writeFileSync(path, jsonl(start, message('m1', 'user', 'hi')));
    writeFileSync(join(dir, 'd2.settings.json'), '{"model": ');
    const s = valid(await readDroidFile(path));
    expect([s.usage, s.model, s.warnings.map((w) => w.code)]).toEqual([null, null, ['bad_settings']]);
  });

  it('splits the system reminder off a prompt, shows tool-only user records as tool output, and keeps todos', () => {
    const s = parse(
      start,
      message('m1', 'user', [{ type: 'text', text: '<system-reminder>\nBe concise.\n</system-reminder>\n\nFix the bug' }]),
      message('m2', 'assistant', [
        { type: 'thinking', thinking: 'Look first.' },
        { type: 'tool_use', id: 'tu1', name: 'Read', input: { path: 'a.ts' } },
      ]),
      message('m3', 'user', [{ type: 'tool_result', tool_use_id: 'tu1', content: [{ type: 'text', text: 'code' }], is_error: false }]),
      { type: 'todo_state', todos: [{ content: 'Fix the bug', status: 'in_progress' }] },
    );
    expect(s.messages.map((m) => `${m.role}:${m.parts.map((p) => p.type).join('+')}`)).toEqual([
      'system:text',
      'user:text',
      'assistant:thinking+tool_call',
      'tool:tool_result',
    ]);
    expect(s.messages[1]?.parts[0]).toEqual({ type: 'text', text: 'Fix the bug' });
    expect(s.messages[0]?.parts[0]).toEqual({ type: 'text', text: 'Be concise.' });
    // The tag it was split at is kept as the message's kind: the transcript folds it, and search finds the tag's words.
    expect(s.messages[0]?.annotations).toEqual({ kind: 'system-reminder' });
    expect(extractIndexText(s).more.split(/\s+/)).toEqual(expect.arrayContaining(['system', 'reminder']));
    expect(s.messages[3]?.parts[0]).toEqual({ type: 'tool_result', callId: 'tu1', output: 'code', isError: false });
    expect(s.todos).toEqual([{ content: 'Fix the bug', status: 'in_progress', activeForm: null }]);
    expect([s.title, s.project.path, s.toolVersion]).toEqual(['Droid run', '/home/dev/app', '0.81.0']);
  });

  it('warns about unknown record and block types and messages with nothing to show', () => {
    const s = parse(start, { type: 'compaction_state', x: 1 }, message('m1', 'assistant', [{ type: 'hologram' }]), message('m2', 'assistant', 'ok'));
    expect(s.messages).toHaveLength(1);
    expect(s.warnings.map((w) => w.code)).toEqual(['missing_content', 'unknown_record_type', 'unknown_block_type']);
  });

  it('refuses a claimed file that is neither dialect, saying why', async () => {
    const err = await failure(() => parseDroid(lines({ type: 'note', text: 'x' }), ctx, null));
    expect(err.code).toBe('wrong_shape');
  });
});

describe('Droid stream-json logs', () => {
  it('reads epoch-second and ISO times, pairs calls by id, ends with the completion and its usage', () => {
    const id = { session_id: 'run-1' };
    const s = parse(
      { type: 'message', ...id, timestamp: 1767812641, role: 'user', text: 'List files' },
      { type: 'tool_call', ...id, timestamp: 1767812642, toolCallId: 'c1', toolName: 'LS', parameters: { path: '.' } },
      { type: 'tool_result', ...id, timestamp: '2026-01-07T19:04:03Z', toolCallId: 'c1', value: 'a.ts' },
      {
        type: 'completion',
        ...id,
        timestamp: 1767812644000,
        finalText: 'Two files.',
        usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 2 },
        numTurns: 1,
      },
    );
    expect(s.messages.map((m) => `${m.role}:${m.parts.map((p) => p.type).join('+')}`)).toEqual([
      'user:text',
      'assistant:tool_call',
      'tool:tool_result',
      'assistant:text',
    ]);
    expect([s.createdAt, s.updatedAt]).toEqual(['2026-01-07T19:04:01.000Z', '2026-01-07T19:04:04.000Z']);
    expect(s.usage).toEqual({ input: 10, output: 5, cacheRead: 2, cacheWrite: 0, reasoning: 0 });
    expect([s.key, s.outcome?.status, s.status, s.extra.numTurns]).toEqual(['droid:run-1', 'completed', 'closed', 1]);
  });

  it('reads a run that failed before any message: its init facts and its errors, failed', async () => {
    const id = { session_id: 'run-err' };
    const records = [
      { type: 'system', subtype: 'init', ...id, timestamp: 1767812640310, model: 'droid-model', cwd: '/tmp/app' },
      { type: 'error', source: 'cli', message: 'Authentication failed', timestamp: 1767812640597, ...id },
      { type: 'error', source: 'cli', message: 'Authentication failed', timestamp: 1767812640598, ...id },
    ];
    const s = parse(...records);
    expect(s.messages.map((m) => [m.role, m.parts[0]?.type === 'text' ? m.parts[0].text : null, m.annotations])).toEqual([
      ['system', 'Authentication failed', { error: true, source: 'cli' }],
      ['system', 'Authentication failed', { error: true, source: 'cli' }],
    ]);
    expect([s.key, s.outcome?.status, s.model?.name, s.project.path, s.warnings]).toEqual(['droid:run-err', 'failed', 'droid-model', '/tmp/app', []]);
    const file = join(home, 'Downloads/failed-exec.jsonl');
    mkdirSync(join(home, 'Downloads'), { recursive: true });
    writeFileSync(file, jsonl(...records));
    expect(droidReader.recognizes?.(await readHead(file))).toBe(true);
  });

  it('takes a role in any case, the text as "content", the final answer as "final"', async () => {
    const id = { sessionId: 'run-3' };
    const records = [
      { type: 'message', ...id, timestamp: '2026-01-07T19:04:01Z', role: 'USER', content: 'Do thing' },
      { type: 'message', ...id, timestamp: '2026-01-07T19:04:02Z', role: 'Assistant', content: 'On it.' },
      { type: 'completion', ...id, timestamp: '2026-01-07T19:04:03Z', final: 'all done' },
    ];
    const s = parse(...records);
    expect(s.messages.map((m) => `${m.role}:${m.parts.map((p) => (p.type === 'text' ? p.text : p.type)).join('+')}`)).toEqual([
      'user:Do thing',
      'assistant:On it.',
      'assistant:all done',
    ]);
    expect([s.title, s.outcome?.summary]).toEqual(['Do thing', 'all done']);
    const file = join(home, 'Downloads/variant-exec.jsonl');
    mkdirSync(join(home, 'Downloads'), { recursive: true });
    writeFileSync(file, jsonl(records[0], records[2]));
    expect(droidReader.recognizes?.(await readHead(file))).toBe(true);
  });

  it('is recognised by content where it lies, and a Claude Code stream-json is not', async () => {
    const droid = join(home, 'Downloads/exec.jsonl');
    mkdirSync(join(home, 'Downloads'), { recursive: true });
    writeFileSync(droid, jsonl({ type: 'message', session_id: 's', role: 'user', text: 'hi' }, { type: 'completion', session_id: 's', finalText: 'ok' }));
    expect(droidReader.recognizes?.(await readHead(droid))).toBe(true);
    const claude = join(home, 'Downloads/claude.jsonl');
    writeFileSync(
      claude,
      jsonl(
        { type: 'system', subtype: 'init', session_id: 's', tools: [] },
        { type: 'assistant', session_id: 's', message: { content: [] } },
        { type: 'result', session_id: 's' },
      ),
    );
    expect(droidReader.recognizes?.(await readHead(claude))).toBe(false);
  });
});
