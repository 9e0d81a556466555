// The Goose samples (a schema-15 store at the Linux location, a minimal older one at the macOS location) read into the facts their rows hold.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { failure, valid } from '../../test-support/reader-checks.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { gooseReader } from './goose.ts';

const current = join(samplesDir, 'goose', '.local', 'share', 'goose', 'sessions', 'sessions.db');
const minimal = join(samplesDir, 'goose', 'Library', 'Application Support', 'goose', 'sessions', 'sessions.db');
const container = gooseReader.container!;

describe('Goose samples: schema 15', () => {
  it('lists its one session, a sub-agent whose parent is not in the store', async () => {
    expect((await container.list(current)).map((s) => s.id)).toEqual(['child']);
    const s = valid(await gooseReader.read(current));
    expect([s.key, s.title, s.formatVersion, s.parentKey]).toEqual(['goose:child', 'Auth review', 'schema 15', 'goose:parent']);
    expect(s.extra).toEqual({ sessionType: 'sub_agent', mode: 'auto', projectId: 'acme', compactions: 1 });
    expect(s.model).toEqual({ provider: 'anthropic', name: 'claude-sonnet-4-6', parameters: {} });
    expect(s.project).toMatchObject({ path: '/work/acme-app', name: 'acme-app' });
    expect([s.createdAt, s.updatedAt, s.status]).toEqual(['2023-11-14T22:13:00.000Z', '2023-11-14T22:13:31.000Z', 'unknown']);
  });

  it('reads every block type: thinking, the tool call paired with its result, notes, redacted thinking, an image, the agent-only message', async () => {
    const s = await container.readOne(current, 'child');
    expect(s.messages.map((m) => [m.id, m.role])).toEqual([
      ['message-user-1700000000', 'user'],
      ['message-assistant-1700000001', 'assistant'],
      ['message-user-1700000001', 'tool'],
      ['message-assistant-1700000002', 'assistant'],
      ['hidden', 'assistant'],
    ]);
    expect(s.messages[1]!.parts).toEqual([
      { type: 'thinking', text: 'I should inspect auth.go first.', redacted: false },
      { type: 'text', text: 'I will inspect the file.' },
      { type: 'tool_call', callId: 'call-read', name: 'Read', input: { file_path: 'auth.go' } },
    ]);
    expect(s.messages[2]!.parts).toEqual([{ type: 'tool_result', callId: 'call-read', output: 'package auth', isError: null }]);
    expect(s.messages[2]!.annotations).toEqual({ note: 'Action required: Approve the proposed edit.' });
    expect(s.messages[3]!.parts).toEqual([
      { type: 'thinking', text: '', redacted: true },
      { type: 'image', mediaType: null, data: 'do-not-index', url: null },
    ]);
    expect(s.messages[3]!.annotations).toEqual({ note: 'Finished review.' });
    expect(s.messages[4]!.annotations).toEqual({ note: 'Not shown to the user: context given to the agent.' });
    expect(s.messages[0]!.timestamp).toBe('2023-11-14T22:13:20.000Z');
    expect(s.messages[0]!.origin).toEqual({ fileIndex: 0, line: null, pointer: '/rows/messages/1' });
    expect(s.warnings.map((w) => w.message)).toEqual(['Unknown Goose content block "futureContent" (1 block) ignored.']);
  });

  it('counts tokens and cost per request from usage_ledger (one provider-reported, one estimated compaction)', async () => {
    const s = await container.readOne(current, 'child');
    expect(s.operations.map((o) => [o.type, o.name, o.timestamp, o.usage, o.cost, o.origin?.pointer])).toEqual([
      [
        'llm',
        'claude-sonnet-4-6',
        '2023-11-14T22:13:30.000Z',
        { input: 100, output: 20, cacheRead: 30, cacheWrite: 10, reasoning: 0 },
        { usd: 0.0125, estimated: false },
        '/rows/usage_ledger/1',
      ],
      [
        'compaction',
        'claude-sonnet-4-6',
        '2023-11-14T22:13:31.000Z',
        { input: 40, output: 5, cacheRead: 6, cacheWrite: 2, reasoning: 0 },
        { usd: 0.004, estimated: true },
        '/rows/usage_ledger/2',
      ],
    ]);
    expect(s.usage).toEqual({ input: 140, output: 25, cacheRead: 36, cacheWrite: 12, reasoning: 0 });
    expect(s.cost?.usd).toBeCloseTo(0.0165, 10);
    expect(s.cost?.estimated).toBe(true);
  });

  it("gives the session's own rows: its row, its five messages, its two usage rows and the schema version", async () => {
    const rows = await container.rows!(current, 'child');
    expect(Object.fromEntries(Object.entries(rows).map(([t, r]) => [t, Object.keys(r.rows)]))).toEqual({
      sessions: ['child'],
      messages: ['1', '2', '3', '4', '5'],
      usage_ledger: ['1', '2'],
      schema_version: ['15'],
    });
  });
});

describe('Goose samples: the minimal older schema', () => {
  it('lists three sessions and reads each: titles from the name, the description kept, the shell call paired', async () => {
    expect((await container.list(minimal)).map((s) => s.id)).toEqual(['s1', 's2', 's3']);
    const [s1, s2, s3] = await Promise.all(['s1', 's2', 's3'].map(async (id) => valid(await container.readOne(minimal, id))));
    expect([s1!.title, s2!.title, s3!.title]).toEqual(['title-a', 'Goose session s2', 'other']);
    expect(s1!.summary?.overview).toBe('Fix login');
    expect(s1!.formatVersion).toBe('unversioned');
    expect(s1!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(s1!.messages[1]!.parts.at(-1)).toEqual({ type: 'tool_call', callId: 'call1', name: 'developer__shell', input: { command: 'ls' } });
    expect(s1!.messages[2]!.parts).toEqual([{ type: 'tool_result', callId: 'call1', output: 'file.rs', isError: null }]);
    expect([s1!.project.path, s3!.project.path]).toEqual(['/Users/jack/proj', '/Users/jack/other']);
    expect(s2!.messages).toEqual([]);
    expect([s1!.usage, s1!.model]).toEqual([null, null]);
    expect([s1!.createdAt, s1!.updatedAt]).toEqual(['2026-06-20T09:00:00.000Z', '2026-06-21T10:00:00.000Z']);
  });

  it('read() on the store says each of its sessions is listed on its own', async () => {
    expect((await failure(() => gooseReader.read(minimal))).message).toBe('This store holds 3 sessions; each is listed on its own.');
  });
});
