// The folder-tree watcher as the catalogue relies on it: files added, changed and removed, folders that appear (with files) or go, depth and skipped folders.
import { waitUntil } from '../test-support/wait-for.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendFile, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { watch } from 'node:fs';
import { FolderTreeWatcher } from './folder-tree-watcher.ts';

let base: string;
let watcher: FolderTreeWatcher | null;
let paths: Set<string>;
let gone: Set<string>;
let errors: Error[];

function start(root: string, options: { depth?: number; recursive?: boolean } = {}): Promise<void> {
  watcher = new FolderTreeWatcher({
    depth: options.depth ?? 8,
    skipDir: (name) => name === 'node_modules',
    onPath: (p) => paths.add(p),
    onFolderGone: (p) => gone.add(p),
    onError: (e) => errors.push(e),
    recursive: options.recursive ?? false,
  });
  return watcher.add(root);
}

/** The watcher's tests name what they wait for first: `until(probe, what)`. */
const until = (probe: () => boolean, what: string, ms = 3000) => waitUntil(probe, ms, what);

let markers = 0;

/**
 * Shows a path was not reported, without waiting a guessed time: a marker file written after it, in the watched
 * root, is reported after whatever the system saw before it (its events come in order), so once the marker is
 * in, nothing written earlier is still on its way.
 */
async function afterEarlierEvents(): Promise<void> {
  const marker = join(base, `marker-${++markers}.jsonl`);
  await writeFile(marker, '{}');
  await until(() => paths.has(marker), 'the marker written last');
}

/** The paths reported, markers left out. */
const reported = () => [...paths].filter((p) => !basename(p).startsWith('marker-'));

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-tree-watch-'));
  await mkdir(join(base, 'a', 'b'), { recursive: true });
  await mkdir(join(base, 'node_modules', 'pkg'), { recursive: true });
  await writeFile(join(base, 'a', 'b', 'old.jsonl'), '{}\n');
  paths = new Set();
  gone = new Set();
  errors = [];
  watcher = null;
});
afterEach(async () => {
  watcher?.close();
  await rm(base, { recursive: true, force: true });
});

describe('one watch per folder', () => {
  it('watches every folder once, none of the skipped ones, and reports nothing at start', async () => {
    await start(base);
    // base, a, a/b: node_modules and its children are skipped.
    expect(watcher?.watchedFolders).toBe(3);
    await afterEarlierEvents();
    expect(reported()).toEqual([]);
  });

  it('reports a file added, appended to, replaced by rename and removed', async () => {
    await start(base);
    const file = join(base, 'a', 'b', 'new.jsonl');
    await writeFile(file, '{}\n');
    await until(() => paths.has(file), 'the new file');
    paths.clear();
    await appendFile(join(base, 'a', 'b', 'old.jsonl'), '{}\n');
    await until(() => paths.has(join(base, 'a', 'b', 'old.jsonl')), 'the append');
    paths.clear();
    await writeFile(`${file}.tmp`, '{"v":2}\n');
    await rename(`${file}.tmp`, file);
    await until(() => paths.has(file), 'the atomic replacement');
    paths.clear();
    await rm(file);
    await until(() => paths.has(file), 'the removal');
    expect(errors).toEqual([]);
  });

  it('a folder that appears is watched, and the files it already holds are reported (a folder renamed into place)', async () => {
    await start(base);
    const staged = join(base, 'staging');
    await mkdir(join(staged, 'deep'), { recursive: true });
    await writeFile(join(staged, 'deep', 'session.json'), '{}');
    const placed = join(base, 'a', 'session-1');
    await rename(staged, placed);
    await until(() => paths.has(join(placed, 'deep', 'session.json')), 'the file inside the placed folder');
    // And it is watched from now on.
    const later = join(placed, 'deep', 'later.json');
    await writeFile(later, '{}');
    await until(() => paths.has(later), 'a file written in it later');
  });

  it('a removed folder is reported once as gone, and its watches end', async () => {
    await start(base);
    const before = watcher?.watchedFolders ?? 0;
    await rm(join(base, 'a'), { recursive: true });
    await until(() => gone.has(join(base, 'a')), 'the removed folder');
    await until(() => watcher?.watchedFolders === before - 2, 'the watches of a and a/b to end');
  });

  it('a removed root is reported as gone', async () => {
    const root = join(base, 'a');
    await start(root);
    await rm(root, { recursive: true });
    await until(() => gone.has(root), 'the root');
  });

  it('does not watch below its depth, nor inside skipped folders', async () => {
    await start(base, { depth: 1 });
    expect(watcher?.watchedFolders).toBe(2); // base and a
    await writeFile(join(base, 'a', 'b', 'too-deep.jsonl'), '{}');
    await writeFile(join(base, 'node_modules', 'pkg', 'x.json'), '{}');
    await writeFile(join(base, 'a', 'shallow.jsonl'), '{}');
    await until(() => paths.has(join(base, 'a', 'shallow.jsonl')), 'the file within depth');
    await afterEarlierEvents();
    expect(reported()).toEqual([join(base, 'a', 'shallow.jsonl')]);
  });

  it('says once, clearly, when the system has no watches left, and keeps the ones it has', async () => {
    let opened = 0;
    const limited = ((...args: Parameters<typeof watch>) => {
      if (++opened > 2) throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), { code: 'ENOSPC' });
      return watch(...args);
    }) as typeof watch;
    watcher = new FolderTreeWatcher({
      depth: 8,
      skipDir: () => false,
      onPath: (p) => paths.add(p),
      onFolderGone: () => {},
      onError: (e) => errors.push(e),
      recursive: false,
      watch: limited,
    });
    await watcher.add(base);
    expect(watcher.watchedFolders).toBe(2);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/limit on watched folders was reached after 2 folders \(ENOSPC\).*fs\.inotify\.max_user_watches/);
  });

  it('a root that does not exist is no error', async () => {
    await start(join(base, 'missing'));
    expect(watcher?.watchedFolders).toBe(0);
    expect(errors).toEqual([]);
  });
});

describe('one recursive watch per root (macOS and Windows; emulated by Node here)', () => {
  it('reports files added and removed below the root, within the depth, and a removed folder as gone', async () => {
    await start(base, { recursive: true });
    expect(watcher?.watchedFolders).toBe(0);
    const file = join(base, 'a', 'b', 'new.jsonl');
    await writeFile(file, '{}\n');
    await until(() => paths.has(file), 'the new file');
    await rm(join(base, 'a'), { recursive: true });
    await until(() => gone.has(join(base, 'a')) || gone.has(join(base, 'a', 'b')), 'the removed folder');
  });

  it('reports nothing below its depth, as the per-folder watch does', async () => {
    await start(base, { depth: 1, recursive: true });
    await writeFile(join(base, 'a', 'b', 'too-deep.jsonl'), '{}');
    await writeFile(join(base, 'a', 'shallow.jsonl'), '{}');
    await until(() => paths.has(join(base, 'a', 'shallow.jsonl')), 'the file within depth');
    await afterEarlierEvents();
    expect(reported()).toEqual([join(base, 'a', 'shallow.jsonl')]);
  });
});
