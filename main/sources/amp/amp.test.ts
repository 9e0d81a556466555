// Tests for the Amp reader: paths, content blocks (both tool_result shapes), the usage ledger, status and hostile documents.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { MessagePart } from '../../../shared/session.ts';
import { Head } from '../head.ts';
import { failure, valid } from '../../test-support/reader-checks.ts';
import { ampReader, ampRoots, claimsAmp, readAmpFile } from './amp.ts';
import { parseAmpThread, type AmpContext } from './amp-session.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const ctx = (over: Partial<AmpContext> = {}): AmpContext => ({
  path: '/h/.local/share/amp/threads/T-abc.json',
  size: 1,
  mtimeMs: NOW - 3600_000,
  warnings: [],
  now: NOW,
  ...over,
});
const parse = (doc: unknown, over: Partial<AmpContext> = {}) => valid(parseAmpThread(doc, ctx(over)));
const thread = (messages: unknown[], more: Record<string, unknown> = {}) => ({
  v: 3,
  id: 'T-abc',
  created: Date.parse('2026-03-01T10:00:00Z'),
  messages,
  ...more,
});
const kinds = (parts: MessagePart[]) => parts.map((p) => p.type);

describe('Amp paths', () => {
  it.each([
    ['/home/u/.local/share/amp/threads/T-019ca26f-aaaa-bbbb-cccc-dddddddddddd.json', true],
    ['/data/amp/threads/T-thread-a.json', true],
    ['/home/u/.local/share/amp/threads/T-abc.json.tmp', false],
    ['/home/u/.local/share/amp/threads/settings.json', false],
    ['/home/u/notes/T-abc.json', false],
  ])('%s claimed: %s', (path, claimed) => expect(claimsAmp(path)).toBe(claimed));

  it('honours AMP_DATA_DIR (comma-separated) and XDG_DATA_HOME, and resumes with amp threads continue', () => {
    expect(ampRoots({}, '/home/u')).toEqual(['/home/u/.local/share/amp/threads']);
    expect(ampRoots({ XDG_DATA_HOME: '/xdg' }, '/home/u')).toEqual(['/xdg/amp/threads']);
    expect(ampRoots({ AMP_DATA_DIR: '/a, /b' }, '/home/u')).toEqual(['/a/threads', '/b/threads']);
    expect(ampReader.resumeCommand({ id: 'T-abc', isSubAgent: false })).toBe('amp threads continue T-abc');
  });

  it('recognises a thread document by its T- id and messages, even when indented one message per line', () => {
    const indented = '{\n\t"id": "T-x",\n\t"messages": [\n\t\t{"role": "user", "content": "a"},\n\t\t{"role": "assistant", "content": "b"}\n\t]\n}';
    expect(ampReader.recognizes?.(new Head(indented, true))).toBe(true);
    expect(ampReader.recognizes?.(new Head('{"id":"abc","messages":[]}', true))).toBe(false);
  });
});

describe('Amp content', () => {
  it('pairs tool_use with both tool_result shapes and keeps thinking, images and errors', () => {
    const s = parse(
      thread([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Read main.go' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBO' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'plan' },
            { type: 'tool_use', id: 'tu1', name: 'Read', input: { path: 'main.go' } },
            { type: 'tool_use', id: 'tu2', name: 'Bash', input: { cmd: 'go test' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'tu1', content: 'package main', is_error: false },
            { type: 'tool_result', toolUseID: 'tu2', run: { status: 'error', error: { message: 'exit 1' } } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'tu3', name: 'Bash', input: {} },
            { type: 'redacted_thinking', data: 'x' },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', toolUseID: 'tu3', run: { status: 'done', result: { output: 'ok', exitCode: 0 } } }] },
        { role: 'user', content: [{ type: 'tool_result', toolUseID: 'tu4', run: { status: 'cancelled' } }] },
      ]),
    );
    expect(s.messages.map((m) => [m.role, kinds(m.parts)])).toEqual([
      ['user', ['text', 'image']],
      ['assistant', ['thinking', 'tool_call', 'tool_call']],
      ['tool', ['tool_result', 'tool_result']],
      ['assistant', ['tool_call', 'thinking']],
      ['tool', ['tool_result']],
      ['tool', ['tool_result']],
    ]);
    const results = s.messages.flatMap((m) => m.parts.filter((p) => p.type === 'tool_result'));
    expect(results).toEqual([
      { type: 'tool_result', callId: 'tu1', output: 'package main', isError: false },
      { type: 'tool_result', callId: 'tu2', output: 'exit 1', isError: true },
      { type: 'tool_result', callId: 'tu3', output: 'ok', isError: false },
      { type: 'tool_result', callId: 'tu4', output: '[cancelled]', isError: null },
    ]);
    expect(s.messages[0]!.parts[1]).toEqual({ type: 'image', mediaType: 'image/png', data: 'iVBO', url: null });
    expect(s.warnings).toEqual([]);
  });

  it('warns about unknown block types and roles instead of dropping them silently', () => {
    const s = parse(thread([{ role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'hologram' }] }, { role: 'system', content: 'x' }, 'junk']));
    expect(s.messages).toHaveLength(1);
    expect(s.warnings.map((w) => w.code).sort()).toEqual(['unknown_block_type', 'unknown_role', 'wrong_type']);
  });
});

describe('Amp tokens', () => {
  it('takes tokens from usageLedger events when present, with the cache split of the message each produced', () => {
    const s = parse(
      thread(
        [
          { role: 'user', content: 'go', messageId: 0 },
          {
            role: 'assistant',
            content: 'done',
            messageId: 1,
            usage: { model: 'claude-sonnet-4-5', inputTokens: 99, outputTokens: 99, cacheCreationInputTokens: 30, cacheReadInputTokens: 40 },
          },
        ],
        {
          usageLedger: {
            events: [
              { id: 'e1', timestamp: '2026-03-01T10:00:05.000Z', model: 'claude-sonnet-4-5', tokens: { input: 7, output: 11 }, toMessageId: 1, credits: 2 },
              { id: 'e2', timestamp: '2026-03-01T10:00:09.000Z', model: 'claude-haiku-4-5', tokens: { input: 3, output: 4 } },
            ],
          },
        },
      ),
    );
    expect(s.messages[1]!.usage).toEqual({ input: 7, output: 11, cacheRead: 40, cacheWrite: 30, reasoning: 0 });
    expect(s.usage).toEqual({ input: 10, output: 15, cacheRead: 40, cacheWrite: 30, reasoning: 0 });
    expect(s.extra).toEqual({ credits: 2, ledgerEventsWithoutMessage: 1 });
  });

  it("folds an OpenAI model's cache-creation bucket into input and reports a total without a split", () => {
    const s = parse(
      thread([
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: 'a',
          usage: { model: 'gpt-5', inputTokens: 0, outputTokens: 5, cacheCreationInputTokens: 100, cacheReadInputTokens: 20 },
        },
        { role: 'assistant', content: 'b', usage: { model: 'gpt-5', totalTokens: 345 } },
      ]),
    );
    expect(s.messages[1]!.usage).toEqual({ input: 100, output: 5, cacheRead: 20, cacheWrite: 0, reasoning: 0 });
    expect(s.messages[2]!.usage).toBeNull();
    expect(s.warnings.map((w) => w.code)).toContain('token_split_unknown');
  });
});

describe('Amp status and identity', () => {
  it('is active only while written and its own last time is recent and the last word is not a final answer', () => {
    const recent = { mtimeMs: NOW - 60_000 };
    const open = thread([{ role: 'user', content: [{ type: 'text', text: 'go' }] }]);
    expect(parse(open, recent).status).toBe('active');
    expect(
      parse(
        thread([
          { role: 'user', content: 'go' },
          { role: 'assistant', content: 'done' },
        ]),
        recent,
      ).status,
    ).toBe('closed');
    // A 2024 thread copied today: the file is new, its own times are not.
    const copied = thread([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'x', input: {} }], usage: { inputTokens: 1, timestamp: '2024-01-01T00:00:00Z' } },
    ]);
    expect(parse(copied, recent).status).toBe('closed');
  });

  it('names a file/id disagreement and refuses documents that are no thread', async () => {
    expect(parse(thread([]), { path: '/h/threads/T-other.json' }).warnings.map((w) => w.code)).toEqual(['id_mismatch']);
    expect((await failure(() => parseAmpThread([1, 2], ctx()))).code).toBe('wrong_shape');
    expect((await failure(() => parseAmpThread({ foo: 1 }, ctx()))).message).toMatch(/unknown field foo/);
  });

  it('reads a file from disk and refuses a broken one with the reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sv-amp-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const good = join(dir, 'T-ok.json');
    writeFileSync(good, JSON.stringify(thread([{ role: 'user', content: 'hello' }], { id: 'T-ok' })));
    expect(valid(await readAmpFile(good)).title).toBe('hello');
    const cut = join(dir, 'T-cut.json');
    writeFileSync(cut, '{"id":"T-cut","messages":[{"role":"user"');
    expect((await failure(() => readAmpFile(cut))).code).toBe('invalid_json');
  });
});
