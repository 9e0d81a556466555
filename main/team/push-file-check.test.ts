// The push worker's roots check refuses and accepts exactly what every bundle's check does: links inside a root are followed, and refused when they lead out.
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTSIDE_ROOTS_REASON, SessionFileCheck } from '../roots/session-files.ts';
import { PushFileCheck } from './push-file-check.ts';

describe('PushFileCheck', () => {
  let base: string;
  let root: string;
  let outside: string;

  beforeAll(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'sv-push-check-')));
    root = join(base, 'root');
    outside = join(base, 'elsewhere');
    await mkdir(join(root, 'projects', 'p'), { recursive: true });
    await mkdir(outside, { recursive: true });
    await writeFile(join(root, 'projects', 'p', 'a.jsonl'), '{}\n');
    await writeFile(join(outside, 'secret.jsonl'), '{}\n');
    // A file link and a folder link inside the root, both leading out; a link that stays inside.
    await symlink(join(outside, 'secret.jsonl'), join(root, 'projects', 'p', 'link.jsonl'));
    await symlink(outside, join(root, 'projects', 'away'));
    await symlink(join(root, 'projects', 'p'), join(root, 'projects', 'same'));
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const paths = () => [
    join(root, 'projects', 'p', 'a.jsonl'),
    join(root, 'projects', 'p', 'link.jsonl'),
    join(root, 'projects', 'away', 'secret.jsonl'),
    join(root, 'projects', 'same', 'a.jsonl'),
    join(root, 'projects', 'p', 'not-written-yet.jsonl'),
    `${root}/projects/p/../../../elsewhere/secret.jsonl`,
    join(outside, 'secret.jsonl'),
  ];

  it('refuses a link inside a root that leads out (to a file or through a folder), and accepts what lies inside', async () => {
    const check = new PushFileCheck([root]);
    const { inside, outside: refused } = await check.partition(paths());
    expect([...inside].sort()).toEqual(
      [join(root, 'projects', 'p', 'a.jsonl'), join(root, 'projects', 'same', 'a.jsonl'), join(root, 'projects', 'p', 'not-written-yet.jsonl')].sort(),
    );
    expect(refused.map((o) => o.path).sort()).toEqual(
      [
        join(root, 'projects', 'p', 'link.jsonl'),
        join(root, 'projects', 'away', 'secret.jsonl'),
        `${root}/projects/p/../../../elsewhere/secret.jsonl`,
        join(outside, 'secret.jsonl'),
      ].sort(),
    );
    expect(new Set(refused.map((o) => o.reason))).toEqual(new Set([OUTSIDE_ROOTS_REASON]));
  });

  it('gives the real paths and the split of the check every bundle uses', async () => {
    const push = new PushFileCheck([root]);
    const bundle = new SessionFileCheck(() => [root]);
    expect(await push.partition(paths())).toEqual(await bundle.partition(paths()));
    for (const path of paths()) expect(await push.realInside(path), path).toBe(await bundle.realInside(path));
    expect(await push.realInside(join(root, 'projects', 'same', 'a.jsonl'))).toBe(join(root, 'projects', 'p', 'a.jsonl'));
  });
});
