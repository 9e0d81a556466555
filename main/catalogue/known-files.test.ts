// The files below a root from folders already listed: the same files, sizes and times a walk of the disk finds (walk.ts), for every root the listing covers.
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { takeSnapshot } from '../cli/scan-snapshot.ts';
import { knownFiles } from './known-files.ts';
import { walkFiles } from './walk.ts';
import { MAX_WALK_DEPTH } from './walk-rules.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-known-'));
  const files = [
    'a/one.jsonl',
    'a/b/two.jsonl',
    'a/node_modules/dep/skipped.jsonl',
    'a/.git/skipped.jsonl',
    // Eleven folders deep: past the walk's depth from `a`, within it from the nested root `a/1/2/3`.
    'a/1/2/3/4/5/6/7/8/9/10/deep.jsonl',
    'a/1/2/3/four.jsonl',
    'other/three.jsonl',
  ];
  for (const file of files) {
    await mkdir(join(dir, file, '..'), { recursive: true });
    await writeFile(join(dir, file), file);
  }
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function walked(root: string, maxDepth = MAX_WALK_DEPTH) {
  const found = [];
  for await (const path of walkFiles(root, () => true, maxDepth)) {
    const s = await stat(path);
    found.push({ path, size: s.size, mtimeMs: s.mtimeMs });
  }
  return found.sort((x, y) => x.path.localeCompare(y.path));
}

it('gives each root the files a walk of it finds, with their sizes and times, for nested roots and skipped folders alike', async () => {
  const roots = [join(dir, 'a'), join(dir, 'a', '1', '2', '3'), join(dir, 'other')];
  // As a full run records them: the roots walked one after the other, a folder walked twice kept once.
  const snapshot = takeSnapshot({ config: '', index: '', roots, defaults: null }, roots, [], Date.now() + 60_000);
  const known = knownFiles(snapshot?.folders ?? []);
  for (const root of roots) {
    const listed = (known.filesUnder(root, MAX_WALK_DEPTH) ?? []).sort((x, y) => x.path.localeCompare(y.path));
    expect(listed).toEqual(await walked(root));
  }
  expect(known.filesUnder(join(dir, 'a'), 1)?.sort((x, y) => x.path.localeCompare(y.path))).toEqual(await walked(join(dir, 'a'), 1));
  expect(known.filesUnder(join(dir, 'a'), MAX_WALK_DEPTH)?.some((f) => f.path.endsWith('deep.jsonl'))).toBe(false);
  expect(known.filesUnder(join(dir, 'a', '1', '2', '3'), MAX_WALK_DEPTH)?.some((f) => f.path.endsWith('deep.jsonl'))).toBe(true);
});

it('knows nothing of a root the listing does not cover: that one is walked', () => {
  const known = knownFiles([[join(dir, 'a'), 1, ['one.jsonl', 1, 1]]]);
  expect(known.filesUnder(join(dir, 'other'), MAX_WALK_DEPTH)).toBeNull();
  expect(known.filesUnder(join(dir, 'a', 'b'), MAX_WALK_DEPTH)).toBeNull();
});

it('leaves a compressed file beside its plain twin to it, as a walk does', () => {
  const known = knownFiles([[join(dir, 'z'), 1, ['rollout-a.jsonl', 5, 1, 'rollout-a.jsonl.zst', 2, 1, 'rollout-b.jsonl.zst', 2, 1]]]);
  expect(known.filesUnder(join(dir, 'z'), MAX_WALK_DEPTH)?.map((f) => f.path)).toEqual([
    join(dir, 'z', 'rollout-a.jsonl'),
    join(dir, 'z', 'rollout-b.jsonl.zst'),
  ]);
});
