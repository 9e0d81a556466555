// state.db as a container: what it lists (and leaves to transcripts), when a version changes, schemas old and new, links and costs.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { failure, valid } from '../../test-support/reader-checks.ts';
import { testTempDir } from '../../test-support/temp-dir.ts';
import { hermesReader } from './hermes.ts';
import { readHermesStoreSession } from './hermes-container.ts';
import { HermesHome, OLD_SCHEMA } from './hermes-test-store.ts';

const container = hermesReader.container!;
let open: HermesHome | null = null;
function home(schema?: string, wal = false): HermesHome {
  open = new HermesHome(testTempDir('sv-hermes-'), schema, wal);
  return open;
}
afterEach(() => {
  open?.close();
  open = null;
});

describe('listing state.db', () => {
  it('lists every session once, leaving out those whose transcript lies beside it (the transcript lists them)', async () => {
    const h = home().session({ id: 'a' }).session({ id: 'b' }).session({ id: 'c' });
    h.transcript('b', { session_id: 'b', messages: [] });
    expect((await container.list(h.dbPath)).map((s) => s.id).sort()).toEqual(['a', 'c']);
  });

  it("changes a session's version when a message is added or its tokens move, and only that session's", async () => {
    const h = home().session({ id: 'a' }).session({ id: 'b' }).message({ session_id: 'a', role: 'user', content: 'hi' });
    const versions = async () => Object.fromEntries((await container.list(h.dbPath)).map((s) => [s.id, s.version]));
    const first = await versions();
    h.message({ session_id: 'a', role: 'assistant', content: 'hello' });
    const second = await versions();
    expect(second.a).not.toBe(first.a);
    expect(second.b).toBe(first.b);
    h.db.exec("UPDATE sessions SET output_tokens = 50 WHERE id = 'b'");
    const third = await versions();
    expect(third.b).not.toBe(second.b);
    expect(third.a).toBe(second.a);
  });

  it("sees rows the agent has only written to its WAL; the store is the session's one file", async () => {
    const h = home(undefined, true).session({ id: 'live', title: 'Live one' }).message({ session_id: 'live', role: 'user', content: 'still typing' });
    const s = valid(await container.readOne(h.dbPath, 'live'));
    expect(s.messages).toHaveLength(1);
    expect(s.sourceFiles.map((f) => [f.path, f.role])).toEqual([[h.dbPath, 'primary']]);
  });

  it("gives one session's own rows, never another's, and reads the same session back from a store holding only them", async () => {
    const h = home()
      .session({ id: 'a', title: 'Mine', input_tokens: 5 })
      .session({ id: 'b', title: 'Not mine' })
      .message({ session_id: 'a', role: 'user', content: 'hello' })
      .message({ session_id: 'b', role: 'user', content: 'private' });
    const rows = await container.rows!(h.dbPath, 'a');
    expect(Object.keys(rows.sessions!.rows)).toEqual(['a']);
    expect(Object.values(rows.messages!.rows).map((r) => r.content)).toEqual(['hello']);
    // A bundle carries these rows; the app writes them into a store of their own, which this reader reads as it read the original.
    const copy = new HermesHome(testTempDir('sv-hermes-'), '');
    for (const [table, { columns, rows: byId }] of Object.entries(rows)) {
      copy.db.exec(`CREATE TABLE ${table} (${columns.join(', ')})`);
      for (const row of Object.values(byId))
        copy.db.prepare(`INSERT INTO ${table} VALUES (${columns.map(() => '?').join(', ')})`).run(...columns.map((c) => row[c] ?? null));
    }
    copy.close();
    const original = await container.readOne(h.dbPath, 'a');
    const fromRows = await container.readOne(copy.dbPath, 'a');
    expect({ ...fromRows, sourceFiles: [] }).toEqual({ ...original, sourceFiles: [] });
    await expect(container.rows!(h.dbPath, 'gone')).rejects.toThrow(/holds no session "gone"/);
  });

  it('reads an early schema without billing, title or end columns', async () => {
    const h = home(OLD_SCHEMA)
      .session({ id: 'old', input_tokens: 10, output_tokens: 4, model: 'gpt-4o' })
      .message({ session_id: 'old', role: 'user', content: 'From long ago' });
    const s = valid(await container.readOne(h.dbPath, 'old'));
    expect(s.title).toBe('From long ago');
    expect(s.usage).toEqual({ input: 10, output: 4, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
    // No recorded cost: the price table's estimate.
    expect(s.cost?.estimated).toBe(true);
    expect(s.status).toBe('unknown');
  });

  it("says a SQLite file without Hermes's tables is not a Hermes store, and a session that is gone is gone", async () => {
    const dir = testTempDir('sv-hermes-');
    const other = join(dir, 'state.db');
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(other);
    db.exec('CREATE TABLE kv (k TEXT, v TEXT)');
    db.close();
    expect((await failure(() => container.list(other))).message).toBe('Not a Hermes state.db: it has no sessions and messages tables.');
    const h = home().session({ id: 'a' });
    expect((await failure(() => container.readOne(h.dbPath, 'zz'))).message).toMatch(/holds no session "zz"/);
  });

  it('read() on a store of several sessions says each is listed on its own', async () => {
    const h = home().session({ id: 'a' }).session({ id: 'b' });
    const err = await failure(() => hermesReader.read(h.dbPath));
    expect([err.code, err.message]).toEqual(['wrong_shape', 'This store holds 2 sessions; each is listed on its own.']);
  });

  it('a file that is not SQLite at all is unreadable with a reason', async () => {
    const dir = testTempDir('sv-hermes-');
    const path = join(dir, 'state.db');
    writeFileSync(path, 'not a database');
    expect((await failure(() => container.list(path))).message).toMatch(/SQLite store/);
  });
});

describe('links between sessions', () => {
  it('tells a delegated sub-agent (started while its parent ran) from a compression continuation (started after it ended)', async () => {
    const h = home()
      .session({ id: 'root', started_at: 1000, ended_at: 2000, end_reason: 'compression' })
      .session({ id: 'helper', parent_session_id: 'root', started_at: 1500, ended_at: 1600 })
      .session({ id: 'next', parent_session_id: 'root', started_at: 2000 });
    for (const id of ['root', 'helper', 'next']) h.message({ session_id: id, role: 'user', content: `in ${id}` });
    const root = valid(await container.readOne(h.dbPath, 'root'));
    expect(root.childKeys).toEqual(['hermes:helper']);
    expect(root.extra.continuedIn).toEqual(['hermes:next']);
    expect(root.status).toBe('compacted');
    const helper = valid(await container.readOne(h.dbPath, 'helper'));
    expect(helper.parentKey).toBe('hermes:root');
    const next = valid(await container.readOne(h.dbPath, 'next'));
    expect(next.parentKey).toBeNull();
    expect(next.extra.continues).toBe('hermes:root');
  });
});

describe('status and cost', () => {
  it('is active while its newest message is recent and the store has no end for it', async () => {
    const now = 1_800_000_000_000;
    const h = home()
      .session({ id: 'a', started_at: now / 1000 - 600 })
      .message({ session_id: 'a', role: 'user', content: 'x', timestamp: now / 1000 - 60 });
    expect((await readHermesStoreSession(h.dbPath, 'a', now)).status).toBe('active');
    expect((await readHermesStoreSession(h.dbPath, 'a', now + 3_600_000)).status).toBe('unknown');
  });

  it.each([
    [
      { actual_cost_usd: 0.5, estimated_cost_usd: 0.7 },
      { usd: 0.5, estimated: false },
    ],
    [
      { cost_status: 'included', cost_source: 'subscription', estimated_cost_usd: 0 },
      { usd: 0, estimated: false },
    ],
    [
      { estimated_cost_usd: 0.25, cost_status: 'estimated' },
      { usd: 0.25, estimated: true },
    ],
    // "included" with no real source is Hermes's default for a model it cannot price: not a known $0.
    [{ cost_status: 'included', cost_source: 'none', model: 'unpriced-model-x' }, null],
  ])('takes the cost Hermes recorded: %j', async (columns, expected) => {
    const h = home().session({ id: 'a', input_tokens: 1000, output_tokens: 100, ...columns });
    expect((await container.readOne(h.dbPath, 'a')).cost).toEqual(expected);
  });
});
