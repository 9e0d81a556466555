// Adding folders through the services: a refused folder is a clear error that saves nothing, and never breaks the next add.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyFile, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServices, type Services } from './services.ts';
import { jidoSession } from '../test-support/session-files.ts';
import { samplesDir } from '../test-support/samples.ts';

let base: string;
let dataDir: string;
let services: Services | null;

async function start(): Promise<Services> {
  services = createServices({ dataDir, shell: 'web', discoverDefaults: false });
  await services.start();
  await services.whenScanned();
  return services;
}

async function folderWithSession(name: string): Promise<string> {
  const dir = join(base, name);
  await mkdir(join(dir, '.jido_code', 'sessions'), { recursive: true });
  await writeFile(join(dir, '.jido_code', 'sessions', `${name}.json`), jidoSession(name, name));
  return dir;
}

const savedRoots = async () => readFile(join(dataDir, 'roots.json'), 'utf8').catch(() => null);

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-services-roots-'));
  dataDir = join(base, 'data');
  services = null;
});
afterEach(async () => {
  await services?.close();
  await rm(base, { recursive: true, force: true });
});

describe.runIf(process.platform === 'linux')('adding folders', () => {
  it('refuses /proc as invalid input (not an internal error), saves nothing, and the next add works', async () => {
    const s = await start();
    const first = await folderWithSession('first');
    await s.client.addRoot({ path: first });
    const before = await savedRoots();
    const refused = await s.dispatch('addRoot', { path: '/proc' });
    expect(refused).toEqual({
      ok: false,
      error: { code: 'INVALID_INPUT', message: expect.stringContaining('/proc is inside /proc, a system file system'), field: 'path' },
    });
    expect(await savedRoots()).toBe(before);
    const next = await s.dispatch('addRoot', { path: await folderWithSession('next') });
    expect(next).toMatchObject({ ok: true, value: { sessionCount: 1, error: null } });
    expect((await s.client.listRoots({})).map((r) => r.path)).toEqual([first, join(base, 'next')]);
  });

  it('starts with a /proc saved by an older version left out, and adds the next folder', async () => {
    await mkdir(dataDir, { recursive: true });
    await writeFile(join(dataDir, 'roots.json'), JSON.stringify({ version: 1, roots: [{ path: '/proc', kind: 'user' }] }));
    const s = await start();
    expect(s.startupProblems()).toContainEqual(expect.stringContaining('Left out the saved folder /proc'));
    const added = await s.dispatch('addRoot', { path: await folderWithSession('after') });
    expect(added).toMatchObject({ ok: true, value: { sessionCount: 1 } });
    expect((await s.client.listSessions({})).sessions.map((x) => x.key)).toEqual(['jido-code:after']);
  });
});

describe('why a folder holds unreadable files', () => {
  it('lists, per root, how many files that look like sessions cannot be read and why, a loose one too', async () => {
    const s = await start();
    const dir = await folderWithSession('mixed');
    await writeFile(join(dir, '.jido_code', 'sessions', 'empty-1.json'), '');
    await writeFile(join(dir, '.jido_code', 'sessions', 'empty-2.json'), '');
    // Recognised as JidoCode by its content wherever it lies, and written by a version this app does not read.
    await copyFile(join(samplesDir, 'malformed', 'unknown_future_version__jido_v99.json'), join(dir, 'from a newer jido.json'));
    await writeFile(join(dir, 'package.json'), '{"name":"not-a-session"}');
    const root = await s.client.addRoot({ path: dir });
    expect(root).toMatchObject({ sessionCount: 1, unreadableCount: 3 });
    expect(root.unreadableReasons).toEqual([
      // Each kind names its first file by name, and its row's key opens it.
      { code: 'empty_file', count: 2, example: expect.any(String), file: join('.jido_code', 'sessions', 'empty-1.json'), key: expect.any(String) },
      { code: 'unsupported_version', count: 1, example: expect.stringMatching(/version/i), file: 'from a newer jido.json', key: expect.any(String) },
    ]);
    const rows = (await s.client.listSessions({})).sessions;
    for (const r of root.unreadableReasons) expect(rows.find((x) => x.key === r.key)?.unreadable?.code).toBe(r.code);
    expect((await s.client.listRoots({}))[0]?.unreadableReasons).toEqual(root.unreadableReasons);
  });
});

describe('one definition of a session', () => {
  it("counts a folder's sessions as the list shows them: a sub-agent under its parent, an unreadable file apart", async () => {
    const s = await start();
    const dir = join(base, 'claude');
    await cp(join(samplesDir, 'claude-code', 'projects', '-home-user-src-demo'), join(dir, '.claude', 'projects', '-home-user-src-demo'), { recursive: true });
    await mkdir(join(dir, '.jido_code', 'sessions'), { recursive: true });
    await writeFile(join(dir, '.jido_code', 'sessions', 'empty.json'), '');
    const root = await s.client.addRoot({ path: dir });
    const { sessions } = await s.client.listSessions({});
    const readable = sessions.filter((x) => !x.unreadable);
    expect(readable.some((x) => x.childCount > 0)).toBe(true); // the sample project has a sub-agent
    expect([root.sessionCount, root.unreadableCount]).toEqual([readable.length, sessions.length - readable.length]);
  });
});
