// A session OpenCode migrated from its legacy storage/ tree into its store is listed once, from the store; one the migration skipped stays the tree's.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { testTempDir } from '../../test-support/temp-dir.ts';
import { isRecognitionCandidate } from '../recognize.ts';
import { readers } from '../registry.ts';
import type { Session } from '../../../shared/session.ts';
import { createOpenCodeStore, writeSession } from './opencode-test-store.ts';
import { openCodeReader } from './opencode.ts';

const writers: DatabaseSync[] = [];
afterEach(() => {
  for (const w of writers.splice(0)) w.close();
});

/** A legacy session as OpenCode 1.1 wrote it: its session file, one user message and its text part. */
async function legacySession(data: string, id: string, title: string, prompt: string): Promise<string> {
  const storage = join(data, 'storage');
  const file = join(storage, 'session', 'prj_main', `${id}.json`);
  await mkdir(join(storage, 'session', 'prj_main'), { recursive: true });
  await writeFile(
    file,
    JSON.stringify({ id, projectID: 'prj_main', directory: '/home/dev/harbor-api', title, time: { created: 1767225600000, updated: 1767225660000 } }),
  );
  await mkdir(join(storage, 'message', id), { recursive: true });
  const msg = `msg_${id}`;
  await writeFile(join(storage, 'message', id, `${msg}.json`), JSON.stringify({ id: msg, sessionID: id, role: 'user', time: { created: 1767225600000 } }));
  await mkdir(join(storage, 'part', msg), { recursive: true });
  await writeFile(join(storage, 'part', msg, 'prt_1.json'), JSON.stringify({ id: 'prt_1', type: 'text', text: prompt }));
  return file;
}

/** What the app lists under a data folder: each claimed legacy file read, and each session of the store. */
async function listed(data: string, files: string[]): Promise<Session[]> {
  const sessions: Session[] = [];
  for (const file of files) if (openCodeReader.claims(file)) sessions.push(await openCodeReader.read(file));
  const store = join(data, 'opencode.db');
  if (existsSync(store) && openCodeReader.claims(store)) {
    const container = openCodeReader.container!;
    for (const { id } of await container.list(store)) sessions.push(await container.readOne(store, id));
  }
  return sessions;
}

const turn = (prompt: string) => ({ prompt, answer: 'Done.' });

describe('a session in both the legacy tree and the store', () => {
  it('is listed once, from the store; its legacy file is a companion, neither claimed nor sniffed', async () => {
    const data = join(testTempDir('sv-opencode-migrated-'), 'opencode');
    const migrated = await legacySession(data, 'ses_dup', 'Fix the flaky test', 'Why does the ledger test flake?');
    // The migration skips a session whose project file is missing: only the tree holds it.
    const skipped = await legacySession(data, 'ses_orphan', 'Orphaned', 'Only in the tree');
    const before = await listed(data, [migrated, skipped]);
    expect(before.map((s) => s.key)).toEqual(['opencode:ses_dup', 'opencode:ses_orphan']);

    const db = createOpenCodeStore(join(data, 'opencode.db'));
    writers.push(db);
    writeSession(db, {
      id: 'ses_dup',
      title: 'Fix the flaky test',
      directory: '/home/dev/harbor-api',
      startMs: 1767225600000,
      turns: [turn('Why does the ledger test flake?'), turn('Continued after the upgrade')],
    });

    const after = await listed(data, [migrated, skipped]);
    expect(after.map((s) => s.key).sort()).toEqual(['opencode:ses_dup', 'opencode:ses_orphan']);
    // The store's copy goes on after the migration: the turn taken since is there.
    const dup = after.find((s) => s.key === 'opencode:ses_dup')!;
    expect(dup.messages.filter((m) => m.role === 'user')).toHaveLength(2);
    expect(dup.sourceFiles.map((f) => f.path)).not.toContain(migrated);

    expect(readers.filter((r) => r.claims(migrated))).toEqual([]);
    expect(openCodeReader.companion?.(migrated)).toBe(true);
    expect(isRecognitionCandidate(migrated)).toBe(false);
    expect(openCodeReader.claims(skipped)).toBe(true);
    expect(openCodeReader.companion?.(skipped)).toBe(false);
  });

  it('notices a session the store takes over later, while OpenCode keeps the store open', async () => {
    const data = join(testTempDir('sv-opencode-migrated-'), 'opencode');
    const file = await legacySession(data, 'ses_late', 'Late', 'Migrated later');
    const db = createOpenCodeStore(join(data, 'opencode.db'));
    writers.push(db);
    writeSession(db, { id: 'ses_other', title: 'Other', directory: '/w', startMs: 1767225600000, turns: [turn('Hello')] });
    expect(openCodeReader.claims(file)).toBe(true);
    writeSession(db, { id: 'ses_late', title: 'Late', directory: '/w', startMs: 1767225600000, turns: [turn('Migrated later')] });
    expect(openCodeReader.claims(file)).toBe(false);
    expect((await listed(data, [file])).map((s) => s.key).sort()).toEqual(['opencode:ses_late', 'opencode:ses_other']);
  });

  it('keeps the legacy file when the store beside it is not an OpenCode store or cannot be read', async () => {
    const data = join(testTempDir('sv-opencode-migrated-'), 'opencode');
    const file = await legacySession(data, 'ses_kept', 'Kept', 'Still here');
    await writeFile(join(data, 'opencode.db'), 'not a database');
    expect(openCodeReader.claims(file)).toBe(true);
    expect((await openCodeReader.read(file)).key).toBe('opencode:ses_kept');
  });
});
