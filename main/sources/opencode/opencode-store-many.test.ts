// A batch read of a store's sessions (what a scan uses) gives each session exactly as reading it alone does: same bytes, same errors, on the samples and on stores of every shape.
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { samplesDir } from '../../test-support/samples.ts';
import { testTempDir } from '../../test-support/temp-dir.ts';
import { kiloReader } from '../kilo/kilo.ts';
import type { ContainerReader } from '../types.ts';
import { OPENCODE_SCHEMA, createOpenCodeStore, writeSession, type TurnSpec } from './opencode-test-store.ts';
import { openCodeReader } from './opencode.ts';

const container = openCodeReader.container!;
const writers: DatabaseSync[] = [];
afterEach(() => {
  for (const w of writers.splice(0)) w.close();
});

/** Each session as readOne gives it (JSON), or its error's name, code and message. */
async function readAlone(reader: ContainerReader, store: string, ids: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const id of ids) out.set(id, await reader.readOne(store, id).then((s) => JSON.stringify(s), shownError));
  return out;
}

/** The same, read by readMany in batches of `size`; also checks each id is answered exactly once. */
async function readInBatches(reader: ContainerReader, store: string, ids: string[], size: number): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < ids.length; i += size) {
    await reader.readMany!(store, ids.slice(i, i + size), (read) => {
      expect(out.has(read.id)).toBe(false);
      out.set(read.id, 'session' in read ? JSON.stringify(read.session) : shownError(read.error));
    });
  }
  return out;
}

function shownError(err: unknown): string {
  const e = err as { name?: string; code?: string; message?: string };
  return `${e.name} ${e.code} ${e.message}`;
}

const turn = (prompt: string): TurnSpec => ({
  prompt,
  reasoning: `thinking about ${prompt}`,
  tools: [{ tool: 'bash', input: { command: 'npm test' }, output: 'ok' }],
  answer: `done: ${prompt}`,
});

describe('reading many sessions of a store at once', () => {
  it('gives every sample store session byte for byte as reading it alone (OpenCode and Kilo)', async () => {
    const homes = ['a_happy', 'b_subagent_task', 'd_schema_drift', 'g_nested_subagent', 'h_failed_tool', 'j_file_attachment'];
    const stores: Array<[ContainerReader, string]> = [
      [container, join(samplesDir, 'opencode', '.local', 'share', 'opencode', 'opencode.db')],
      ...homes.map((h): [ContainerReader, string] => [
        container,
        join(samplesDir, 'opencode', '_homes', `aiv-${h}`, '.local', 'share', 'opencode', 'opencode.db'),
      ]),
      [kiloReader.container!, join(samplesDir, 'kilo', '.local', 'share', 'kilo', 'kilo.db')],
    ];
    let sessions = 0;
    for (const [reader, store] of stores) {
      const ids = (await reader.list(store)).map((s) => s.id);
      sessions += ids.length;
      expect(await readInBatches(reader, store, ids, 32)).toEqual(await readAlone(reader, store, ids));
    }
    expect(sessions).toBeGreaterThanOrEqual(stores.length);
  });

  it('gives sub-sessions, broken rows, empty sessions and ids the store does not hold as reading each alone does', async () => {
    const path = join(testTempDir('sv-opencode-many-'), 'opencode.db');
    const db = createOpenCodeStore(path);
    writers.push(db);
    for (let i = 0; i < 40; i++) {
      const parentId = i % 7 === 3 ? `ses_${String(i - 1).padStart(3, '0')}` : null;
      const turns = i % 10 === 5 ? [] : Array.from({ length: 1 + (i % 3) }, (_, t) => turn(`task ${i}.${t}`));
      writeSession(db, {
        id: `ses_${String(i).padStart(3, '0')}`,
        title: `Session ${i}`,
        directory: '/home/dev/app',
        startMs: 1767225600000 + i * 3_600_000,
        parentId,
        turns,
      });
    }
    // A part that is not JSON, and a message of a session whose row is gone.
    db.prepare('UPDATE part SET data = ? WHERE rowid = (SELECT min(rowid) FROM part WHERE session_id = ?)').run('{"type":"text"', 'ses_012');
    db.prepare("DELETE FROM session WHERE id = 'ses_020'").run();
    const ids = [...(await container.list(path)).map((s) => s.id), 'ses_020', 'ses_missing'];
    const alone = await readAlone(container, path, ids);
    expect(alone.get('ses_missing')).toMatch(/UnreadableError wrong_shape .*no session ses_missing/);
    for (const size of [1, 7, 64]) expect(await readInBatches(container, path, ids, size)).toEqual(alone);
  });

  it('keeps each session whole where ids sort differently by the column collation than by their bytes', async () => {
    const path = join(testTempDir('sv-opencode-nocase-'), 'opencode.db');
    const db = new DatabaseSync(path);
    writers.push(db);
    // The session ids compare case-blind, the messages' and parts' session ids by their bytes: "ses_B" < "ses_a" only by bytes.
    db.exec(OPENCODE_SCHEMA.replace('CREATE TABLE session (id TEXT PRIMARY KEY,', 'CREATE TABLE session (id TEXT PRIMARY KEY COLLATE NOCASE,'));
    db.prepare("INSERT INTO project (id, worktree, time_created, time_updated) VALUES ('prj_main', '/home/dev/app', 1, 1)").run();
    // One transaction: a store outside WAL mode syncs every statement's write on its own.
    db.exec('BEGIN');
    for (const [i, id] of ['ses_a', 'ses_B', 'ses_c', 'ses_D'].entries())
      writeSession(db, { id, title: id, directory: '/home/dev/app', startMs: 1767225600000 + i * 60_000, turns: [turn(`for ${id}`), turn(`again ${id}`)] });
    db.exec('COMMIT');
    const ids = (await container.list(path)).map((s) => s.id);
    expect(ids).toHaveLength(4);
    const alone = await readAlone(container, path, ids);
    expect(await readInBatches(container, path, ids, 4)).toEqual(alone);
    for (const id of ids) expect(JSON.parse(alone.get(id)!).messages).toHaveLength(4);
  });

  it('puts rows written out of order in the order reading a session alone gives: by time then id, ids by their UTF-8 bytes', async () => {
    const path = join(testTempDir('sv-opencode-order-'), 'opencode.db');
    const db = createOpenCodeStore(path);
    writers.push(db);
    const at = 1767225600000;
    const insertSession = db.prepare(
      "INSERT INTO session (id, project_id, title, directory, time_created, time_updated) VALUES (?, 'prj_main', ?, '/home/dev/app', ?, ?)",
    );
    const insertMessage = db.prepare('INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)');
    const insertPart = db.prepare('INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)');
    // Ids whose UTF-16 order differs from their UTF-8 order (U+FF21 sorts before U+1F600 only by bytes), and messages that
    // tie on time, one whose time is a fraction and one whose time is text (after every number): inserted out of order.
    const partIds: Array<[string, string]> = [
      ['prt_b', 'msg_c'],
      ['prt_a', 'msg_c'],
      ['prt_\u{1F600}', 'msg_b'],
      ['prt_\uFF21', 'msg_b'],
      ['prt_\u00E9', 'msg_a'],
      ['prt_A', 'msg_a'],
    ];
    for (const sessionId of ['ses_1', 'ses_2']) {
      insertSession.run(sessionId, `Order ${sessionId}`, at, at);
      const messages: Array<[string, number | string]> = [
        ['msg_c', at + 2],
        ['msg_b', at + 1],
        ['msg_a', at + 1],
        ['7', at + 1],
        ['msg_z', 1.5],
        ['msg_t', 'later'],
      ];
      // Ids are unique across the store: the second session's carry a suffix.
      const own = (id: string) => (sessionId === 'ses_1' ? id : `${id}~2`);
      for (const [id, time] of messages) {
        insertMessage.run(own(id), sessionId, time, at, JSON.stringify({ role: 'assistant', time: { created: at, completed: at + 5 } }));
        if (id === '7' || id === 'msg_z' || id === 'msg_t')
          insertPart.run(own(`prt_only_${id}`), own(id), sessionId, at, at, JSON.stringify({ type: 'text', text: `only ${id}` }));
      }
      for (const [id, owner] of partIds) {
        insertPart.run(own(id), own(owner), sessionId, at, at, JSON.stringify({ type: 'text', text: `part ${id}` }));
      }
    }
    const ids = ['ses_1', 'ses_2'];
    const alone = await readAlone(container, path, ids);
    expect(await readInBatches(container, path, ids, 2)).toEqual(alone);
    const first = JSON.parse(alone.get('ses_1')!) as { messages: Array<{ id: string; parts: Array<{ text: string }> }> };
    expect(first.messages.map((m) => m.id)).toEqual(['msg_z', '7', 'msg_a', 'msg_b', 'msg_c', 'msg_t']);
    const texts = (id: string) => first.messages.find((m) => m.id === id)!.parts.map((p) => p.text);
    expect(texts('msg_c')).toEqual(['part prt_a', 'part prt_b']);
    expect(texts('msg_b')).toEqual(['part prt_\uFF21', 'part prt_\u{1F600}']);
    expect(texts('msg_a')).toEqual(['part prt_A', 'part prt_\u00E9']);
  });

  it('orders rows as a single read does in a store whose part ids declare a collation', async () => {
    const path = join(testTempDir('sv-opencode-part-nocase-'), 'opencode.db');
    const db = new DatabaseSync(path);
    writers.push(db);
    db.exec(OPENCODE_SCHEMA.replace('CREATE TABLE part (id TEXT PRIMARY KEY,', 'CREATE TABLE part (id TEXT PRIMARY KEY COLLATE NOCASE,'));
    db.prepare("INSERT INTO project (id, worktree, time_created, time_updated) VALUES ('prj_main', '/home/dev/app', 1, 1)").run();
    db.exec('BEGIN');
    writeSession(db, { id: 'ses_n', title: 'Collated parts', directory: '/home/dev/app', startMs: 1767225600000, turns: [turn('first')] });
    const insertPart = db.prepare("INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, 'ses_n', 1, 1, ?)");
    const messageId = (db.prepare("SELECT id FROM message WHERE session_id = 'ses_n' ORDER BY time_created LIMIT 1").get() as { id: string }).id;
    // "prt_B" < "prt_a" by bytes, "prt_a" < "prt_B" case-blind: the collation decides.
    for (const id of ['prt_B', 'prt_a']) insertPart.run(id, messageId, JSON.stringify({ type: 'text', text: `text ${id}` }));
    db.exec('COMMIT');
    const alone = await readAlone(container, path, ['ses_n']);
    expect(await readInBatches(container, path, ['ses_n'], 1)).toEqual(alone);
    const texts = (JSON.parse(alone.get('ses_n')!) as { messages: Array<{ parts: Array<{ text?: string }> }> }).messages[0]!.parts.map((p) => p.text);
    expect(texts.indexOf('text prt_a')).toBeLessThan(texts.indexOf('text prt_B'));
  });

  it('reads a store of an older schema (parts that name only their message) session by session, as alone', async () => {
    const path = join(testTempDir('sv-opencode-old-'), 'opencode.db');
    const db = createOpenCodeStore(path);
    writers.push(db);
    for (let i = 0; i < 5; i++)
      writeSession(db, { id: `ses_${i}`, title: `Old ${i}`, directory: '/home/dev/app', startMs: 1767225600000 + i * 60_000, turns: [turn(`old ${i}`)] });
    db.exec('DROP INDEX part_session_idx; ALTER TABLE part DROP COLUMN session_id');
    const ids = [...(await container.list(path)).map((s) => s.id), 'ses_none'];
    expect(await readInBatches(container, path, ids, 3)).toEqual(await readAlone(container, path, ids));
  });

  it('stops where the caller says, leaving the rest of the batch unread for a later read', async () => {
    const path = join(testTempDir('sv-opencode-stop-'), 'opencode.db');
    const db = createOpenCodeStore(path);
    writers.push(db);
    for (let i = 0; i < 6; i++)
      writeSession(db, { id: `ses_${i}`, title: `Stop ${i}`, directory: '/home/dev/app', startMs: 1767225600000 + i * 60_000, turns: [turn(`stop ${i}`)] });
    const ids = (await container.list(path)).map((s) => s.id);
    const given: string[] = [];
    await container.readMany!(path, ids, (read) => (given.push(read.id), given.length < 2));
    expect(given).toHaveLength(2);
    const rest = ids.filter((id) => !given.includes(id));
    expect(await readInBatches(container, path, rest, 32)).toEqual(await readAlone(container, path, rest));
  });

  it('fails every session of a batch with the reason reading one alone gives when the file is no store', async () => {
    const path = join(testTempDir('sv-opencode-gone-'), 'opencode.db');
    const alone = await readAlone(container, path, ['ses_1', 'ses_2']);
    expect(alone.get('ses_1')).toMatch(/UnreadableError io_error/);
    expect(await readInBatches(container, path, ['ses_1', 'ses_2'], 2)).toEqual(alone);
  });
});
