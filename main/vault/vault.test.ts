// The vault through the real services: keep survives deletion, annotations, fork, resume, prune, delete/restore, clear.
import { waitFor, waitUntil } from '../test-support/wait-for.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServices, type Services } from '../app/services.ts';
import { jidoSession, vizierSession } from '../test-support/session-files.ts';
import type { AppEvent } from '../../shared/api.ts';

let base: string;
let root: string;
let services: Services;
const jidoFile = () => join(root, '.jido_code', 'sessions', 'j-1.json');
const vizierFile = () => join(root, 'orbit', '.vizier', 'sessions', 'v-1', 'session.json');

const row = async (key: string) => (await services.client.listSessions({})).sessions.find((s) => s.key === key);

async function start() {
  services = createServices({ dataDir: join(base, 'data'), shell: 'cli', extraRoots: [root], discoverDefaults: false });
  await services.start();
  await services.whenScanned();
}

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-vault-'));
  root = join(base, 'root');
  await mkdir(join(root, '.jido_code', 'sessions'), { recursive: true });
  await mkdir(join(root, 'orbit', '.vizier', 'sessions', 'v-1'), { recursive: true });
  await writeFile(jidoFile(), jidoSession('j-1', 'nightly-etl'));
  await writeFile(vizierFile(), vizierSession('v-1'));
  await start();
});

afterEach(async () => {
  await services.close();
  await rm(base, { recursive: true, force: true });
});

describe('keep', () => {
  it('lists a kept session once, marked kept, linked to its live source', async () => {
    const status = await services.client.keepSession({ key: 'jido-code:j-1' });
    expect(status.keptPath).toContain(join('data', 'vault', 'sessions'));
    expect(status.liveSourcePath).toBe(jidoFile());
    const rows = (await services.client.listSessions({})).sessions.filter((s) => s.id === 'j-1');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ key: 'jido-code:j-1', kept: true, sourceGone: false, primaryPath: jidoFile() });
  });

  it('keeps the session readable after its source file is deleted, from the byte-for-byte copy', async () => {
    const status = await services.client.keepSession({ key: 'jido-code:j-1' });
    await rm(jidoFile());
    const kept = await waitFor(async () => {
      const r = await row('jido-code:j-1');
      return r?.sourceGone ? r : undefined;
    });
    expect(kept).toMatchObject({ kept: true, title: 'nightly-etl' });
    const opened = await services.client.getSession({ key: 'jido-code:j-1', messageLimit: 100 });
    expect(opened.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect((await services.client.getVaultStatus({ key: 'jido-code:j-1' })).liveSourcePath).toBeNull();
    const copy = join(status.keptPath!, 'source', ...jidoFile().split('/').filter(Boolean));
    expect(existsSync(copy)).toBe(true);
    expect(existsSync(join(status.keptPath!, 'session.json'))).toBe(true);
  });

  it('leaves no half-made copy behind: a start-up sweep removes staging leftovers older than a minute', async () => {
    await services.close();
    const staging = join(base, 'data', 'vault', '.staging', 'jido-code_j-1.123.abcd');
    await mkdir(staging, { recursive: true });
    const old = new Date(Date.now() - 5 * 60_000);
    await utimes(staging, old, old);
    await start();
    expect(services.startupProblems().join('\n')).toContain('Removed 1 unfinished vault copy');
    expect(await readdir(join(base, 'data', 'vault', '.staging'))).toEqual([]);
  });
});

describe('annotations', () => {
  it('stars, tags and notes a session; the list shows and filters them; they survive the source changing', async () => {
    await services.client.setAnnotations({ key: 'vizier:v-1', starred: true, tags: ['merge', 'flaky', 'merge'], note: 'Ask about the tie-break' });
    expect(await row('vizier:v-1')).toMatchObject({ starred: true, tags: ['flaky', 'merge'], hasNote: true });
    expect((await services.client.listSessions({ starred: true })).sessions.map((s) => s.key)).toEqual(['vizier:v-1']);
    expect((await services.client.listSessions({ tag: 'flaky' })).sessions.map((s) => s.key)).toEqual(['vizier:v-1']);
    expect((await services.client.listSessions({ text: 'flaky' })).sessions.map((s) => s.key)).toEqual(['vizier:v-1']);
    expect((await services.client.listSessions({ text: 'ask about the TIE' })).sessions.map((s) => s.key)).toEqual(['vizier:v-1']);
    await writeFile(vizierFile(), vizierSession('v-1').replace('Tie-break fixed', 'Tie-break fixed again'));
    await waitFor(async () => ((await row('vizier:v-1'))?.outcomeSummary?.includes('again') ? true : undefined));
    expect(await row('vizier:v-1')).toMatchObject({ starred: true, tags: ['flaky', 'merge'] });
    // And across a restart: they are files in the vault.
    await services.close();
    await start();
    expect((await services.client.getVaultStatus({ key: 'vizier:v-1' })).annotations).toMatchObject({ starred: true, note: 'Ask about the tie-break' });
  });
});

describe('fork', () => {
  it('branches a new open vault session from a prior point, linked to its origin', async () => {
    const fork = await services.client.forkSession({ key: 'jido-code:j-1', throughMessage: 0 });
    const opened = await waitFor(async () => {
      const r = await services.dispatch('getSession', { key: fork.key });
      return r.ok ? (r.value as { messagesTotal: number; status: string; config: Array<{ key: string; value: unknown }> }) : undefined;
    });
    expect(opened.messagesTotal).toBe(1);
    expect(opened.status).toBe('open');
    expect(opened.config.find((c) => c.key === 'forked_from')?.value).toBe('jido-code:j-1');
    expect(await row(fork.key)).toMatchObject({ kept: true });
    const tooFar = await services.dispatch('forkSession', { key: 'jido-code:j-1', throughMessage: 9 });
    expect(tooFar.ok || tooFar.error.message).toContain('has 2 messages');
  });
});

describe('resume', () => {
  it('offers the tool command when the project folder exists, and says why not when it does not', async () => {
    const missing = await services.client.getResumeInfo({ key: 'jido-code:j-1' });
    expect(missing).toMatchObject({ available: false, reason: 'The project folder no longer exists: /home/dev/nightly-etl' });
    const project = join(base, 'orbit-checkout');
    await mkdir(project);
    await writeFile(vizierFile(), vizierSession('v-1').replace('/home/dev/orbit', project));
    const ready = await waitFor(async () => {
      const info = await services.client.getResumeInfo({ key: 'vizier:v-1' });
      return info.available ? info : undefined;
    });
    expect(ready).toEqual({ command: 'vizier --session v-1', cwd: project, available: true, reason: null });
    await writeFile(join(base, 'a-file'), 'x');
    await writeFile(vizierFile(), vizierSession('v-1').replace('/home/dev/orbit', join(base, 'a-file')));
    const notDir = await waitFor(async () => {
      const info = await services.client.getResumeInfo({ key: 'vizier:v-1' });
      return info.reason?.startsWith('The project path is not a directory') ? info : undefined;
    });
    expect(notDir.available).toBe(false);
  });
});

describe('resume in a terminal', () => {
  it("starts the chosen terminal in the project folder with the command, and refuses with resume's reason when it is not offered", async () => {
    const refused = await services.dispatch('resumeInTerminal', { key: 'jido-code:j-1' });
    expect(refused).toEqual({ ok: false, error: { code: 'CONFLICT', message: 'The project folder no longer exists: /home/dev/nightly-etl' } });
    const project = join(base, 'orbit-terminal');
    await mkdir(project);
    await writeFile(vizierFile(), vizierSession('v-1').replace('/home/dev/orbit', project));
    await waitFor(async () => ((await services.client.getResumeInfo({ key: 'vizier:v-1' })).available ? true : undefined));
    // A stand-in "terminal" that leaves a mark in the folder it was given.
    const saved = process.env.SESSION_VAULT_TERMINAL;
    process.env.SESSION_VAULT_TERMINAL = 'touch {cwd}/opened-here';
    try {
      expect(await services.client.resumeInTerminal({ key: 'vizier:v-1' })).toEqual({ terminal: 'touch' });
      expect(await waitFor(async () => (existsSync(join(project, 'opened-here')) ? true : undefined))).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.SESSION_VAULT_TERMINAL;
      else process.env.SESSION_VAULT_TERMINAL = saved;
    }
  });
});

describe('prune, delete, restore, clear', () => {
  it('prune lists old kept sessions on a dry run and moves them to the trash for real; restore brings one back', async () => {
    await services.client.keepSession({ key: 'jido-code:j-1' }); // closed 2026-01-02
    const dry = await services.client.pruneVault({ olderThanDays: 1, dryRun: true });
    expect(dry.sessions.map((s) => s.key)).toEqual(['jido-code:j-1']);
    expect((await services.client.getVaultStatus({ key: 'jido-code:j-1' })).keptPath).not.toBeNull();
    const real = await services.client.pruneVault({ olderThanDays: 1, dryRun: false });
    expect(real.sessions).toHaveLength(1);
    expect((await services.client.getVaultStatus({ key: 'jido-code:j-1' })).keptPath).toBeNull();
    expect(existsSync(jidoFile())).toBe(true); // the live source is never touched by prune
    const [trashed] = await services.client.listTrash({});
    expect(trashed).toMatchObject({ key: 'jido-code:j-1', where: 'vault-trash' });
    await services.client.restoreSession({ id: trashed!.id });
    expect((await services.client.getVaultStatus({ key: 'jido-code:j-1' })).keptPath).not.toBeNull();
  });

  it('moving a kept copy to the trash tells the window the session changed, not that it is gone, while its live file stays', async () => {
    await services.client.keepSession({ key: 'jido-code:j-1' });
    const events: AppEvent[] = [];
    const unsubscribe = services.subscribe((e) => void events.push(e));
    try {
      const said = (kind: 'changed' | 'removed') => events.some((e) => e.name === 'sessionsChanged' && e.payload[kind].includes('jido-code:j-1'));
      await services.client.deleteSession({ key: 'jido-code:j-1' });
      await waitUntil(() => said('changed'), 5000, 'the change announced');
      // The vault's watcher sees the copy's folder go as well: give it time to say anything it would.
      await new Promise((r) => setTimeout(r, 1500));
      expect(said('removed')).toBe(false);
      expect(await row('jido-code:j-1')).toMatchObject({ kept: false, primaryPath: jidoFile() });
    } finally {
      unsubscribe();
    }
  });

  it('delete touches a live source only when its files are confirmed one by one', async () => {
    const refused = await services.dispatch('deleteSession', { key: 'vizier:v-1' });
    expect(refused.ok || refused.error.message).toContain('confirmSourceFiles');
    const stray = await services.dispatch('deleteSession', { key: 'vizier:v-1', confirmSourceFiles: [jidoFile()] });
    expect(stray.ok || stray.error.message).toContain('Not a source file of this session');
    expect(existsSync(jidoFile())).toBe(true);
    const done = await services.client.deleteSession({ key: 'vizier:v-1', confirmSourceFiles: [vizierFile()] });
    expect(done.sourceFilesDeleted).toEqual([vizierFile()]);
    expect(existsSync(vizierFile())).toBe(false);
  });

  it('clear all needs the word CLEAR and reports how many sessions went to the trash', async () => {
    await services.client.keepSession({ key: 'jido-code:j-1' });
    await services.client.keepSession({ key: 'vizier:v-1' });
    const unconfirmed = await services.dispatch('clearVault', { confirm: 'yes' });
    expect(unconfirmed.ok || unconfirmed.error.code).toBe('INVALID_INPUT');
    expect(await services.client.clearVault({ confirm: 'CLEAR' })).toEqual({ cleared: 2 });
    expect(await services.client.listTrash({})).toHaveLength(2);
  });
});

describe('auto-keep', () => {
  it('keeps closed sessions once turned on', async () => {
    await services.client.setVaultSettings({ autoKeep: true });
    await waitFor(async () => ((await row('jido-code:j-1'))?.kept ? true : undefined));
    expect((await services.client.getVaultSettings({})).autoKeep).toBe(true);
  });

  it('leaves the setting as it is when a caller sends it as undefined (IPC can)', async () => {
    await services.client.setVaultSettings({ autoKeep: true });
    const answer = await services.dispatch('setVaultSettings', { autoKeep: undefined });
    expect(answer).toEqual({ ok: true, value: { autoKeep: true } });
  });
});

describe('recorded sessions', () => {
  it('lists a session recorded outside a git repository as a vault session', async () => {
    const { openSession } = await import('../recorder/index.ts');
    const { recordedSessionsDir } = await import('../recorder/sessions-dir.ts');
    const rec = await openSession({
      sessionsDir: recordedSessionsDir(join(base, 'data')),
      repo: { root: null, current_branch: null, head_sha: null },
      env: {},
    });
    await rec.append({ role: 'user', content: 'Recorded by a wrapper' });
    await rec.close({ status: 'accepted', summary: 'done' });
    const listed = await waitFor(async () => row(`vizier:${rec.id}`));
    expect(listed).toMatchObject({ title: 'Recorded by a wrapper', kept: true, outcomeStatus: 'accepted' });
  });
});
