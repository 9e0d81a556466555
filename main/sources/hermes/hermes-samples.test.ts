// The Hermes samples (samples/hermes/.hermes: a state.db and two transcripts) read into the facts their files hold.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { samplesDir } from '../../test-support/samples.ts';
import { valid } from '../../test-support/reader-checks.ts';
import { hermesReader } from './hermes.ts';

const home = join(samplesDir, 'hermes', '.hermes');
const store = join(home, 'state.db');
const small = join(home, 'sessions', 'session_20260429_hermes_small.json');
const drift = join(home, 'sessions', 'session_20260429_hermes_schema_drift.json');

describe('Hermes samples', () => {
  it('lists the one session of state.db (its transcript is not in the fixture) with a version', async () => {
    const listed = await hermesReader.container!.list(store);
    expect(listed.map((s) => s.id)).toEqual(['child']);
    expect(listed[0]!.version).toMatch(/^[0-9a-f]{20}$/);
  });

  it('reads the store session: title, Discord source, model, every token kind, the recorded estimate, its absent parent', async () => {
    const s = valid(await hermesReader.container!.readOne(store, 'child'));
    expect(s.key).toBe('hermes:child');
    expect(s.title).toBe('Child Session');
    expect(s.model?.name).toBe('gpt-5.4');
    expect(s.messages.map((m) => [m.role, m.timestamp, m.parts])).toEqual([
      ['user', '2026-05-14T14:00:10.000Z', [{ type: 'text', text: 'state db only has one message' }]],
    ]);
    expect(s.messages[0]!.origin).toEqual({ fileIndex: 0, line: null, pointer: '/rows/messages/1' });
    expect(s.usage).toEqual({ input: 300, output: 70, cacheRead: 20, cacheWrite: 5, reasoning: 9 });
    expect(s.cost).toEqual({ usd: 0.123, estimated: true });
    expect(s.createdAt).toBe('2026-05-14T14:00:00.000Z');
    expect(s.closedAt).toBe('2026-05-14T14:10:00.000Z');
    expect(s.status).toBe('closed');
    // The parent row is not in the store, so it cannot be a compression continuation: kept as the parent.
    expect(s.parentKey).toBe('hermes:parent');
    expect(s.extra).toMatchObject({ platform: 'discord', apiCalls: 4, billing: { costStatus: 'estimated', costSource: 'hermes' } });
    expect(s.warnings).toEqual([]);
    // `read` on the store gives its one session.
    expect((await hermesReader.read(store)).key).toBe('hermes:child');
  });

  it("gives the session's own rows for the raw view and bundles: its sessions row and its one message, nothing else", async () => {
    const rows = await hermesReader.container!.rows!(store, 'child');
    expect(Object.keys(rows)).toEqual(['sessions', 'messages']);
    expect(Object.keys(rows.sessions!.rows)).toEqual(['child']);
    expect(rows.messages!.rows['1']).toMatchObject({ role: 'user', content: 'state db only has one message' });
    expect(hermesReader.container!.isStore!(store)).toBe(true);
    expect(hermesReader.container!.isStore!(small)).toBe(false);
  });

  it('reads the small transcript: two messages, model, project folder, times with their zone', async () => {
    const s = valid(await hermesReader.read(small));
    expect(s.key).toBe('hermes:20260429_hermes_small');
    expect(s.title).toBe('Summarize this directory.');
    expect(s.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(s.model?.name).toBe('claude-sonnet-4-6');
    expect(s.project).toMatchObject({ path: '/tmp/hermes-small', name: 'hermes-small' });
    expect([s.createdAt, s.updatedAt]).toEqual(['2026-04-29T20:00:00.000Z', '2026-04-29T20:00:04.000Z']);
    expect(s.extra.platform).toBe('cli');
    expect(s.usage).toBeNull();
    expect(s.warnings).toEqual([]);
  });

  it('reads the drifted transcript: the tool call paired with its failed result, tags kept, the unknown message field reported', async () => {
    const s = valid(await hermesReader.read(drift));
    expect(s.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(s.messages[1]!.parts).toEqual([
      { type: 'text', text: 'Calling a tool.' },
      { type: 'tool_call', callId: 'call_drift', name: 'memory', input: { query: 'session format' } },
    ]);
    expect(s.messages[2]!.parts).toEqual([{ type: 'tool_result', callId: 'call_drift', output: 'No results.', isError: true }]);
    expect(s.messages[2]!.origin?.pointer).toBe('/messages/2');
    // Times without a zone are Hermes's local wall-clock time.
    expect(s.createdAt).toBe(new Date(2026, 3, 29, 20, 10, 0).toISOString());
    expect(s.updatedAt).toBe(new Date(2026, 3, 29, 20, 10, 8).toISOString());
    expect(s.extra.tags).toEqual(['format-check']);
    expect(s.warnings.map((w) => w.message)).toEqual(['Unknown message field ignored: client_metadata.']);
  });
});
