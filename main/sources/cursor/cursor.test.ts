// Cursor reader edge cases: drifting blocks and lines, the chat store (found by md5, linked, broken), liveness, recognition.
import { DatabaseSync } from 'node:sqlite';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Head } from '../head.ts';
import type { JsonLine } from '../jsonl.ts';
import { valid } from '../../test-support/reader-checks.ts';
import { cursorReader, parseCursor, readCursorFile } from './cursor.ts';
import { decodeMeta, epochIso } from './cursor-store.ts';
import { candidatePaths, md5 } from './cursor-workspace.ts';

const NOW = Date.parse('2026-07-01T12:00:00.000Z');
const tmp = mkdtempSync(join(tmpdir(), 'cursor-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const lines = (...values: unknown[]): JsonLine[] => values.map((value, i) => ({ value, line: i + 1 }));
const say = (role: string, content: unknown) => ({ role, message: { content } });
const parse = (records: JsonLine[], mtimeMs = NOW - 3600_000) =>
  valid(parseCursor(records, { path: '/t/abc.jsonl', size: 1, mtimeMs, warnings: [], now: NOW }));

describe('Cursor transcript lines', () => {
  it('reads drifting block names as calls and results, keeps the text of an unknown block, and warns once per kind', () => {
    const s = parse(
      lines(
        say('user', [{ type: 'text', text: 'go' }]),
        say('assistant', [
          { type: 'thinking', thinking: 'hmm' },
          { type: 'tool-call', toolCallId: 't1', toolName: 'Read', args: { path: 'a' } },
        ]),
        say('user', [{ type: 'tool-result', toolCallId: 't1', content: [{ type: 'text', text: 'file body' }], isError: false }]),
        say('assistant', [{ type: 'citation', text: 'see a' }, { type: 'citation', text: 'see b' }, { type: 'sparkle' }]),
        { type: 'turn_ended', status: 'success' },
        { type: 'heartbeat' },
        say('narrator', 'x'),
      ),
    );
    expect(s.messages.map((m) => m.parts)).toEqual([
      [{ type: 'text', text: 'go' }],
      [
        { type: 'thinking', text: 'hmm', redacted: false },
        { type: 'tool_call', callId: 't1', name: 'Read', input: { path: 'a' } },
      ],
      [{ type: 'tool_result', callId: 't1', output: 'file body', isError: false }],
      [
        { type: 'text', text: 'see a' },
        { type: 'text', text: 'see b' },
      ],
    ]);
    expect(s.warnings.map((w) => w.message)).toEqual([
      'Unknown Cursor transcript line (heartbeat): 1 line ignored.',
      'Unknown Cursor transcript line (role narrator): 1 line ignored.',
      'Unknown Cursor content block "citation" (2 blocks): its text is shown where it has one.',
      'Unknown Cursor content block "sparkle" (1 block): its text is shown where it has one.',
    ]);
  });

  // Shapes from jhlee0409/claude-code-history-viewer's cursor_agent.rs tests (clean_user_text_strips_wrapper_and_context,
  // command_output blocks); the lines here are written for this test.
  it('shows the query alone when Cursor added its context beside it, keeping the context on the message; shows a shell’s output', () => {
    const s = parse(
      lines(
        say('user', [{ type: 'text', text: '<user_query>do something useful</user_query><context>open files: a.rs</context>' }]),
        say('assistant', [{ type: 'command_output', output: '$ cargo build\nCompiling foo v0.1.0\n' }]),
      ),
    );
    expect(s.title).toBe('do something useful');
    expect(s.messages[0]?.parts).toEqual([{ type: 'text', text: 'do something useful' }]);
    expect(s.messages[0]?.annotations).toEqual({ wrapper: 'user_query', context: '<context>open files: a.rs</context>' });
    expect(s.messages[1]?.parts).toEqual([{ type: 'text', text: '$ cargo build\nCompiling foo v0.1.0' }]);
    expect(s.warnings).toEqual([]);
  });

  // Shapes of jazzyalex/agent-sessions' stage0 Cursor fixtures (calls without ids, results naming ids no call has, a
  // model on the line); the lines here are written for this test.
  it('pairs a call that has no id with the result that follows it, in order, and reads a model named on the line', () => {
    const s = parse(
      lines(
        say('user', [{ type: 'text', text: 'what is here?' }]),
        { role: 'assistant', model: 'cursor-auto', message: { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'ls' } }] } },
        say('user', [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'a.txt' }] }]),
        say('assistant', [
          { type: 'tool_use', name: 'Read', input: { path: 'a.txt' } },
          { type: 'tool_use', id: 'known', name: 'Read', input: { path: 'b.txt' } },
        ]),
        say('user', [{ type: 'tool-result', name: 'Read', content: [{ type: 'text', text: 'hello' }] }]),
        say('user', [{ type: 'tool_result', tool_use_id: 'known', content: 'bye' }]),
        say('user', [{ type: 'tool_result', tool_use_id: 'stray', content: 'no call before it' }]),
      ),
    );
    const ids = (type: string) => s.messages.flatMap((m) => m.parts.flatMap((p) => (p.type === type && 'callId' in p ? [p.callId] : [])));
    expect(ids('tool_call')).toEqual(['t1', 'line-4:0', 'known']);
    expect(ids('tool_result')).toEqual(['t1', 'line-4:0', 'known', 'stray']);
    expect(s.messages[1]!.model).toBe('cursor-auto');
    expect(s.model?.name).toBe('cursor-auto');
  });

  it('warns about a line with no content instead of showing an empty message, and refuses a file with no conversation', () => {
    const s = parse(lines(say('user', 'hello'), say('assistant', [])));
    expect([s.messages.length, s.warnings.map((w) => w.code)]).toEqual([1, ['missing_content']]);
    expect(() => parseCursor(lines({ type: 'heartbeat' }), { path: '/t/x.jsonl', size: 1, mtimeMs: 0, warnings: [], now: NOW })).toThrow(
      /no line has a user or assistant role/,
    );
  });

  it('is live only while the file changes and the turn is open', () => {
    expect(parse(lines(say('user', 'go')), NOW - 60_000).status).toBe('active');
    expect(parse(lines(say('user', 'go'), say('assistant', 'done')), NOW - 60_000).status).toBe('unknown');
    expect(parse(lines(say('user', 'go'), { type: 'turn_ended' }), NOW - 60_000).status).toBe('unknown');
    expect(parse(lines(say('user', 'go')), NOW - 3600_000).status).toBe('unknown');
  });

  it('recognises bare role/message lines, not Claude Code records', () => {
    expect(cursorReader.recognizes?.(new Head(`${JSON.stringify(say('user', [{ type: 'text', text: 'x' }]))}\n`, true))).toBe(true);
    expect(cursorReader.recognizes?.(new Head('{"type":"user","role":"user","message":{"content":[]},"uuid":"u"}\n', true))).toBe(false);
  });
});

describe('Cursor chat store', () => {
  const home = join(tmp, 'home', '.cursor');
  const workspace = '/home/dev/my-app.v2';
  const transcript = join(home, 'projects', 'home-dev-my-app-v2', 'agent-transcripts', 'chat-1', 'chat-1.jsonl');
  mkdirSync(join(transcript, '..'), { recursive: true });
  writeFileSync(transcript, `${JSON.stringify(say('user', [{ type: 'text', text: '<user_query>\nShip it\n</user_query>' }]))}\n`);

  function writeStore(dir: string, meta: string | null): string {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'store.db');
    rmSync(path, { force: true });
    const db = new DatabaseSync(path);
    db.exec('CREATE TABLE blobs (id TEXT PRIMARY KEY, data BLOB); CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)');
    if (meta !== null) db.prepare("INSERT INTO meta VALUES ('0', ?)").run(meta);
    db.close();
    return path;
  }
  const hex = (doc: unknown) => Buffer.from(JSON.stringify(doc)).toString('hex');

  it('resolves a dashed folder name to the workspace whose md5 names the chats folder, and reads name, time and model', async () => {
    writeStore(
      join(home, 'chats', md5(workspace), 'chat-1'),
      hex({ agentId: 'chat-1', name: 'Release prep', createdAt: 1_780_000_000, lastUsedModel: 'gpt-5', mode: 'default' }),
    );
    const s = valid(await readCursorFile(transcript, NOW));
    expect([s.title, s.project.path, s.project.name, s.createdAt, s.model?.name]).toEqual([
      'Release prep',
      workspace,
      'my-app.v2',
      '2026-05-28T20:26:40.000Z',
      'gpt-5',
    ]);
  });

  it('says why a store without its meta row is not used', async () => {
    writeStore(join(home, 'chats', md5(workspace), 'chat-1'), null);
    const s = valid(await readCursorFile(transcript, NOW));
    expect([s.title, s.project.path]).toEqual(['Ship it', workspace]);
    expect(s.warnings.map((w) => w.message)).toEqual([
      'The chat store (store.db) cannot be used: its meta table has no row "0"; the session\'s name and model are unknown.',
    ]);
  });

  it('ignores a store linked from outside the Cursor chats folder', async () => {
    const outside = writeStore(join(tmp, 'outside'), hex({ name: 'Not this chat' }));
    const dir = join(home, 'chats', md5(workspace), 'chat-1');
    rmSync(join(dir, 'store.db'));
    symlinkSync(outside, join(dir, 'store.db'));
    const s = valid(await readCursorFile(transcript, NOW));
    expect([s.title, s.sourceFiles.length]).toEqual(['Ship it', 1]);
  });

  it('decodes the meta row in hex or plain JSON and creation times in any unit', () => {
    expect(decodeMeta(hex({ name: 'a', lastUsedModel: 'default' }))).toEqual({ name: 'a', createdAt: null, model: 'default', mode: null });
    expect(decodeMeta('{"name":"b"}').name).toBe('b');
    const iso = '2026-04-07T00:43:10.000Z';
    expect([1775522590, 1775522590000, 1775522590000000, 1775522590000000000].map(epochIso)).toEqual([iso, iso, iso, iso]);
  });

  it('tries plain slashes first, then dashes and dots kept', () => {
    const found = [...candidatePaths('a-b-c')];
    expect(found.slice(0, 3)).toEqual(['/a/b/c', '/a-b/c', '/a.b/c']);
    expect(found).toContain('/a-b.c');
  });
});

describe('Cursor paths', () => {
  it('claims transcripts in agent-transcripts (nested, flat, sub-agents) and nothing else of the Cursor home', () => {
    const p = '/h/.cursor/projects/x/agent-transcripts';
    for (const yes of [`${p}/id1/id1.jsonl`, `${p}/id1.jsonl`, `${p}/id1/subagents/id2.jsonl`]) expect(cursorReader.claims(yes)).toBe(true);
    for (const no of [`${p}/id1/other.jsonl`, '/h/.cursor/projects/x/mcps/tools.json', '/h/.cursor/chats/abc/id1/store.db'])
      expect(cursorReader.claims(no)).toBe(false);
    expect(cursorReader.companion?.('/h/.cursor/projects/x/mcps/tools.json')).toBe(true);
    expect(cursorReader.defaultRoots({}, '/home/u')).toEqual(['/home/u/.cursor/projects', '/home/u/.cursor/chats']);
    expect(cursorReader.resumeCommand({ id: 'c1', isSubAgent: false })).toBe('cursor-agent --resume c1');
  });
});
