// The walk below a root: every claimed file, none inside skipped or symlinked folders, nothing past the depth.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { walkFiles } from './walk.ts';

describe('walkFiles', async () => {
  const root = await mkdtemp(join(tmpdir(), 'sv-walk-'));
  const outside = await mkdtemp(join(tmpdir(), 'sv-walk-outside-'));
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });
  const files = ['a.jsonl', 'p/b.jsonl', 'p/q/c.jsonl', 'p/q/r/deep.jsonl', 'p/notes.txt', 'node_modules/pkg/x.jsonl', '.git/y.jsonl'];
  for (const f of files) {
    await mkdir(join(root, f, '..'), { recursive: true });
    await writeFile(join(root, f), '{}\n');
  }
  await writeFile(join(outside, 'elsewhere.jsonl'), '{}\n');
  await symlink(outside, join(root, 'linked'));
  const claims = (path: string) => path.endsWith('.jsonl');
  const walked = async (maxDepth?: number) => {
    const found: string[] = [];
    for await (const path of walkFiles(root, claims, maxDepth)) found.push(relative(root, path));
    return found.sort();
  };

  it('finds every claimed file, but none in dependency or VCS folders, and does not follow a symlinked folder', async () => {
    expect(await walked()).toEqual(['a.jsonl', 'p/b.jsonl', 'p/q/c.jsonl', 'p/q/r/deep.jsonl']);
  });

  it('goes no deeper than it is told', async () => {
    expect(await walked(2)).toEqual(['a.jsonl', 'p/b.jsonl', 'p/q/c.jsonl']);
  });

  it('leaves a compressed file beside its plain twin to it (Codex compressing a rollout), and finds one alone', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sv-walk-zst-'));
    try {
      for (const f of ['rollout-a.jsonl', 'rollout-a.jsonl.zst', 'rollout-b.jsonl.zst', 'c.zst', 'c']) await writeFile(join(dir, f), '');
      const found: string[] = [];
      for await (const path of walkFiles(dir, () => true)) found.push(relative(dir, path));
      expect(found.sort()).toEqual(['c', 'c.zst', 'rollout-a.jsonl', 'rollout-b.jsonl.zst']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('finds nothing below a root that does not exist, without throwing', async () => {
    const found: string[] = [];
    for await (const path of walkFiles(join(root, 'missing'), claims)) found.push(path);
    expect(found).toEqual([]);
  });
});
