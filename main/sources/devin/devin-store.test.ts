// Devin stores built for the edge cases: trees with loops, lost tips and parents, images, broken nodes, versions, and rows read back.
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { failure, valid } from '../../test-support/reader-checks.ts';
import { testTempDir } from '../../test-support/temp-dir.ts';
import { devinReader } from './devin.ts';
import { readDevinSession } from './devin-container.ts';
import { DevinDb } from './devin-test-store.ts';

const container = devinReader.container!;
let open: DevinDb | null = null;
function store(): DevinDb {
  open = new DevinDb(testTempDir('sv-devin-'));
  return open;
}
afterEach(() => {
  open?.close();
  open = null;
});

const user = (content: string) => ({ role: 'user', content });
const texts = (s: { messages: Array<{ parts: Array<{ type: string; text?: string }> }> }) =>
  s.messages.map((m) => m.parts.map((p) => p.text ?? p.type).join(' '));

describe('the message tree', () => {
  it('stops at a loop in the parent links with a warning, instead of walking forever', async () => {
    const d = store().session('s', { main_chain_id: 3 });
    d.node('s', 1, 3, user('one')).node('s', 2, 1, user('two')).node('s', 3, 2, user('three'));
    const s = await container.readOne(d.path, 's');
    expect(texts(s)).toEqual(['one', 'two', 'three']);
    expect(s.warnings.map((w) => w.code)).toEqual(['tree_cycle']);
  });

  it('shows the newest branch, saying so, when the tip is missing or names no node; and a chain whose parent is gone from where it starts', async () => {
    const d = store().session('none').session('lost', { main_chain_id: 99 }).session('orphan', { main_chain_id: 2 });
    d.node('none', 1, null, user('a')).node('none', 2, 1, user('b')).node('none', 3, 1, user('c'));
    d.node('lost', 1, null, user('x'));
    d.node('orphan', 2, 1, user('after a deleted node'));
    const none = await container.readOne(d.path, 'none');
    expect(texts(none)).toEqual(['a', 'c']);
    expect(none.warnings[0]!.message).toBe('The session records no main chain; the newest branch (ending at node 3) is shown.');
    expect(none.operations.map((o) => o.id)).toEqual(['node-2']);
    expect((await container.readOne(d.path, 'lost')).warnings[0]!.message).toMatch(/tip \(node 99\) is not in the store/);
    const orphan = await container.readOne(d.path, 'orphan');
    expect([texts(orphan), orphan.warnings.map((w) => w.code)]).toEqual([['after a deleted node'], ['missing_parent']]);
  });

  it('turns inline base64 images into image parts with their type, and keeps a node that is not JSON as stored', async () => {
    const d = store().session('s', { main_chain_id: 3 });
    d.node('s', 1, null, { role: 'user', content: 'see this', images: [{ width: 10, height: 10, base64_data: 'iVBORw0KGgoAAAANSUhEUg' }] });
    d.node('s', 2, 1, { role: 'tool', content: 'screenshot', tool_call_id: 'c1', images: [{ width: 1, height: 1, base64_data: '/9j/4AAQ' }] });
    d.node('s', 3, 2, '{"role": "assistant", "content": "cut');
    const s = valid(await container.readOne(d.path, 's'));
    expect(s.messages.map((m) => m.parts)).toEqual([
      [
        { type: 'text', text: 'see this' },
        { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUg', url: null },
      ],
      [
        { type: 'tool_result', callId: 'c1', output: 'screenshot', isError: null },
        { type: 'image', mediaType: 'image/jpeg', data: '/9j/4AAQ', url: null },
      ],
      [{ type: 'text', text: '{"role": "assistant", "content": "cut' }],
    ]);
    expect(s.warnings.map((w) => w.code)).toEqual(['invalid_json']);
  });

  it('reports an unknown role and an empty message instead of showing them, and makes copied message ids unique', async () => {
    const d = store().session('s', { main_chain_id: 4 });
    d.node('s', 1, null, { message_id: 'm', role: 'user', content: 'first' });
    d.node('s', 2, 1, { role: 'critic', content: 'hmm' });
    d.node('s', 3, 2, { role: 'assistant', content: '', tool_calls: [] });
    d.node('s', 4, 3, { message_id: 'm', role: 'user', content: 'edited' });
    const s = await container.readOne(d.path, 's');
    expect(s.messages.map((m) => m.id)).toEqual(['m', 'm#1']);
    expect(s.warnings.map((w) => w.message)).toEqual([
      'A Devin assistant message (node 3) has no content; it was left out (the raw record is in the file).',
      'Unknown Devin message role "critic": 1 message skipped.',
    ]);
  });
});

describe('listing and rows', () => {
  it("changes a session's version when a node is added or its tip moves, and only that session's", async () => {
    const d = store().session('a', { main_chain_id: 1 }).session('b', { main_chain_id: 1 });
    d.node('a', 1, null, user('hi')).node('b', 1, null, user('hi'));
    const versions = async () => Object.fromEntries((await container.list(d.path)).map((s) => [s.id, s.version]));
    const v1 = await versions();
    d.node('a', 2, 1, user('retry'));
    const v2 = await versions();
    d.db.exec("UPDATE sessions SET main_chain_id = 2, last_activity_at = last_activity_at + 5 WHERE id = 'a'");
    const v3 = await versions();
    expect([v2.a !== v1.a, v2.b === v1.b, v3.a !== v2.a, v3.b === v2.b]).toEqual([true, true, true, true]);
  });

  it('is active while its own last activity is recent', async () => {
    const d = store().session('a', { last_activity_at: 1_786_000_100 });
    expect((await readDevinSession(d.path, 'a', 1_786_000_160_000)).status).toBe('active');
    expect((await readDevinSession(d.path, 'a', 1_786_010_000_000)).status).toBe('unknown');
  });

  it('reads a session back from a store holding only its own rows (what a bundle or kept copy carries)', async () => {
    const d = store().session('a', { main_chain_id: 2, title: 'Mine' }).session('b', { title: 'Other' });
    d.node('a', 1, null, user('mine')).node('a', 2, 1, { role: 'assistant', content: 'ok' }).node('a', 3, 1, { role: 'assistant', content: 'dropped' });
    d.node('b', 1, null, user('private'));
    const rows = await container.rows!(d.path, 'a');
    expect(JSON.stringify(rows)).not.toContain('private');
    const copy = new DevinDb(testTempDir('sv-devin-'), '');
    for (const [table, { columns, rows: byId }] of Object.entries(rows)) {
      copy.db.exec(`CREATE TABLE ${table} (${columns.join(', ')})`);
      for (const row of Object.values(byId))
        copy.db.prepare(`INSERT INTO ${table} VALUES (${columns.map(() => '?').join(', ')})`).run(...columns.map((c) => row[c] ?? null));
    }
    copy.close();
    const original = await container.readOne(d.path, 'a');
    expect({ ...(await container.readOne(copy.path, 'a')), sourceFiles: [] }).toEqual({ ...original, sourceFiles: [] });
  });

  it('says a file that is no Devin store why, and read() on a store of several that each is listed on its own', async () => {
    const junk = join(testTempDir('sv-devin-'), 'sessions.db');
    writeFileSync(junk, 'plain text');
    expect((await failure(() => container.list(junk))).message).toMatch(/SQLite store/);
    const d = store().session('a').session('b');
    expect((await failure(() => devinReader.read(d.path))).message).toBe('This store holds 2 sessions; each is listed on its own.');
  });
});

describe('Devin paths', () => {
  it.each([
    ['/home/u/.local/share/devin/cli/sessions.db', true],
    ['/Users/u/Library/Application Support/devin/cli/sessions.db', true],
    ['/home/u/.local/share/devin/cli/sessions.db-wal', false],
    ['/home/u/.local/share/devin/cli/transcripts/x.json', false],
    ['/home/u/.local/share/goose/sessions/sessions.db', false],
  ])('%s claimed: %s', (path, claimed) => {
    expect(devinReader.claims(path)).toBe(claimed);
  });

  it('looks in both platform folders and resumes by id', () => {
    expect(devinReader.defaultRoots({}, '/home/u')).toEqual(['/home/u/.local/share/devin/cli', '/home/u/Library/Application Support/devin/cli']);
    expect(devinReader.resumeCommand({ id: 'bald-ketch', isSubAgent: false })).toBe('devin --resume bald-ketch');
  });
});
