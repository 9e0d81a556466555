// A transcript with state.db beside it: one session, the transcript's messages with the store's figures, and nothing lost when either breaks.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { failure, valid } from '../../test-support/reader-checks.ts';
import { testTempDir } from '../../test-support/temp-dir.ts';
import { resolveReader } from '../recognize.ts';
import { hermesReader } from './hermes.ts';
import { HermesHome } from './hermes-test-store.ts';

let open: HermesHome | null = null;
afterEach(() => {
  open?.close();
  open = null;
});

const transcript = (id: string, messages: unknown[]) => ({
  session_id: id,
  model: 'gpt-5',
  platform: 'cli',
  session_start: '2026-05-01T10:00:00Z',
  cwd: '/work/app',
  messages,
});
const twoTurns = [
  { role: 'user', content: 'Fix the build' },
  { role: 'assistant', content: 'Done.', reasoning: 'Check the CI log first.' },
];

function storeWith(id: string): HermesHome {
  open = new HermesHome(testTempDir('sv-hermes-'));
  open
    .session({
      id,
      title: 'Build fix',
      input_tokens: 1200,
      output_tokens: 300,
      cache_read_tokens: 50,
      actual_cost_usd: 0.02,
      ended_at: 1_778_767_900,
      billing_provider: 'openrouter',
    })
    .message({ session_id: id, role: 'user', content: 'Fix the build' });
  return open;
}

// The gateway's transcripts (agentsview's hermes_test.go JSONL tests): a session_meta line, then a message per line.
describe('a transcript written a message per line (<id>.jsonl)', () => {
  it('is claimed in sessions/, read with its meta line, its tool calls paired, and listed once beside the store', async () => {
    const id = '20260403_153620_5a3e2ff1';
    const h = storeWith(id);
    const path = join(h.home, 'sessions', `${id}.jsonl`);
    const lines = [
      { role: 'session_meta', platform: 'telegram', model: 'gpt-4', timestamp: '2026-04-03T15:27:00.000000' },
      { role: 'user', content: 'Read main.go', timestamp: '2026-04-03T15:27:21.014566' },
      {
        role: 'assistant',
        content: '',
        reasoning: 'Let me read it.',
        finish_reason: 'tool_calls',
        tool_calls: [{ id: 'tc1', function: { name: 'read_file', arguments: '{"path":"main.go"}' } }],
        timestamp: '2026-04-03T15:27:25.123456',
      },
      { role: 'tool', content: 'package main\n', tool_call_id: 'tc1', timestamp: '2026-04-03T15:27:26.000000' },
    ];
    writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    expect(hermesReader.claims(path)).toBe(true);
    const s = valid(await hermesReader.read(path));
    expect([s.key, s.model?.name, s.title]).toEqual([`hermes:${id}`, 'gpt-4', 'Build fix']);
    expect(s.messages.map((m) => [m.role, m.parts.map((p) => p.type), m.origin?.line])).toEqual([
      ['user', ['text'], 2],
      ['assistant', ['thinking', 'tool_call'], 3],
      ['tool', ['tool_result'], 4],
    ]);
    expect(s.messages[2]?.parts[0]).toMatchObject({ type: 'tool_result', callId: 'tc1', output: 'package main\n' });
    expect(s.usage?.input).toBe(1200);
    // The store's copy of the same session is left to the transcript.
    expect(await hermesReader.container!.list(h.dbPath)).toEqual([]);
  });
});

describe('a session in both stores', () => {
  it("is the transcript's messages with the store's title, tokens, cost and end merged in; the transcript is its one file", async () => {
    const h = storeWith('s1');
    const path = h.transcript('s1', transcript('s1', twoTurns));
    const s = valid(await hermesReader.read(path));
    expect(s.key).toBe('hermes:s1');
    expect(s.formatVersion).toBe('transcript+state.db');
    expect(s.messages.map((m) => m.parts.map((p) => p.type))).toEqual([['text'], ['thinking', 'text']]);
    expect(s.title).toBe('Build fix');
    expect(s.usage).toEqual({ input: 1200, output: 300, cacheRead: 50, cacheWrite: 0, reasoning: 0 });
    expect(s.cost).toEqual({ usd: 0.02, estimated: false });
    expect(s.model).toEqual({ provider: 'openrouter', name: 'gpt-5', parameters: {} });
    expect(s.status).toBe('closed');
    expect(s.project.path).toBe('/work/app');
    // The store holds every other session too: a shared or kept transcript never carries it.
    expect(s.sourceFiles.map((f) => [f.path, f.role])).toEqual([[path, 'primary']]);
    // ... and the store does not list it a second time.
    expect(await hermesReader.container!.list(h.dbPath)).toEqual([]);
  });

  it("takes the store's rows when they hold more messages than the transcript (a transcript that stopped being written)", async () => {
    const h = storeWith('s2');
    h.message({
      session_id: 's2',
      role: 'assistant',
      content: 'Looking',
      tool_calls: JSON.stringify([{ id: 'c1', type: 'function', function: { name: 'terminal', arguments: '{"command":"make"}' } }]),
    });
    h.message({ session_id: 's2', role: 'tool', content: 'ok', tool_call_id: 'c1', tool_name: 'terminal' });
    const path = h.transcript('s2', transcript('s2', [{ role: 'user', content: 'Fix the build' }]));
    const s = valid(await hermesReader.read(path));
    expect(s.extra.messagesFrom).toBe('state.db');
    expect(s.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    // The store is not among the transcript's files, so these messages have no raw record to show.
    expect(s.messages[1]!.origin).toBeNull();
    expect(s.messages[1]!.parts.at(-1)).toEqual({ type: 'tool_call', callId: 'c1', name: 'terminal', input: { command: 'make' } });
  });

  it("shows the store's copy, saying why, when the transcript is broken", async () => {
    const h = storeWith('s3');
    const path = h.transcript('s3', '{"session_id": "s3", "messages": [');
    const s = valid(await hermesReader.read(path));
    expect(s.messages.map((m) => m.parts)).toEqual([[{ type: 'text', text: 'Fix the build' }]]);
    expect(s.warnings.map((w) => w.code)).toEqual(['unreadable_transcript']);
    expect(s.sourceFiles[0]!.path).toBe(path);
  });

  it('reads the transcript alone, with a warning, when state.db beside it is not a Hermes store', async () => {
    const dir = testTempDir('sv-hermes-');
    const home = join(dir, '.hermes');
    mkdirSync(join(home, 'sessions'), { recursive: true });
    writeFileSync(join(home, 'state.db'), 'garbage');
    const path = join(home, 'sessions', 'session_s4.json');
    writeFileSync(path, JSON.stringify(transcript('s4', twoTurns)));
    const s = valid(await hermesReader.read(path));
    expect(s.messages).toHaveLength(2);
    expect(s.warnings.map((w) => w.code)).toEqual(['companion_unreadable']);
  });

  it("a broken transcript with no store copy is unreadable with the transcript's reason", async () => {
    const h = storeWith('other');
    const path = h.transcript('s5', '[1, 2]');
    expect((await failure(() => hermesReader.read(path))).message).toMatch(/Not a Hermes session: the file holds an array/);
  });

  it('ignores a state.db that is a link to a store outside the Hermes home', async () => {
    const outside = storeWith('s6');
    const dir = testTempDir('sv-hermes-');
    const home = join(dir, '.hermes');
    mkdirSync(join(home, 'sessions'), { recursive: true });
    symlinkSync(outside.dbPath, join(home, 'state.db'));
    const path = join(home, 'sessions', 'session_s6.json');
    writeFileSync(path, JSON.stringify(transcript('s6', twoTurns)));
    const s = valid(await hermesReader.read(path));
    expect(s.usage).toBeNull();
    expect(s.sourceFiles).toHaveLength(1);
  });

  it('a transcript copied out of its home is recognised by its content and read on its own, keyed by its session_id', async () => {
    storeWith('s7');
    const loose = join(testTempDir('sv-hermes-'), 'shared-chat.json');
    writeFileSync(loose, JSON.stringify(transcript('s7', twoTurns)));
    expect(hermesReader.claims(loose)).toBe(false);
    const reader = await resolveReader(loose);
    expect(reader?.format).toBe('hermes');
    const s = valid(await reader!.read(loose));
    expect(s.key).toBe('hermes:s7');
    expect(s.usage).toBeNull();
  });
});
