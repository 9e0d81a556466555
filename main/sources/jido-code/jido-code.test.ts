// Tests for the JidoCode reader: version 1 variants, the shared samples, hostile files and path claims.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/session.ts';
import type { DocumentContext } from '../coerce.ts';
import { claimsJidoCode, jidoCodeReader, parseJidoDocument } from './jido-code.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { failure, valid } from '../../test-support/reader-checks.ts';
import { describeMalformed, parseDocumentWith, type MalformedExpectation } from '../../test-support/malformed-suite.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const samples = samplesDir;
const fixtures = join(here, './fixtures/.jido_code/sessions');

async function read(path: string): Promise<Session> {
  const session = await jidoCodeReader.read(path);
  return valid(session);
}

const ctx: DocumentContext = { path: '/home/u/.jido_code/sessions/file-stem-id.json', size: 10, mtimeMs: 1, warnings: [] };

describe('claimsJidoCode', () => {
  it.each(['/home/u/.jido_code/sessions/5b1f0c8e.json', 'C:/Users/u/.jido_code/sessions/a.json'])('claims %s', (p) => {
    expect(claimsJidoCode(p)).toBe(true);
  });

  it.each([
    '/home/u/.jido_code/sessions/5b1f0c8e.json.tmp',
    '/home/u/.jido_code/sessions/.5b1f0c8e.json.4242.tmp',
    '/home/u/.jido_code/sessions/archive/5b1f0c8e.json',
    '/home/u/jido_code/sessions/5b1f0c8e.json',
    '/home/u/.jido_code/5b1f0c8e.json',
    '/home/u/.jido_code/sessions/5b1f0c8e.jsonl',
    '/home/u/repo/.vizier/sessions/5b1f0c8e/session.json',
  ])('does not claim %s', (p) => {
    expect(claimsJidoCode(p)).toBe(false);
  });
});

describe('JidoCode fixtures', () => {
  it('reads an early unsigned session: name as title, config as session-provenance entries and model', async () => {
    const path = join(fixtures, '2f8d6b1a-9c3e-4d70-8a5b-e1f2a3b4c5d6.json');
    const s = await read(path);
    expect(s.key).toBe('jido-code:2f8d6b1a-9c3e-4d70-8a5b-e1f2a3b4c5d6');
    expect(s.formatVersion).toBe('1');
    expect(s.title).toBe('tidepool');
    expect([s.createdAt, s.updatedAt, s.closedAt]).toEqual(['2025-12-05T17:00:52.771Z', '2025-12-05T17:01:31.002Z', '2025-12-05T17:12:40.118Z']);
    expect(s.status).toBe('closed');
    expect(s.outcome).toBeNull();
    expect(s.project).toEqual({ path: '/home/sam/src/tidepool', name: 'tidepool', branch: null, headCommit: null });
    expect(s.model).toEqual({ provider: 'anthropic', name: 'claude-3-5-haiku-20241022', parameters: { temperature: 0.3, maxTokens: 4096 } });
    expect(s.config).toEqual([
      { key: 'max_tokens', value: 4096, provenance: 'session' },
      { key: 'model', value: 'claude-3-5-haiku-20241022', provenance: 'session' },
      { key: 'provider', value: 'anthropic', provenance: 'session' },
      { key: 'temperature', value: 0.3, provenance: 'session' },
    ]);
    expect(s.messages.map((m) => [m.id, m.role, m.timestamp])).toEqual([
      ['a1b2c3d4e5f60718', 'user', '2025-12-05T17:01:09.400Z'],
      ['0718a1b2c3d4e5f6', 'assistant', '2025-12-05T17:01:31.002Z'],
    ]);
    expect(s.messages[1]?.origin).toEqual({ fileIndex: 0, line: null, pointer: '/conversation/1' });
    expect(s.todos).toEqual([{ content: 'Add build-base to the builder image', status: 'completed', activeForm: 'Adding build-base to the builder image' }]);
    expect([s.usage, s.cost]).toEqual([null, null]);
    expect(s.extra).toEqual({});
    expect(s.sourceFiles).toEqual([{ path, size: statSync(path).size, mtimeMs: statSync(path).mtimeMs, role: 'primary' }]);
    expect(s.warnings).toEqual([]);
  });

  it('sums per-message usage when there is no cumulative_usage, and shows tool output as a tool result', async () => {
    const s = await read(join(fixtures, '7c0e5a9d-1b2f-4c3d-9e8f-a0b1c2d3e4f5.json'));
    expect(s.usage).toEqual({ input: 6000, output: 332, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
    expect(s.cost?.usd).toBeCloseTo(0.02298, 10);
    expect(s.cost?.estimated).toBe(false);
    expect(s.messages[1]).toMatchObject({ usage: { input: 1800, output: 22 }, cost: { usd: 0.00573, estimated: false } });
    expect(s.messages[2]?.parts).toEqual([
      {
        type: 'tool_result',
        callId: null,
        output: 'read_file lib/tidepool/search.ex -> 88 lines\n  Enum.sort_by(docs, &score(&1, query), :desc)',
        isError: null,
      },
    ]);
    expect(s.extra).toEqual({
      language: 'elixir',
      signed: true,
      prompt_history: ['Speed up `Tidepool.Search.rank/2`; it takes 900 ms on the staging dataset.'],
    });
    expect(s.todos.map((t) => t.status)).toEqual(['completed', 'in_progress', 'pending']);
    expect(s.config.find((c) => c.key === 'base_url')).toEqual({ key: 'base_url', value: null, provenance: 'session' });
  });

  it('prefers the recorded cumulative_usage over the messages that survived trimming', async () => {
    const s = await read(join(fixtures, 'd4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f70.json'));
    expect(s.usage).toEqual({ input: 12900, output: 1310, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
    expect(s.cost).toEqual({ usd: 0.04535, estimated: false });
    expect(s.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
    expect(s.title).toBe('harbour-db');
    expect(s.todos).toEqual([]);
  });

  it('never claims the leftover <id>.json.tmp', () => {
    const tmp = readdirSync(fixtures).filter((n) => n.endsWith('.tmp'));
    expect(tmp).toEqual(['d4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f70.json.tmp']);
    expect(claimsJidoCode(join(fixtures, tmp[0] ?? ''))).toBe(false);
  });
});

describe('parseJidoDocument edge cases', () => {
  it('falls back to the file name for the id and to the first user message for the title', () => {
    const s = parseJidoDocument({ version: 1, conversation: [{ role: 'user', content: '  \nPort the parser\nto Rust' }] }, ctx);
    expect(s.id).toBe('file-stem-id');
    expect(s.title).toBe('Port the parser');
    expect(s.messages[0]?.id).toBe('conversation-0');
    expect(s.status).toBe('unknown');
    expect(parseJidoDocument({ version: 1, id: 'x' }, ctx).title).toBe('JidoCode session');
  });

  it('reads a version that is not a whole number as version 1, with a warning', () => {
    const s = parseJidoDocument({ version: 1.5, id: 'x' }, ctx);
    expect(s.warnings[0]).toMatchObject({ code: 'wrong_type', message: expect.stringContaining('"version"') });
  });

  it('skips unusable conversation entries and todos with warnings, and lists unknown fields once', () => {
    const s = parseJidoDocument(
      {
        version: 1,
        id: 'x',
        conversation: ['hello', { role: 'robot', content: 'beep' }, { role: 'user', content: 7 }, { role: 'assistant', content: 'ok' }],
        todos: [{ status: 'pending' }, { content: 'Ship it' }],
        encryption: {},
        theme: 'dark',
      },
      ctx,
    );
    // The user entry whose content is a number is left out with a warning, never shown as an empty message.
    expect(s.messages.map((m) => [m.role, m.parts.length, m.origin?.pointer])).toEqual([['assistant', 1, '/conversation/3']]);
    expect(s.todos).toEqual([{ content: 'Ship it', status: 'unknown', activeForm: null }]);
    expect(s.warnings.map((w) => w.code)).toEqual(['wrong_type', 'unknown_role', 'wrong_type', 'missing_content', 'missing_field', 'unknown_field']);
    expect(s.warnings.at(-1)?.message).toBe('Unknown top-level fields ignored: encryption, theme.');
  });

  it('refuses a newer version naming it', async () => {
    const err = await failure(() => parseJidoDocument({ version: 3, id: 'x' }, ctx));
    expect(err.code).toBe('unsupported_version');
    expect(err.message).toContain('version 3 is newer');
  });
});

describe('shared JidoCode samples', () => {
  const dir = join(samples, 'jido-code/.jido_code/sessions');

  it('reads the early unsigned writer', async () => {
    const s = await read(join(dir, '5b1f0c8e-3a2d-4e6f-9b7a-1c2d3e4f5a6b.json'));
    expect(s.title).toBe('inventory-api');
    expect([s.createdAt, s.updatedAt, s.closedAt]).toEqual(['2025-12-08T09:02:14.518Z', '2025-12-08T09:41:57.004Z', '2025-12-08T09:42:03.771Z']);
    expect([s.messages.length, s.status, s.usage, s.extra]).toEqual([4, 'closed', null, {}]);
    expect(s.todos.map((t) => [t.content, t.status])).toEqual([
      ['Clamp page parameter', 'completed'],
      ['Add regression test', 'completed'],
    ]);
    expect(s.model).toEqual({ provider: 'anthropic', name: 'claude-3-5-sonnet-20241022', parameters: { temperature: 0.7, maxTokens: 4096 } });
    expect(s.project).toEqual({ path: '/home/dev/proj/inventory-api', name: 'inventory-api', branch: null, headCommit: null });
  });

  it('reads the signed openai session with no todos', async () => {
    const s = await read(join(dir, 'a7e3d9c1-5f2b-4a80-8c6e-2d4f6b8a0c1e.json'));
    expect(s.title).toBe('dotfiles');
    expect(s.extra).toEqual({ signed: true });
    expect(s.todos).toEqual([]);
    expect(s.model?.name).toBe('gpt-4o');
    expect(s.messages).toHaveLength(4);
    expect(s.createdAt).toBe('2025-12-14T18:20:00.000Z');
  });

  it('reads usage per message and the cumulative totals', async () => {
    const s = await read(join(dir, 'c4d5e6f7-0a1b-4c2d-8e3f-4a5b6c7d8e9f.json'));
    expect(s.title).toBe('nightly-etl');
    expect(s.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user', 'assistant']);
    expect(s.usage).toEqual({ input: 15204, output: 884, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
    expect(s.cost).toEqual({ usd: 0.058872, estimated: false });
    expect(s.messages[2]).toMatchObject({ usage: { input: 2210, output: 41 }, cost: { usd: 0.007245, estimated: false } });
    expect(s.todos.map((t) => t.status)).toEqual(['completed', 'completed', 'in_progress', 'pending']);
    expect(s.extra).toEqual({ language: 'python', signed: true });
    expect(s.config).toHaveLength(5);
    expect(s.closedAt).toBe('2025-12-26T10:20:00.250Z');
  });

  it('reads the newest writer with prompt history and non-ASCII text', async () => {
    const s = await read(join(dir, 'e8f9a0b1-c2d3-4e5f-a6b7-c8d9e0f1a2b3.json'));
    expect(s.title).toBe('blog-ssg');
    expect(s.extra).toMatchObject({ language: 'elixir', signed: true });
    expect(s.extra.prompt_history).toHaveLength(3);
    expect(s.messages[0]?.parts[0]).toEqual({ type: 'text', text: 'Render post titles with smart quotes — e.g. “Hello” instead of "Hello".' });
    expect([s.usage, s.cost]).toEqual([null, null]);
    expect(s.todos.map((t) => t.status)).toEqual(['completed', 'pending']);
    expect(s.closedAt).toBe('2025-12-29T08:02:11.000Z');
  });
});

/** Malformed files that imitate a JidoCode session or a generic session.json, fed to the parser directly. */
const MALFORMED: Record<string, MalformedExpectation> = {
  'concatenated_json_documents__session.json': { code: 'invalid_json', phrase: 'line 1, column 61' },
  'control_chars_raw_in_string__session.json': { code: 'invalid_json', phrase: 'Bad control character in string literal' },
  'deep_nesting_10000_arrays__session.json': { code: 'wrong_shape', phrase: 'Not a JidoCode session: the file holds an array (1 item)' },
  'deep_nesting_10000_objects__session.json': {
    warnings: ['too_deep'],
    check: (s) => {
      expect(s.id).toBe('deep0000-0000-4000-8000-000000000001');
      expect(s.config).toHaveLength(1);
      expect(() => JSON.stringify(s)).not.toThrow();
    },
  },
  // Later keys win, as in JidoCode's own decoder, so the file declares version 2.
  'duplicate_keys__jido_session.json': { code: 'unsupported_version', phrase: 'JidoCode session version 2 is newer than this app understands' },
  'html_error_page_instead_of_json__session.json': { code: 'invalid_json', phrase: 'an HTML or XML page?' },
  'json_comments_and_trailing_commas__session.json': { code: 'invalid_json', phrase: "Expected property name or '}'" },
  'nan_infinity_literals__session.json': { code: 'invalid_json', phrase: 'is not valid JSON' },
  'numbers_out_of_range__session.json': { code: 'wrong_shape', phrase: 'version is a number too large to represent' },
  'truncated_json__jido_session_cut_mid_string.json': { code: 'invalid_json', phrase: 'Unterminated string. The file ends early' },
  'unknown_future_version__jido_v99.json': { code: 'unsupported_version', phrase: 'JidoCode session version 99 is newer than this app understands' },
  'utf16le_bom__jido_session.json': {
    warnings: ['utf16_bom'],
    check: (s) => expect([s.id, s.title, s.messages, s.todos]).toEqual(['u16u16u1-0000-4000-8000-000000000001', 'demo', [], []]),
  },
  'whitespace_only__session.json': { code: 'empty_file', phrase: 'File contains only whitespace.' },
  'wrong_top_level__array_instead_of_object.json': { code: 'wrong_shape', phrase: 'the file holds an array (2 items) where a JSON object is expected' },
  'wrong_types__jido_conversation_is_string.json': {
    code: 'wrong_shape',
    phrase: 'no known field has a usable value (version is a string, id is a list, project_path is an object, config is a string, conversation is a string',
  },
  'zero_byte__session.json': { code: 'empty_file', phrase: 'File is empty (0 bytes).' },
};

describeMalformed(
  'malformed inputs through the JidoCode parser',
  {
    what: 'JidoCode-like or generic session.json',
    select: (n) => n.endsWith('__session.json') || n.includes('jido') || n === 'wrong_top_level__array_instead_of_object.json',
  },
  MALFORMED,
  parseDocumentWith(parseJidoDocument),
);
