// File operations on a session inside a store, through the contract: the raw view shows its rows, keep stores its own rows, delete never touches the store.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyFile, mkdir, readdir, readFile, rename, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { createServices, type Services } from '../app/services.ts';
import { ClientError } from '../../shared/api-client.ts';
import { createOpenCodeStore, writeSession } from '../sources/opencode/opencode-test-store.ts';
import { testTempDir } from '../test-support/temp-dir.ts';

let base: string;
let store: string;
let writer: DatabaseSync;
let services: Services;

const turn = (prompt: string) => ({
  prompt,
  answer: `answered ${prompt}`,
  tools: [{ tool: 'read', input: { filePath: 'src/app.ts' }, output: 'export const app = 1;' }],
});

beforeEach(async () => {
  base = testTempDir('sv-contained-files-');
  const dir = join(base, 'root', '.local', 'share', 'opencode');
  await mkdir(dir, { recursive: true });
  store = join(dir, 'opencode.db');
  writer = createOpenCodeStore(store);
  writeSession(writer, {
    id: 'ses_mine',
    title: 'Fix the parser',
    directory: '/home/dev/harbor-api',
    startMs: 1767225600000,
    turns: [turn('why does the parser fail')],
  });
  writeSession(writer, {
    id: 'ses_other',
    title: 'Someone else',
    directory: '/home/dev/harbor-api',
    startMs: 1767229200000,
    turns: [turn('private notes of another session')],
  });
  services = createServices({ dataDir: join(base, 'data'), shell: 'cli', extraRoots: [join(base, 'root')], discoverDefaults: false, watch: true });
  await services.start();
  await services.whenScanned();
});
afterEach(async () => {
  await services.close();
  writer.close();
});

async function refusal(promise: Promise<unknown>): Promise<ClientError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ClientError);
  return err as ClientError;
}

describe('a session inside a store', () => {
  it('shows its own rows in the raw view, as JSON, and the row behind a message', async () => {
    const opened = await services.client.getSession({ key: 'opencode:ses_mine', messageLimit: 10 });
    const window = await services.client.getRawSource({ key: 'opencode:ses_mine', fileIndex: 0, offset: 0, length: 1 << 20 });
    expect(window.path).toBe(`${store}.ses_mine.session-rows.json`);
    expect(window.truncated).toBe(false);
    const doc = JSON.parse(window.text) as { source: { session: string }; rows: Record<string, Record<string, unknown>> };
    expect(doc.source.session).toBe('ses_mine');
    expect(Object.keys(doc.rows.session ?? {})).toEqual(['ses_mine']);
    expect(Object.keys(doc.rows.message ?? {})).toHaveLength(2);
    // Nothing of the other session, and never the store's bytes.
    expect(window.text).not.toContain('private notes');
    expect(window.text).not.toContain('SQLite format 3');

    const assistant = opened.messages[1]!;
    const record = await services.client.getRawRecord({ key: 'opencode:ses_mine', fileIndex: 0, pointer: assistant.origin?.pointer ?? undefined });
    const row = JSON.parse(record.text) as { id: string; session_id: string; data: { role: string; tokens: { input: number } } };
    expect(row).toMatchObject({ id: assistant.id, session_id: 'ses_mine', data: { role: 'assistant', tokens: { input: 1200 } } });

    // A window that cuts a character in two ends before it.
    const small = await services.client.getRawSource({ key: 'opencode:ses_mine', fileIndex: 0, offset: 0, length: 40 });
    expect(small).toMatchObject({ offset: 0, nextOffset: 40, truncated: true, text: window.text.slice(0, 40) });
  });

  it('passes the roots check by its store’s real path: a store turned into a link to a file outside is refused', async () => {
    const outside = join(testTempDir('sv-outside-'), 'opencode.db');
    writer.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    await copyFile(store, outside);
    // The link replaces the store in one rename: the store's path never disappears, so the watcher cannot drop its
    // sessions meanwhile (a removal seen first made the answer NOT_FOUND on a busy machine).
    await symlink(outside, `${store}.link`);
    await rename(`${store}.link`, store);
    const err = await refusal(services.client.getRawSource({ key: 'opencode:ses_mine', fileIndex: 0, offset: 0, length: 100 }));
    expect(err.code).toBe('OUTSIDE_ROOTS');
    const exported = await services.dispatch('exportBundle', { exportId: 'exp-00000043', keys: ['opencode:ses_mine'] });
    expect(exported.ok ? null : exported.error).toMatchObject({
      code: 'OUTSIDE_ROOTS',
      message: expect.stringContaining('outside every known session folder'),
    });
  });

  it('refuses to delete its source (the store holds every other session) and leaves the store as it was', async () => {
    const before = await stat(store);
    const err = await refusal(services.client.deleteSession({ key: 'opencode:ses_mine', confirmSourceFiles: [store] }));
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.message).toContain(`lives in ${store} together with every other session`);
    expect((await stat(store)).size).toBe(before.size);
    expect((await services.client.listSessions({ limit: 10 })).sessions.map((s) => s.key).sort()).toEqual(['opencode:ses_mine', 'opencode:ses_other']);
  });

  it('keeps its normalized session and its own rows, never the store; the kept copy is listed once the session is gone', async () => {
    const kept = await services.client.keepSession({ key: 'opencode:ses_mine' });
    expect(kept.keptPath).not.toBeNull();
    expect(kept.liveSourcePath).toBe(store);
    const files: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const e of await readdir(dir, { withFileTypes: true })) {
        if (e.isDirectory()) await walk(join(dir, e.name));
        else files.push(join(dir, e.name).slice((kept.keptPath as string).length + 1));
      }
    };
    await walk(kept.keptPath as string);
    expect(files.sort()).toEqual(['meta.json', `source${store}.ses_mine.session-rows.json`, 'session.json'].sort());
    const rows = await readFile(join(kept.keptPath as string, `source${store}.ses_mine.session-rows.json`), 'utf8');
    expect(rows).toContain('why does the parser fail');
    expect(rows).not.toContain('private notes');

    // The agent deletes the session: the vault's copy is listed in its place, read back through the store's reader.
    writer.exec(
      "DELETE FROM part WHERE session_id = 'ses_mine'; DELETE FROM message WHERE session_id = 'ses_mine'; DELETE FROM session WHERE id = 'ses_mine';",
    );
    const mine = async () => (await services.client.listSessions({ limit: 10 })).sessions.find((s) => s.key === 'opencode:ses_mine');
    await expect.poll(async () => (await mine())?.sourceGone, { timeout: 10_000 }).toBe(true);
    expect(await mine()).toMatchObject({ title: 'Fix the parser', messageCount: 2, kept: true });
    const opened = await services.client.getSession({ key: 'opencode:ses_mine', messageLimit: 10 });
    expect(opened.messages.map((m) => m.role)).toEqual(['user', 'assistant']);

    // Deleting the kept copy (no source files named) is allowed: the vault's copy is the vault's own.
    const deleted = await services.client.deleteSession({ key: 'opencode:ses_mine' });
    expect(deleted.trashed).toHaveLength(1);
    expect(deleted.sourceFilesDeleted).toEqual([]);
  });
});
