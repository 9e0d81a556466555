// OpenCode's edge cases: broken and unknown rows, turns still running, archives, streaming part rewrites, what it claims, and the legacy tree's older layout (its figures and endings: opencode-figures.test.ts).
import { describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { testTempDir } from '../../test-support/temp-dir.ts';
import { UnreadableError } from '../types.ts';
import { buildOpenCodeSession } from './opencode-session.ts';
import { loadStoreSession } from './opencode-store.ts';
import { testStoreRows } from './opencode-test-rows.ts';
import { writeSession } from './opencode-test-store.ts';
import { OPENCODE, openCodeReader } from './opencode.ts';

const container = openCodeReader.container!;
const { store, message, part, session } = testStoreRows();

describe('OpenCode rows that are not what the reader expects', () => {
  it('keeps the session when a message or part holds broken JSON or an unknown type, warning about each', async () => {
    const { path, db } = store();
    session(db, 'ses_x', 'Broken rows', 1767225600000);
    message(db, 'msg_1', 'ses_x', 1767225601000, '{"role":"user"');
    message(db, 'msg_2', 'ses_x', 1767225602000, { role: 'assistant', time: { created: 1767225602000, completed: 1767225603000 } });
    part(db, 'prt_1', 'msg_2', 'ses_x', 1767225602001, { type: 'text', text: 'kept' });
    part(db, 'prt_2', 'msg_2', 'ses_x', 1767225602002, { type: 'hologram', beam: 1 });
    part(db, 'prt_3', 'msg_2', 'ses_x', 1767225602003, 'not json');
    message(db, 'msg_3', 'ses_x', 1767225604000, { role: 'narrator', time: { created: 1767225604000 } });
    part(db, 'prt_4', 'msg_3', 'ses_x', 1767225604001, { type: 'text', text: 'who speaks?' });
    const s = await container.readOne(path, 'ses_x');
    expect(s.messages.map((m) => [m.id, m.role, m.parts.map((p) => p.type)])).toEqual([
      ['msg_2', 'assistant', ['text']],
      ['msg_3', 'system', ['text']],
    ]);
    expect(s.warnings.map((w) => w.code).sort()).toEqual(['invalid_json', 'invalid_json', 'unknown_part_type', 'unknown_role']);
    expect(s.warnings.find((w) => w.code === 'unknown_part_type')?.message).toContain('"hologram"');
  });

  // Older OpenCode trees wrote statuses such as "success" (agent-sessions' stage0 legacy fixture); that app shows their output.
  it('shows the output of a tool part whose status OpenCode does not write, as failed when the status or an error says so', async () => {
    const { path, db } = store();
    session(db, 'ses_s', 'Odd statuses', 1767225600000);
    message(db, 'msg_1', 'ses_s', 1767225601000, { role: 'assistant', time: { created: 1767225601000, completed: 1767225605000 } });
    const tool = (id: string, callID: string, state: object) => part(db, id, 'msg_1', 'ses_s', 1767225601001, { type: 'tool', tool: 'bash', callID, state });
    tool('prt_1', 'call_ok', { status: 'success', input: { command: 'ls' }, output: 'a.txt\n' });
    tool('prt_2', 'call_bad', { status: 'failed', input: { command: 'false' }, error: 'exit 1' });
    tool('prt_3', 'call_none', { status: 'queued', input: { command: 'sleep 1' } });
    const s = await container.readOne(path, 'ses_s');
    const results = s.messages[0]!.parts.filter((p) => p.type === 'tool_result');
    expect(results).toEqual([
      { type: 'tool_result', callId: 'call_ok', output: 'a.txt\n', isError: false },
      { type: 'tool_result', callId: 'call_bad', output: 'exit 1', isError: true },
    ]);
    expect(s.warnings.filter((w) => w.code === 'unknown_tool_status').map((w) => [w.message.match(/"\w+"/)?.[0], w.count])).toEqual([
      ['"success"', 1],
      ['"failed"', 1],
      ['"queued"', 1],
    ]);
  });

  it('keeps a tool call’s input as written, and cuts one nested deeper than 32 levels with a warning', async () => {
    const { path, db } = store();
    session(db, 'ses_d', 'Deep input', 1767225600000);
    message(db, 'msg_1', 'ses_d', 1767225601000, { role: 'assistant', time: { created: 1767225601000, completed: 1767225605000 } });
    let deep: unknown = 'bottom';
    for (let i = 0; i < 40; i++) deep = { level: deep };
    const shallow = { command: 'ls', env: { PATH: '/bin' }, args: ['-l', { n: 2, flags: [true, null] }] };
    const tool = (id: string, callID: string, input: unknown) =>
      part(db, id, 'msg_1', 'ses_d', 1767225601001, { type: 'tool', tool: 'bash', callID, state: { status: 'completed', input, output: 'ok' } });
    tool('prt_1', 'call_shallow', shallow);
    part(
      db,
      'prt_2',
      'msg_1',
      'ses_d',
      1767225601002,
      `{"type":"tool","tool":"bash","callID":"call_proto","state":{"status":"completed","input":{"__proto__":{"x":1}},"output":"ok"}}`,
    );
    tool('prt_3', 'call_deep', deep);
    const s = await container.readOne(path, 'ses_d');
    const inputs = s.messages[0]!.parts.flatMap((p) => (p.type === 'tool_call' ? [JSON.stringify(p.input)] : []));
    expect(inputs[0]).toBe(JSON.stringify(shallow));
    expect(inputs[1]).toBe('{"__proto__":{"x":1}}');
    expect(inputs[2]).toContain('[omitted: nested more than 32 levels deep]');
    expect(inputs[2]).not.toContain('bottom');
    expect(s.warnings.filter((w) => w.code === 'too_deep').map((w) => w.message)).toEqual([
      'Field "bash.input" is nested more than 32 levels deep; the deeper part was left out.',
    ]);
  });

  it('points each message at its row, escaping "/" and "~" in its id as a JSON pointer must', async () => {
    const { path, db } = store();
    session(db, 'ses_p', 'Pointers', 1767225600000);
    message(db, 'msg_plain', 'ses_p', 1767225601000, { role: 'user', time: { created: 1767225601000 } });
    part(db, 'prt_1', 'msg_plain', 'ses_p', 1767225601001, { type: 'text', text: 'plain id' });
    message(db, 'msg/a~b', 'ses_p', 1767225602000, { role: 'user', time: { created: 1767225602000 } });
    part(db, 'prt_2', 'msg/a~b', 'ses_p', 1767225602001, { type: 'text', text: 'odd id' });
    const s = await container.readOne(path, 'ses_p');
    expect(s.messages.map((m) => [m.id, m.origin?.pointer])).toEqual([
      ['msg_plain', '/rows/message/msg_plain'],
      ['msg/a~b', '/rows/message/msg~1a~0b'],
    ]);
  });

  it('says a SQLite file that is not an OpenCode store is not one, and that a deleted session is gone', async () => {
    const path = join(testTempDir('sv-opencode-'), 'opencode.db');
    const other = new DatabaseSync(path);
    other.exec('CREATE TABLE notes (body TEXT)');
    other.close();
    await expect(container.list(path)).rejects.toThrow(/Not an OpenCode store/);
    const { path: real } = store();
    await expect(container.readOne(real, 'ses_gone')).rejects.toThrow(/has no session ses_gone/);
  });

  it('reads a store as one file only when it holds exactly one session', async () => {
    const { path, db } = store();
    await expect(openCodeReader.read(path)).rejects.toMatchObject({ code: 'empty_file' });
    session(db, 'ses_a', 'A', 1767225600000);
    expect((await openCodeReader.read(path)).id).toBe('ses_a');
    session(db, 'ses_b', 'B', 1767225700000);
    const failure = await openCodeReader.read(path).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(UnreadableError);
    expect((failure as UnreadableError).message).toBe('This store holds 2 sessions; each is listed on its own.');
  });
});

describe('OpenCode session facts', () => {
  it('is active only while its own last turn is open and recent; archived is closed; idle is open', async () => {
    const { path, db } = store();
    const now = Date.now();
    session(db, 'ses_run', 'Running', now - 60_000);
    message(db, 'msg_r', 'ses_run', now - 30_000, { role: 'assistant', time: { created: now - 30_000 } });
    part(db, 'prt_r', 'msg_r', 'ses_run', now - 29_000, {
      type: 'tool',
      callID: 'c1',
      tool: 'bash',
      state: { status: 'running', input: { command: 'npm test' } },
    });
    session(db, 'ses_old', 'Abandoned mid-turn', now - 86_400_000);
    message(db, 'msg_o', 'ses_old', now - 86_000_000, { role: 'assistant', time: { created: now - 86_000_000 } });
    session(db, 'ses_arch', 'Archived', now - 60_000, { time_archived: now - 1000 });
    message(db, 'msg_a', 'ses_arch', now - 50_000, { role: 'user', time: { created: now - 50_000 } });
    part(db, 'prt_a', 'msg_a', 'ses_arch', now - 50_000, { type: 'text', text: 'hi' });
    const status = async (id: string) => {
      const s = await container.readOne(path, id);
      return [s.status, s.closedAt];
    };
    expect(await status('ses_run')).toEqual(['active', null]);
    expect(await status('ses_old')).toEqual(['open', null]);
    expect(await status('ses_arch')).toEqual(['closed', new Date(now - 1000).toISOString()]);
    // The running tool has a call and no result yet.
    expect((await container.readOne(path, 'ses_run')).messages[0]!.parts.map((p) => p.type)).toEqual(['tool_call']);
  });

  it('changes a session’s version when a part is rewritten as the model streams, and only that session’s', async () => {
    const { path, db } = store();
    writeSession(db, { id: 'ses_1', title: 'One', directory: '/w', startMs: 1767225600000, turns: [{ prompt: 'q', answer: 'a' }] });
    writeSession(db, { id: 'ses_2', title: 'Two', directory: '/w', startMs: 1767229200000, turns: [{ prompt: 'q', answer: 'a' }] });
    const before = new Map((await container.list(path)).map((s) => [s.id, s.version]));
    db.prepare(
      "UPDATE part SET data = json_set(data, '$.text', 'a longer answer'), time_updated = time_updated + 5 WHERE session_id = 'ses_2' AND data LIKE '%\"text\"%a\"%'",
    ).run();
    const after = new Map((await container.list(path)).map((s) => [s.id, s.version]));
    expect(after.get('ses_1')).toBe(before.get('ses_1'));
    expect(after.get('ses_2')).not.toBe(before.get('ses_2'));
  });

  it('gives the raw rows of one session only: its session row, its project, its messages and parts', async () => {
    const { path, db } = store();
    writeSession(db, { id: 'ses_1', title: 'One', directory: '/w', startMs: 1767225600000, turns: [{ prompt: 'mine', answer: 'a' }] });
    writeSession(db, { id: 'ses_2', title: 'Two', directory: '/w', startMs: 1767229200000, turns: [{ prompt: 'not mine', answer: 'b' }] });
    const rows = await container.rows!(path, 'ses_1');
    expect(Object.keys(rows).sort()).toEqual(['message', 'part', 'project', 'session']);
    expect(Object.keys(rows.session!.rows)).toEqual(['ses_1']);
    expect(Object.values(rows.message!.rows).every((r) => r.session_id === 'ses_1')).toBe(true);
    expect(Object.values(rows.part!.rows)).toHaveLength(4);
    expect(JSON.stringify(Object.values(rows.part!.rows))).not.toContain('not mine');
    expect(rows.session!.columns).toContain('time_archived');
  });

  it('builds the same session from the rows whichever way they came (a pure function of them)', async () => {
    const { path, db } = store();
    writeSession(db, { id: 'ses_1', title: 'One', directory: '/w', startMs: 1767225600000, turns: [{ prompt: 'q', answer: 'a' }] });
    const rows = await loadStoreSession(path, 'ses_1', 'OpenCode');
    const now = 1767229200000;
    expect(buildOpenCodeSession(rows, OPENCODE, now)).toEqual(buildOpenCodeSession(await loadStoreSession(path, 'ses_1', 'OpenCode'), OPENCODE, now));
  });
});

describe('what the OpenCode reader claims', () => {
  it('claims the store, its channel stores and the legacy session files; never the WAL, a temp file, messages or parts', () => {
    const data = '/home/ann/.local/share/opencode';
    expect(openCodeReader.claims(`${data}/opencode.db`)).toBe(true);
    expect(openCodeReader.claims(`${data}/opencode-beta.db`)).toBe(true);
    for (const path of [
      `${data}/opencode.db-wal`,
      `${data}/opencode.db-shm`,
      `${data}/opencode-x.db.tmp`,
      `${data}/storage/message/ses_1/msg_1.json`,
      `${data}/storage/part/msg_1/prt_1.json`,
      `${data}/storage/migration`,
      '/home/ann/.local/share/kilo/storage/session/global/ses_1.json',
      '/home/ann/.local/share/kilo/kilo.db',
    ]) {
      expect(openCodeReader.claims(path), path).toBe(false);
    }
    expect(openCodeReader.claims(`${data}/storage/session/proj_1/ses_1.json`)).toBe(true);
    expect(openCodeReader.companion?.(`${data}/storage/part/msg_1/prt_1.json`)).toBe(true);
    expect(openCodeReader.companion?.(`${data}/storage/session/proj_1/ses_1.json`)).toBe(false);
    expect(openCodeReader.container?.isStore?.(`${data}/storage/session/proj_1/ses_1.json`)).toBe(false);
  });

  it('looks where OpenCode keeps its data, honouring OPENCODE_DATA_DIR (a list), OPENCODE_HOME and XDG_DATA_HOME', () => {
    expect(openCodeReader.defaultRoots({}, '/home/ann')).toEqual(['/home/ann/.local/share/opencode']);
    expect(openCodeReader.defaultRoots({ XDG_DATA_HOME: '/xdg' }, '/home/ann')).toEqual(['/xdg/opencode']);
    expect(openCodeReader.defaultRoots({ OPENCODE_HOME: '/oc' }, '/home/ann')).toEqual(['/oc']);
    expect(openCodeReader.defaultRoots({ OPENCODE_DATA_DIR: '/a, /b', OPENCODE_HOME: '/oc' }, '/home/ann')).toEqual(['/a', '/b']);
  });

  it('resumes with opencode --session, the id quoted for the shell', () => {
    expect(openCodeReader.resumeCommand({ id: 'ses_4f2a', isSubAgent: false })).toBe('opencode --session ses_4f2a');
    expect(openCodeReader.resumeCommand({ id: "it's", isSubAgent: true })).toBe(`opencode --session 'it'\\''s'`);
  });
});

describe('the legacy storage/ tree', () => {
  async function tree(): Promise<string> {
    const storage = join(testTempDir('sv-opencode-tree-'), 'opencode', 'storage');
    await mkdir(join(storage, 'session', 'global'), { recursive: true });
    return storage;
  }

  it('finds parts in the older part/<session>/<message>/ layout, and skips a message file that is not JSON with a warning', async () => {
    const storage = await tree();
    const file = join(storage, 'session', 'global', 'ses_old.json');
    await writeFile(file, JSON.stringify({ id: 'ses_old', title: 'Old layout', directory: '/w', time: { created: 1720000000000, updated: 1720000100000 } }));
    await mkdir(join(storage, 'message', 'ses_old'), { recursive: true });
    await writeFile(
      join(storage, 'message', 'ses_old', 'msg_1.json'),
      JSON.stringify({ id: 'msg_1', sessionID: 'ses_old', role: 'user', time: { created: 1720000001000 } }),
    );
    await writeFile(join(storage, 'message', 'ses_old', 'msg_2.json'), '{ torn');
    await mkdir(join(storage, 'part', 'ses_old', 'msg_1'), { recursive: true });
    await writeFile(join(storage, 'part', 'ses_old', 'msg_1', 'prt_1.json'), JSON.stringify({ id: 'prt_1', type: 'text', text: 'from the old layout' }));
    const s = await openCodeReader.read(file);
    expect(s.messages.map((m) => m.parts)).toEqual([[{ type: 'text', text: 'from the old layout' }]]);
    expect(s.warnings.map((w) => w.code)).toEqual(['unreadable_file']);
  });

  // The flat layout (part/<part>.json naming its message in `messageID`) and a user message kept only as its summary,
  // as in jazzyalex/agent-sessions' stage0 `storage_legacy` fixture, which that app's parser reads; this tree is written here.
  it('finds parts kept flat in part/ by the message they name, and shows a part-less prompt from its summary', async () => {
    const storage = await tree();
    const file = join(storage, 'session', 'global', 'ses_flat.json');
    await writeFile(file, JSON.stringify({ id: 'ses_flat', title: 'Flat parts', directory: '/w', time: { created: 1720000000000 } }));
    await mkdir(join(storage, 'message', 'ses_flat'), { recursive: true });
    const msg = (name: string, body: object) => writeFile(join(storage, 'message', 'ses_flat', `${name}.json`), JSON.stringify(body));
    await msg('msg_1', {
      id: 'm_user',
      sessionID: 'ses_flat',
      role: 'user',
      time: { created: 1720000001000 },
      summary: { title: 'Open NOTES.md', body: 'Read the notes and said what they say.' },
    });
    await msg('msg_2', { id: 'm_reply', sessionID: 'ses_flat', role: 'assistant', time: { created: 1720000002000 }, modelID: 'gpt-4o-mini' });
    await mkdir(join(storage, 'part', 'm_elsewhere'), { recursive: true });
    const flat = (name: string, body: object) => writeFile(join(storage, 'part', `${name}.json`), JSON.stringify(body));
    await flat('prt_2', { messageID: 'm_reply', id: 'prt_text', type: 'text', text: 'The notes say hello.' });
    await flat('prt_1', {
      messageID: 'm_reply',
      id: 'prt_tool',
      type: 'tool',
      callID: 'call_1',
      tool: 'bash',
      state: { status: 'completed', input: { command: 'cat NOTES.md' }, output: 'hello\n' },
    });
    await flat('prt_3', { messageID: 'm_other_session', id: 'prt_other', type: 'text', text: 'not this session' });
    const s = await openCodeReader.read(file);
    expect(s.messages.map((m) => [m.role, m.parts.map((p) => (p.type === 'text' ? p.text : p.type))])).toEqual([
      ['user', ['Open NOTES.md']],
      ['assistant', ['tool_call', 'tool_result', 'The notes say hello.']],
    ]);
    expect(s.messages[1]!.parts.filter((p) => p.type === 'tool_call' || p.type === 'tool_result').map((p) => p.callId)).toEqual(['call_1', 'call_1']);
    expect(s.messages[0]!.annotations).toMatchObject({ textFrom: 'summary' });
    expect(s.sourceFiles.map((f) => f.path.slice(storage.length + 1))).toEqual(
      expect.arrayContaining([join('part', 'prt_1.json'), join('part', 'prt_2.json')]),
    );
    expect(s.sourceFiles.some((f) => f.path.endsWith('prt_3.json'))).toBe(false);
  });

  it('never looks outside the tree for an id that names another folder', async () => {
    const storage = await tree();
    const file = join(storage, 'session', 'global', 'ses_evil.json');
    await writeFile(file, JSON.stringify({ id: '../../../../etc', title: 'Walks out', time: { created: 1720000000000 } }));
    await expect(openCodeReader.read(file)).rejects.toThrow(/is not one OpenCode writes/);
  });
});
