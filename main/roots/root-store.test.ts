// The roots list: validation with clear errors, atomic persistence, default discovery, hiding, --root.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, readFile, rm, writeFile, readdir, symlink } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { RootStore } from './root-store.ts';
import { AppError } from '../../shared/result.ts';

let base: string;
let dataDir: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-roots-'));
  dataDir = join(base, 'data');
});
afterEach(async () => rm(base, { recursive: true, force: true }));

async function expectAppError(promise: Promise<unknown>, code: string, text: string) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code);
  expect((err as AppError).message).toContain(text);
}

describe('RootStore', () => {
  it('adds a folder, saves it atomically, and finds it again after a restart', async () => {
    const folder = join(base, 'projects');
    await mkdir(folder);
    const store = new RootStore(dataDir);
    await store.load([]);
    const root = await store.add(folder);
    expect(root).toMatchObject({ path: folder, kind: 'user' });
    expect(await readdir(dataDir)).toEqual(['roots.json']); // no temp file left behind
    const again = new RootStore(dataDir);
    await again.load([]);
    expect(again.list().map((r) => r.path)).toEqual([folder]);
  });

  it('adding the same folder twice keeps one entry', async () => {
    const folder = join(base, 'p');
    await mkdir(folder);
    const store = new RootStore(dataDir);
    await store.load([]);
    const a = await store.add(folder);
    const b = await store.add(`${folder}/`);
    expect(b.id).toBe(a.id);
    expect(store.list()).toHaveLength(1);
  });

  it('refuses relative paths, missing folders and files with messages naming the path', async () => {
    const store = new RootStore(dataDir);
    await store.load([]);
    await expectAppError(store.add('relative/dir'), 'INVALID_INPUT', 'must be absolute');
    await expectAppError(store.add(join(base, 'missing')), 'NOT_FOUND', join(base, 'missing'));
    const file = join(base, 'file.txt');
    await writeFile(file, 'x');
    await expectAppError(store.add(file), 'INVALID_INPUT', `Not a folder: ${file}`);
  });

  it('discovers default folders only when they exist, and remembers when the user removes one', async () => {
    const present = join(base, 'home', '.jido_code', 'sessions');
    await mkdir(present, { recursive: true });
    const candidates = [
      { path: present, format: 'jido-code' as const },
      { path: join(base, 'nope'), format: 'jido-code' as const },
    ];
    const store = new RootStore(dataDir);
    await store.load(candidates);
    expect(store.list()).toEqual([expect.objectContaining({ path: present, kind: 'default', format: 'jido-code' })]);
    const [root] = store.list();
    expect(await store.remove(root!.id)).toBe(true);
    const again = new RootStore(dataDir);
    await again.load(candidates);
    expect(again.list()).toEqual([]);
  });

  it('uses --root folders for the run without saving them, and reports bad ones', async () => {
    const folder = join(base, 'cli-root');
    await mkdir(folder);
    const store = new RootStore(dataDir);
    const problems = await store.load([], [folder, join(base, 'absent')]);
    expect(store.list().map((r) => r.path)).toEqual([folder]);
    expect(problems).toEqual([expect.stringContaining('Folder does not exist')]);
    const again = new RootStore(dataDir);
    await again.load([]);
    expect(again.list()).toEqual([]);
  });

  it('survives a corrupt roots file: starts empty and says so', async () => {
    await mkdir(dataDir, { recursive: true });
    await writeFile(join(dataDir, 'roots.json'), '{"version": 1, "roots": [tru');
    const store = new RootStore(dataDir);
    const problems = await store.load([]);
    expect(store.list()).toEqual([]);
    expect(problems[0]).toContain('roots.json');
    expect(await readFile(join(dataDir, 'roots.json'), 'utf8')).toContain('tru'); // not overwritten until the user changes the list
  });

  it('refuses / and /proc (also through a symlink) with a clear reason, saves nothing, and the next add works', async () => {
    const store = new RootStore(dataDir);
    await store.load([]);
    const first = join(base, 'first');
    await mkdir(first);
    await store.add(first);
    const saved = await readFile(join(dataDir, 'roots.json'), 'utf8');
    await expectAppError(store.add('/'), 'INVALID_INPUT', 'root of the file system');
    if (process.platform === 'linux') {
      await expectAppError(store.add('/proc'), 'INVALID_INPUT', 'system file system');
      await expectAppError(store.add('/proc/self'), 'INVALID_INPUT', 'system file system');
      await expectAppError(store.add('/sys'), 'INVALID_INPUT', 'system file system');
    }
    await symlink('/', join(base, 'to-root'));
    await expectAppError(store.add(join(base, 'to-root')), 'INVALID_INPUT', 'root of the file system');
    await expectAppError(store.add(homedir()), 'INVALID_INPUT', 'whole home folder');
    expect(await readFile(join(dataDir, 'roots.json'), 'utf8')).toBe(saved);
    const second = join(base, 'second');
    await mkdir(second);
    await store.add(second);
    expect(store.list().map((r) => r.path)).toEqual([first, second]);
  });

  it('says a name is too long without echoing the path, and saves nothing', async () => {
    const store = new RootStore(dataDir);
    await store.load([]);
    const long = join(base, 'x'.repeat(300));
    const err = await store.add(long).then(
      () => null,
      (e: unknown) => e as AppError,
    );
    expect(err?.code).toBe('INVALID_INPUT');
    expect(err?.message).toContain('too long');
    expect(err?.message).not.toContain(base);
    expect(err?.message).not.toContain('ENAMETOOLONG');
    expect(await readdir(base)).toEqual([]); // no roots.json written
  });

  it('leaves out a saved / or /proc (from an older version) with a problem, and later adds save without it', async () => {
    await mkdir(dataDir, { recursive: true });
    const kept = join(base, 'kept');
    await mkdir(kept);
    await writeFile(
      join(dataDir, 'roots.json'),
      JSON.stringify({
        version: 1,
        roots: [
          { path: '/', kind: 'user' },
          { path: '/proc', kind: 'user' },
          { path: kept, kind: 'user' },
        ],
      }),
    );
    const store = new RootStore(dataDir);
    const problems = await store.load([]);
    expect(store.list().map((r) => r.path)).toEqual([kept]);
    expect(problems).toEqual([expect.stringContaining('Left out the saved folder /'), expect.stringContaining('Left out the saved folder /proc')]);
    const added = join(base, 'added');
    await mkdir(added);
    await store.add(added);
    const file = JSON.parse(await readFile(join(dataDir, 'roots.json'), 'utf8')) as { roots: Array<{ path: string }> };
    expect(file.roots.map((r) => r.path)).toEqual([kept, added]);
  });
});
