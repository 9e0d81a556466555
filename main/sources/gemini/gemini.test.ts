// Tests for the Gemini CLI reader: path claims, fixtures in the real ~/.gemini layout, shared samples and hostile files.
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/session.ts';
import { countToolCalls } from '../../../shared/summarize.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { atRecordTime } from '../../test-support/recent-times.ts';
import { readDocument, type DocumentContext } from '../coerce.ts';
import { claimsGemini, parseGeminiDocument, parseGeminiJsonLines, readGeminiFile } from './gemini.ts';
import type { JsonLine } from '../jsonl.ts';
import type { UnreadableError } from '../types.ts';
import { failure, valid } from '../../test-support/reader-checks.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const tmp = join(here, './fixtures/.gemini/tmp');
const PARENT = '7f3a9c21-5b6d-4e8f-9a0b-1c2d3e4f5a6b';
const SUB = 'c0ffee00-1111-4222-8333-444455556666';
const HASH = 'b5de7d4af2b48dc2392e370f7fff10591301a1cf5fa3c1ae1abee81f2c9b1db8';
const mainPath = join(tmp, 'harbor-api/chats/session-2026-02-20T10-15-7f3a9c21.jsonl');
const subPath = join(tmp, `harbor-api/chats/${PARENT}/${SUB}.jsonl`);
const docPath = join(tmp, `${HASH}/chats/session-2025-10-02T08-00-1a2b3c4d.json`);
const HOUR = 60 * 60 * 1000;

async function read(path: string, after = HOUR): Promise<Session> {
  expect(claimsGemini(path)).toBe(true);
  const s = await readGeminiFile(path, statSync(path).mtimeMs + after);
  return valid(s);
}

const shape = (s: Session) => s.messages.map((m) => `${m.role}:${m.parts.map((p) => p.type).join('+')}`);
const ctx: DocumentContext = { path: '/h/.gemini/tmp/app/chats/session-2026-01-01T00-00-abcd1234.jsonl', size: 1, mtimeMs: 0, warnings: [] };
const lines = (...values: unknown[]): JsonLine[] => values.map((value, i) => ({ value, line: i + 1 }));
const header = {
  sessionId: 'abcd1234-0000-4000-8000-000000000000',
  projectHash: 'x',
  startTime: '2026-01-01T00:00:00.000Z',
  lastUpdated: '2026-01-01T00:00:00.000Z',
};
const user = (id: string, text: string) => ({ id, timestamp: '2026-01-01T00:00:01.000Z', type: 'user', content: text });

describe('claimsGemini', () => {
  it.each([
    `/home/u/.gemini/tmp/${HASH}/chats/session-2025-10-02T08-00-1a2b3c4d.json`,
    '/home/u/.gemini/tmp/harbor-api/chats/session-2026-02-20T10-15-7f3a9c21.jsonl',
    `/home/u/.gemini/tmp/harbor-api/chats/${PARENT}/${SUB}.jsonl`,
    'C:/Users/u/.gemini/tmp/legacy-project/chats/session-2025-12-16T23-47-d21f0000.json',
  ])('claims %s', (p) => expect(claimsGemini(p)).toBe(true));

  it.each([
    `/home/u/.gemini/tmp/${HASH}/logs.json`,
    '/home/u/.gemini/settings.json',
    `/home/u/.gemini/tmp/${HASH}/chats/session-2025-10-02T08-00-1a2b3c4d.json.tmp`,
    `/home/u/.gemini/tmp/${HASH}/chats/checkpoint-before-refactor.json`,
    `/home/u/.gemini/tmp/${HASH}/checkpoint-before-refactor.json`,
    `/home/u/.gemini/tmp/harbor-api/chats/${PARENT}/nested/${SUB}.jsonl`,
    '/home/u/chats/session-2026-02-20T10-15-7f3a9c21.jsonl',
    '/home/u/.gemini/tmp/harbor-api/.project_root',
    '/home/u/.codex/sessions/2026/02/14/rollout-2026-02-14T10-30-00-0194f3a2-7c1d-7e00-9a5b-3c4d5e6f7a01.jsonl',
  ])('does not claim %s', (p) => expect(claimsGemini(p)).toBe(false));

  it('claims the fixture chats', () => {
    expect([mainPath, subPath, docPath].map(claimsGemini)).toEqual([true, true, true]);
  });
});

describe('Gemini fixtures', () => {
  it('replays a JSONL chat: in-place updates, $set patches, a rewind and usage', async () => {
    const s = await read(mainPath);
    expect([s.key, s.id, s.title, s.status, s.formatVersion]).toEqual([`gemini:${PARENT}`, PARENT, 'Fix flaky webhook retry test', 'unknown', 'jsonl']);
    expect([s.createdAt, s.updatedAt]).toEqual(['2026-02-20T10:15:02.118Z', '2026-02-20T10:17:40.000Z']);
    // Without a .project_root marker beside it, a slug folder still names the project.
    expect(s.project).toEqual({ path: null, name: 'harbor-api', branch: null, headCommit: null });
    // u2 and g3 came after the rewind point and are gone; g1 is the later copy that carries tokens.
    expect(s.messages.map((m) => m.id)).toEqual(['u1', 'g1', 'g2', 'u3', 'g4', 'i1']);
    expect(shape(s)).toEqual(['user:text', 'assistant:thinking+tool_call+tool_result', 'assistant:text', 'user:text', 'assistant:text', 'system:text']);
    const g1 = s.messages[1];
    expect(g1?.origin).toEqual({ fileIndex: 0, line: 5, pointer: null });
    expect(g1?.parts).toEqual([
      { type: 'thinking', text: 'Reading the test\nIt sleeps for a fixed second.', redacted: false },
      { type: 'tool_call', callId: 'read_file-1', name: 'read_file', input: { absolute_path: '/home/dev/src/harbor-api/tests/webhook.rs' } },
      { type: 'tool_result', callId: 'read_file-1', output: '#[test]\nfn retries() { sleep(Duration::from_secs(1)); }', isError: false },
    ]);
    expect(g1?.usage).toEqual({ input: 1104, output: 140, cacheRead: 4096, cacheWrite: 0, reasoning: 60 });
    expect(s.messages[5]?.annotations).toEqual({ kind: 'info' });
    expect(s.usage).toEqual({ input: 2476, output: 430, cacheRead: 14336, cacheWrite: 0, reasoning: 160 });
    // gemini-2.5-pro reads cached tokens at $0.125 per million (the price database), not the $0.31 the old table had.
    expect(s.cost?.usd).toBeCloseTo((2476 * 1.25 + 590 * 10 + 14336 * 0.125) / 1e6, 12);
    expect(s.model).toEqual({ provider: null, name: 'gemini-2.5-pro', parameters: {} });
    expect(s.operations.map((o) => [o.id, o.name, o.status, o.origin])).toEqual([
      ['g1/tool-0', 'read_file', 'success', { fileIndex: 0, line: 5, pointer: '/toolCalls/0' }],
    ]);
    expect(s.extra).toEqual({
      projectHash: '8e3d3279bd79d3e125feaa72b350ed64b0867a056b916738727dbb2bc683f396',
      kind: 'main',
      rewind: { rewinds: 1, droppedMessages: 2 },
    });
    expect(s.sourceFiles.map((f) => [f.path, f.role])).toEqual([[mainPath, 'primary']]);
    expect(s.warnings).toEqual([]);
    // Running takes a fresh file AND fresh records: this test's copy is new, its records are months old.
    expect((await read(mainPath, 60_000)).status).toBe('unknown');
    await atRecordTime(mainPath, here, s.updatedAt, async (copy) => expect((await read(copy, 60_000)).status).toBe('active'));
  });

  it('links a sub-agent chat in its parent folder to the parent session', async () => {
    const s = await read(subPath);
    expect([s.key, s.parentKey, s.id]).toEqual([`gemini:${PARENT}/${SUB}`, `gemini:${PARENT}`, SUB]);
    expect(s.extra).toMatchObject({ kind: 'subagent', directories: ['/home/dev/src/harbor-api'] });
    expect(s.project.name).toBe('harbor-api');
    expect(shape(s)).toEqual(['user:text', 'assistant:text+tool_call+tool_result']);
    expect(s.usage).toEqual({ input: 3000, output: 60, cacheRead: 0, cacheWrite: 0, reasoning: 20 });
  });

  it('reads a JSON document under a hash folder: images, thought parts, a cancelled call and notices', async () => {
    const s = await read(docPath);
    expect([s.key, s.title, s.formatVersion, s.project]).toEqual([
      'gemini:1a2b3c4d-0000-4111-8222-333344445555',
      "What's in this screenshot?",
      'json',
      { path: null, name: null, branch: null, headCommit: null },
    ]);
    expect(s.extra).toEqual({ projectHash: HASH });
    expect(shape(s)).toEqual(['user:text+image', 'assistant:thinking+text', 'user:text', 'assistant:tool_call+tool_result', 'system:text', 'system:text']);
    expect(s.messages[0]?.parts[1]).toEqual({ type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=', url: null });
    expect(s.messages[0]?.origin).toEqual({ fileIndex: 0, line: null, pointer: '/messages/0' });
    expect(s.messages[3]?.parts[1]).toEqual({ type: 'tool_result', callId: 'read_file-9', output: 'Cancelled by user.', isError: null });
    expect(s.messages.slice(4).map((m) => m.annotations)).toEqual([{ kind: 'error' }, { kind: 'warning' }]);
    expect(s.operations.map((o) => [o.name, o.status, o.origin?.pointer])).toEqual([['read_file', 'cancelled', '/messages/3/toolCalls/0']]);
    expect(s.cost).toEqual({ usd: (1800 * 0.3 + 75 * 2.5) / 1e6, estimated: true });
    expect(s.warnings).toEqual([]);
  });

  it('takes the project path from the .project_root marker newer CLIs write into slug folders', async () => {
    const home = mkdtempSync(join(tmpdir(), 'gemini-home-'));
    try {
      const slug = join(home, '.gemini/tmp/harbor-api');
      cpSync(join(tmp, 'harbor-api'), slug, { recursive: true });
      writeFileSync(join(slug, '.project_root'), '/home/dev/src/harbor-api\n');
      for (const chat of [join(slug, 'chats/session-2026-02-20T10-15-7f3a9c21.jsonl'), join(slug, `chats/${PARENT}/${SUB}.jsonl`)]) {
        const s = await read(chat);
        expect(s.project).toEqual({ path: '/home/dev/src/harbor-api', name: 'harbor-api', branch: null, headCommit: null });
        expect(s.sourceFiles.map((f) => [f.path, f.role])).toEqual([
          [chat, 'primary'],
          [join(slug, '.project_root'), 'meta'],
        ]);
      }
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('Gemini replay edge cases', () => {
  it('lets a $set messages list replace the history, as the CLI loader does', () => {
    const s = parseGeminiJsonLines(lines(header, user('a', 'old'), { $set: { messages: [user('b', 'kept')] } }), ctx, undefined, HOUR);
    expect(s.messages.map((m) => [m.id, m.origin])).toEqual([['b', { fileIndex: 0, line: 3, pointer: '/$set/messages/0' }]]);
  });

  it('names each unknown record, message type and content part once with its count', () => {
    const s = parseGeminiJsonLines(
      lines(
        header,
        { note: 'written by a plugin' },
        { id: 'c1', type: 'compression', content: 'Chat history compressed.' },
        { id: 'c2', type: 'compression', content: 'Again.' },
        { id: 'g1', type: 'gemini', content: [{ text: 'Here.' }, { videoMetadata: { fps: 2 } }] },
      ),
      ctx,
      undefined,
      HOUR,
    );
    expect(s.messages.map((m) => [m.id, m.parts])).toEqual([['g1', [{ type: 'text', text: 'Here.' }]]]);
    expect(s.warnings).toEqual([
      {
        code: 'unknown_record_type',
        message: 'Unknown Gemini chat record (record with neither id, sessionId, $set nor $rewindTo): 1 record ignored.',
        count: 1,
      },
      { code: 'unknown_record_type', message: 'Unknown Gemini message type "compression" (2 messages) skipped.', count: 1 },
      { code: 'unknown_block_type', message: 'Unknown Gemini content part "videoMetadata" (1 part) ignored.', count: 1 },
    ]);
  });

  it('clears everything when the rewind target is unknown', () => {
    const s = parseGeminiJsonLines(lines(header, user('a', 'one'), user('b', 'two'), { $rewindTo: 'zzz' }), ctx, undefined, HOUR);
    expect([s.messages, s.extra.rewind]).toEqual([[], { rewinds: 1, droppedMessages: 2 }]);
  });

  // Gemini CLI's shell tool reports "success" and states the command's exit in its output (agent-sessions'
  // testToolCallStructuredOutputExtractsExitCode; the output's shape is Gemini CLI's own).
  it('shows a shell command that exited non-zero as failed, though the call says success', () => {
    const shell = (id: string, exit: number) => ({
      id,
      name: 'run_shell_command',
      args: { command: 'ls /nope' },
      status: 'success',
      result: [
        {
          functionResponse: {
            id,
            name: 'run_shell_command',
            response: { output: `Command: ls /nope\nOutput: ls: /nope: No such file\nError: (none)\nExit Code: ${exit}\nSignal: 0` },
          },
        },
      ],
    });
    const s = parseGeminiDocument(
      { sessionId: 's-exit', messages: [{ id: 'm1', type: 'gemini', content: '', toolCalls: [shell('c1', 1), shell('c2', 0)] }] },
      ctx,
      undefined,
      HOUR,
    );
    expect(s.messages[0]?.parts.flatMap((p) => (p.type === 'tool_result' ? [[p.callId, p.isError]] : []))).toEqual([
      ['c1', true],
      ['c2', false],
    ]);
  });

  it('names the chat by the file when no sessionId survives, and refuses a file with neither id nor messages', async () => {
    const s = parseGeminiJsonLines(lines(user('a', 'Hello there'), [1]), ctx, undefined, HOUR);
    expect([s.id, s.title]).toEqual(['session-2026-01-01T00-00-abcd1234', 'Hello there']);
    expect(s.warnings.map((w) => w.code)).toEqual(['wrong_type', 'missing_field']);
    const err = await failure(() => parseGeminiDocument({ sessionId: 5, messages: 'none' }, ctx, undefined, HOUR));
    expect([err.code, err.message]).toEqual(['wrong_shape', 'Not a Gemini chat: no sessionId and no messages (fields: sessionId).']);
  });
});

describe('shared Gemini samples', () => {
  const dir = join(samplesDir, 'gemini/tmp');

  it('reads the small chat with thoughts and tokens', async () => {
    const s = await read(join(dir, '0b7dfb1274ee51b336813b17f2ddab1f56b6591f723e7314126bbd502c69e9c9/chats/session-2026-01-16T18-34-3739ef95.json'));
    expect([s.key, s.title, s.createdAt, s.updatedAt, s.status, s.project.path]).toEqual([
      'gemini:session-2026-01-16T18-34-3739ef95',
      'Hello',
      '2026-01-16T18:34:00.000Z',
      '2026-01-16T18:34:10.000Z',
      'unknown',
      null,
    ]);
    expect([shape(s), countToolCalls(s), s.usage, s.cost, s.model?.name]).toEqual([
      ['user:text', 'assistant:thinking+text'],
      0,
      { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
      { usd: (10 * 0.5 + 5 * 3) / 1e6, estimated: true },
      'gemini-3-flash-preview',
    ]);
    expect(s.extra).toEqual({ projectHash: '0b7dfb1274ee51b336813b17f2ddab1f56b6591f723e7314126bbd502c69e9c9', kind: 'chat' });
  });

  it('reads the JSONL chat with $set records and an inline function response', async () => {
    const s = await read(join(dir, '0b7dfb1274ee51b336813b17f2ddab1f56b6591f723e7314126bbd502c69e9c9/chats/session-2026-04-29T21-39-stage0jl.jsonl'));
    expect([s.key, s.title, s.createdAt, s.updatedAt, s.status]).toEqual([
      'gemini:gemini_stage0_jsonl',
      'Say hello and list files.',
      '2026-04-29T21:39:22.319Z',
      '2026-04-29T21:39:45.996Z',
      'unknown',
    ]);
    expect([shape(s), countToolCalls(s)]).toEqual([['user:text', 'assistant:tool_call+tool_result', 'assistant:text'], 1]);
    expect(s.messages[1]?.parts[1]).toEqual({
      type: 'tool_result',
      callId: 'run_shell_command_stage0',
      output: 'Output: AgentSessions/\nREADME.md\nProcess Group PGID: 12345',
      isError: false,
    });
    // Gemini's input count includes cached tokens; the canonical model keeps them apart.
    expect(s.usage).toEqual({ input: 12422, output: 228, cacheRead: 11502, cacheWrite: 0, reasoning: 0 });
    // gemini-3-flash-preview has a price now: $0.50 in, $3 out, $0.05 cached, per million.
    expect(s.cost?.usd).toBeCloseTo((12422 * 0.5 + 228 * 3 + 11502 * 0.05) / 1e6, 12);
    expect(s.warnings).toEqual([]);
  });

  it('reads the large chat: tool calls with results, an info notice, `model` messages with parts', async () => {
    const s = await read(join(dir, '205016864bd110904e9ad8314192344ab398d043e779da15bedbb9ee9be00da2/chats/session-2025-12-16T23-47-b4f17607.json'));
    expect([s.title, s.createdAt, s.updatedAt, s.status]).toEqual(['Run a command', '2025-12-16T23:47:00.000Z', '2025-12-16T23:48:00.000Z', 'unknown']);
    expect(shape(s)).toEqual([
      'user:text',
      'assistant:thinking+tool_call+tool_result',
      'assistant:tool_call+tool_result',
      'system:text',
      'assistant:text',
      'user:text',
      'assistant:text',
    ]);
    expect([countToolCalls(s), s.operations.map((o) => o.status)]).toEqual([2, ['success', 'success']]);
    expect(s.usage).toEqual({ input: 100, output: 10, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
    // The top-level `meta` is kept; the messages' own model wins over the one it names.
    expect([s.model?.name, s.extra.meta, s.warnings]).toEqual(['gemini-3-flash-preview', { model: 'gmini-pro' }, []]);
  });

  it('reads the legacy history with an inline image under a slug folder', async () => {
    const s = await read(join(dir, 'legacy-project/chats/session-2025-12-16T23-47-d21f0000.json'));
    expect([s.key, s.title, s.formatVersion, s.createdAt, s.updatedAt]).toEqual([
      'gemini:session-2025-12-16T23-47-d21f0000',
      'Redacted session summary',
      'legacy-history',
      '2025-12-16T23:47:00.000Z',
      '2025-12-16T23:48:00.000Z',
    ]);
    expect(s.project).toEqual({ path: null, name: 'legacy-project', branch: null, headCommit: null });
    expect(s.messages.map((m) => [m.id, m.role, m.timestamp])).toEqual([
      ['history-0', 'user', '2023-09-18T01:20:00.000Z'],
      ['history-1', 'assistant', '2023-09-18T01:20:05.000Z'],
    ]);
    expect(s.messages[0]?.parts).toEqual([
      { type: 'text', text: 'Describe this image:' },
      { type: 'image', mediaType: 'image/png', data: 'AAAA', url: null },
    ]);
    // A legacy file names its model only in its top-level `meta`.
    expect([s.usage, s.model?.name, s.extra]).toEqual([null, 'gmini-pro', { legacyHistory: true, meta: { model: 'gmini-pro' } }]);
    expect(s.warnings.map((w) => w.code)).toEqual(['missing_field']);
  });
});

/** Generic session.json imitations a Gemini .json could resemble; they are never claimed, but the parser must explain them. */
const MALFORMED: Record<string, { code: UnreadableError['code']; phrase: string }> = {
  'concatenated_json_documents__session.json': { code: 'invalid_json', phrase: 'Unexpected non-whitespace character after JSON' },
  'control_chars_raw_in_string__session.json': { code: 'invalid_json', phrase: 'Bad control character in string literal' },
  'deep_nesting_10000_arrays__session.json': { code: 'wrong_shape', phrase: 'Not a Gemini chat: the file holds an array (1 item)' },
  'deep_nesting_10000_objects__session.json': { code: 'wrong_shape', phrase: 'no sessionId and no messages (fields: version, id, config' },
  'html_error_page_instead_of_json__session.json': { code: 'invalid_json', phrase: 'an HTML or XML page?' },
  'json_comments_and_trailing_commas__session.json': { code: 'invalid_json', phrase: "Expected property name or '}'" },
  'nan_infinity_literals__session.json': { code: 'invalid_json', phrase: 'is not valid JSON' },
  'numbers_out_of_range__session.json': { code: 'wrong_shape', phrase: 'no sessionId and no messages' },
  'whitespace_only__session.json': { code: 'empty_file', phrase: 'File contains only whitespace.' },
  'zero_byte__session.json': { code: 'empty_file', phrase: 'File is empty (0 bytes).' },
};

describe('malformed generic session.json files through the Gemini parser', () => {
  const dir = join(samplesDir, 'malformed');

  it('covers every generic session.json sample, none of which the Gemini reader claims', () => {
    const generic = readdirSync(dir).filter((n) => n.endsWith('__session.json'));
    expect(generic.sort()).toEqual(Object.keys(MALFORMED).sort());
    expect(generic.some((n) => claimsGemini(join(dir, n)))).toBe(false);
  });

  it.each(Object.entries(MALFORMED))('%s', async (name, expected) => {
    const err = await failure(async () => {
      const { value, ctx: c } = await readDocument(join(dir, name));
      return parseGeminiDocument(value, c, undefined, HOUR);
    });
    expect(err.code).toBe(expected.code);
    expect(err.message).toContain(expected.phrase);
  });
});
