// Goose stores built for the edge cases: versions, usage without a ledger, sub-agents, archived sessions, odd blocks and rows.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { failure, valid } from '../../test-support/reader-checks.ts';
import { testTempDir } from '../../test-support/temp-dir.ts';
import { gooseReader } from './goose.ts';
import { readGooseSession } from './goose-container.ts';
import { GooseDb, MINIMAL_SCHEMA } from './goose-test-store.ts';

const container = gooseReader.container!;
let open: GooseDb | null = null;
function store(schema?: string, wal = false): GooseDb {
  open = new GooseDb(testTempDir('sv-goose-'), schema, wal);
  return open;
}
afterEach(() => {
  open?.close();
  open = null;
});

const text = (t: string) => [{ type: 'text', text: t }];

describe('listing', () => {
  it("changes a session's version when a message or a usage row is added or its row changes, and only that session's", async () => {
    const g = store().session({ id: 'a' }).session({ id: 'b' }).message('a', 'user', text('hi'));
    const versions = async () => Object.fromEntries((await container.list(g.path)).map((s) => [s.id, s.version]));
    const v1 = await versions();
    g.message('a', 'assistant', text('hello'));
    const v2 = await versions();
    g.insert('usage_ledger', { session_id: 'b', created_timestamp: 1, input_tokens: 5 });
    const v3 = await versions();
    g.db.exec("UPDATE sessions SET name = 'Renamed' WHERE id = 'a'");
    const v4 = await versions();
    expect([v2.a !== v1.a, v2.b === v1.b, v3.b !== v2.b, v3.a === v2.a, v4.a !== v3.a]).toEqual([true, true, true, true, true]);
  });

  it("reads rows still in the WAL of a store Goose has open; the store is the session's one file", async () => {
    const g = store(undefined, true).session({ id: 'live', name: 'Live' }).message('live', 'user', text('typing'));
    const s = valid(await container.readOne(g.path, 'live'));
    expect(s.messages).toHaveLength(1);
    expect(s.sourceFiles.map((f) => f.role)).toEqual(['primary']);
  });

  it("says a SQLite file without Goose's tables, or no SQLite at all, is no Goose store; and a session gone is gone", async () => {
    const g = store('CREATE TABLE notes (x TEXT);');
    expect((await failure(() => container.list(g.path))).message).toBe('Not a Goose sessions.db: it has no sessions and messages tables.');
    const junk = join(testTempDir('sv-goose-'), 'sessions.db');
    writeFileSync(junk, 'hello');
    expect((await failure(() => container.list(junk))).message).toMatch(/SQLite store/);
    const h = new GooseDb(testTempDir('sv-goose-')).session({ id: 'x' });
    try {
      expect((await failure(() => container.readOne(h.path, 'nope'))).message).toMatch(/holds no session "nope"/);
    } finally {
      h.close();
    }
  });
});

describe('usage, links and status', () => {
  it('takes the accumulated totals and cost of the session row when there is no usage ledger', async () => {
    const g = store().session({
      id: 'a',
      accumulated_input_tokens: 900,
      accumulated_output_tokens: 100,
      accumulated_cache_read_tokens: 50,
      accumulated_cost: 0.03,
      total_tokens: 700,
    });
    const s = await container.readOne(g.path, 'a');
    expect(s.usage).toEqual({ input: 900, output: 100, cacheRead: 50, cacheWrite: 0, reasoning: 0 });
    expect(s.cost).toEqual({ usd: 0.03, estimated: false });
    expect(s.operations).toEqual([]);
    expect(s.extra.contextTokens).toBe(700);
  });

  it('links a parent to its sub-agents, and closes an archived session', async () => {
    const g = store()
      .session({ id: 'p', archived_at: '2026-01-11 08:00:00' })
      .session({ id: 'c1', session_type: 'sub_agent', parent_session_id: 'p' })
      .session({ id: 'c2', session_type: 'sub_agent', parent_session_id: 'p' });
    const p = await container.readOne(g.path, 'p');
    expect([p.childKeys, p.status, p.closedAt]).toEqual([['goose:c1', 'goose:c2'], 'closed', '2026-01-11T08:00:00.000Z']);
    expect((await container.readOne(g.path, 'c2')).parentKey).toBe('goose:p');
    expect(gooseReader.resumeCommand({ id: 'c2', isSubAgent: true })).toBeNull();
  });

  it('is active while its own newest record is recent', async () => {
    const now = Date.parse('2026-01-10T09:08:00Z');
    const g = store().session({ id: 'a', updated_at: '2026-01-10 09:05:00' });
    expect((await readGooseSession(g.path, 'a', now)).status).toBe('active');
    expect((await readGooseSession(g.path, 'a', now + 3_600_000)).status).toBe('unknown');
  });

  it('reads the minimal schema: no ledger, no type or parent columns', async () => {
    const g = store(MINIMAL_SCHEMA).session({ id: 'm', name: null, description: 'Old one' }).message('m', 'user', text('ask'));
    const s = valid(await container.readOne(g.path, 'm'));
    expect([s.title, s.parentKey, s.childKeys, s.usage]).toEqual(['Old one', null, [], null]);
  });
});

describe('content blocks', () => {
  it("shows a failed call and a failed result as errors, and a tool's images beside its output", async () => {
    const g = store().session({ id: 'a' });
    g.message('a', 'assistant', [{ type: 'toolRequest', id: 'c1', toolCall: { status: 'error', error: 'Could not parse arguments' } }]);
    g.message('a', 'user', [
      { type: 'toolResponse', id: 'c1', toolResult: { status: 'error', error: 'tool not found' } },
      {
        type: 'toolResponse',
        id: 'c2',
        toolResult: {
          status: 'success',
          value: {
            content: [
              { type: 'text', text: 'shot' },
              { type: 'image', data: 'iVBOR', mimeType: 'image/png' },
            ],
            isError: false,
          },
        },
      },
    ]);
    const s = await container.readOne(g.path, 'a');
    expect(s.messages[0]!.parts).toEqual([{ type: 'tool_call', callId: 'c1', name: 'invalid tool call', input: { error: 'Could not parse arguments' } }]);
    expect(s.messages[1]!.role).toBe('tool');
    expect(s.messages[1]!.parts).toEqual([
      { type: 'tool_result', callId: 'c1', output: 'tool not found', isError: true },
      { type: 'tool_result', callId: 'c2', output: 'shot', isError: false },
      { type: 'image', mediaType: 'image/png', data: 'iVBOR', url: null },
    ]);
  });

  // agentsview's TestGooseUnknownToolResponseStatusIsNotAHumanMessage: a result still pending is a tool's, not a failure.
  it('shows a result still pending as a tool result with no outcome yet, not as a failure', async () => {
    const g = store().session({ id: 'p' });
    g.message('p', 'user', text('Run the tool.'));
    g.message('p', 'user', [{ type: 'toolResponse', id: 'call-1', toolResult: { status: 'pending' } }]);
    const s = await container.readOne(g.path, 'p');
    expect(s.messages[1]!.role).toBe('tool');
    expect(s.messages[1]!.parts).toEqual([{ type: 'tool_result', callId: 'call-1', output: '(no result: status pending)', isError: null }]);
  });

  it('keeps content that is not JSON as stored, shows a lone notification as a system line, and reports what it leaves out', async () => {
    const g = store().session({ id: 'a' });
    g.message('a', 'assistant', '[{"type":"text","text":"cut', { message_id: 'broken' });
    g.message('a', 'assistant', [{ type: 'systemNotification', msg: 'Extension developer loaded.' }]);
    g.message('a', 'user', []);
    g.message('a', 'moderator', text('x'));
    g.message('a', 'user', text('shown'), { metadata_json: '{"userVisible":true,"agentVisible":false}' });
    const s = await container.readOne(g.path, 'a');
    expect(s.messages.map((m) => [m.role, m.parts, m.annotations ?? null])).toEqual([
      ['assistant', [{ type: 'text', text: '[{"type":"text","text":"cut' }], null],
      ['system', [{ type: 'text', text: 'Extension developer loaded.' }], null],
      ['user', [{ type: 'text', text: 'shown' }], { note: 'Shown to the user only; not sent to the model.' }],
    ]);
    expect(s.warnings.map((w) => w.code)).toEqual(['invalid_json', 'missing_content', 'unknown_record_type']);
  });

  it('reads a session back from a store holding only its own rows (what a bundle or kept copy carries)', async () => {
    const g = store()
      .session({ id: 'a', name: 'Mine', model_config_json: '{"model_name":"gpt-5","temperature":0.2}', provider_name: 'openai' })
      .session({ id: 'b', name: 'Other' });
    g.message('a', 'user', text('mine')).message('b', 'user', text('private'));
    g.insert('usage_ledger', {
      session_id: 'a',
      created_timestamp: 1_768_035_700,
      model: 'gpt-5',
      input_tokens: 10,
      output_tokens: 2,
      cost: 0.001,
      cost_source: 'provider_reported',
    });
    const rows = await container.rows!(g.path, 'a');
    expect(JSON.stringify(rows)).not.toContain('private');
    const copy = new GooseDb(testTempDir('sv-goose-'), '');
    for (const [table, { columns, rows: byId }] of Object.entries(rows)) {
      copy.db.exec(`CREATE TABLE ${table} (${columns.join(', ')})`);
      for (const row of Object.values(byId))
        copy.db.prepare(`INSERT INTO ${table} VALUES (${columns.map(() => '?').join(', ')})`).run(...columns.map((c) => row[c] ?? null));
    }
    copy.close();
    const original = await container.readOne(g.path, 'a');
    expect({ ...(await container.readOne(copy.path, 'a')), sourceFiles: [] }).toEqual({ ...original, sourceFiles: [] });
    expect(original.model).toEqual({ provider: 'openai', name: 'gpt-5', parameters: { temperature: 0.2 } });
  });
});
