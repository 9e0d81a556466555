// The one roots check: real paths on both sides, so a `..` or a link inside a root cannot reach a file outside every root.
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testTempDir } from '../test-support/temp-dir.ts';
import { OUTSIDE_ROOTS_REASON, SessionFileCheck } from './session-files.ts';

describe('SessionFileCheck', () => {
  it('lets in files below a root and refuses escapes by name or by link, with the reason', async () => {
    const base = testTempDir('sv-session-files-');
    const root = join(base, 'root');
    mkdirSync(join(root, 'sub'), { recursive: true });
    writeFileSync(join(root, 'sub', 'a.jsonl'), '{}\n');
    writeFileSync(join(base, 'private.txt'), 'secret');
    symlinkSync(join(base, 'private.txt'), join(root, 'sub', 'link.log'));
    const check = new SessionFileCheck(() => [root]);
    const { inside, outside } = await check.partition([
      join(root, 'sub', 'a.jsonl'),
      join(root, 'sub', '..', '..', 'private.txt'),
      join(root, 'sub', 'link.log'),
    ]);
    expect([...inside]).toEqual([join(root, 'sub', 'a.jsonl')]);
    expect(outside).toEqual([
      { path: join(root, 'sub', '..', '..', 'private.txt'), reason: OUTSIDE_ROOTS_REASON },
      { path: join(root, 'sub', 'link.log'), reason: OUTSIDE_ROOTS_REASON },
    ]);
  });

  it('refuses a whole operation when any one file is outside, naming it, before anything is done', async () => {
    const base = testTempDir('sv-session-files-');
    const root = join(base, 'root');
    mkdirSync(root);
    writeFileSync(join(root, 'a.json'), '{}');
    const check = new SessionFileCheck(() => [root]);
    await expect(check.assertAllInside([join(root, 'a.json'), join(base, 'b.json')], 'delete')).rejects.toMatchObject({
      code: 'OUTSIDE_ROOTS',
      message: `Refusing to delete ${join(base, 'b.json')}: it is outside every known session folder.`,
    });
    await expect(check.assertInside(join(root, 'a.json'), 'read')).resolves.toBe(realpathSync(join(root, 'a.json')));
  });
});
