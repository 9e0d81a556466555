// A bundle opened with the app is announced, handed out once, readable in pieces by its id only, and refused clearly when missing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OpenedBundles } from './opened-bundles.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-opened-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('bundles opened with the app', () => {
  it('announces each file, hands it out once, and reads it back piece by piece', async () => {
    let notified = 0;
    const opened = new OpenedBundles(() => notified++);
    const bytes = Buffer.from('PK\u0003\u0004 a bundle of some bytes');
    await writeFile(join(dir, 'shared work.zip'), bytes);
    expect(await opened.add(join(dir, 'shared work.zip'))).toBeNull();
    expect(notified).toBe(1);
    const [first, ...rest] = opened.take();
    expect(rest).toEqual([]);
    expect(first).toMatchObject({ fileName: 'shared work.zip', size: bytes.length });
    expect(opened.take()).toEqual([]);
    const pieces = [await opened.read(first!.openId, 0, 10), await opened.read(first!.openId, 10, 100)];
    expect(Buffer.concat(pieces.map((p) => Buffer.from(p.data, 'base64')))).toEqual(bytes);
  });

  it('says plainly when the file is missing, a folder or empty, and reads nothing it was not given', async () => {
    const opened = new OpenedBundles(() => undefined);
    await mkdir(join(dir, 'folder.zip'));
    await writeFile(join(dir, 'empty.zip'), '');
    expect(await opened.add(join(dir, 'gone.zip'))).toBe(`${join(dir, 'gone.zip')} does not exist.`);
    expect(await opened.add(join(dir, 'folder.zip'))).toBe(`${join(dir, 'folder.zip')} is not a file.`);
    expect(await opened.add(join(dir, 'empty.zip'))).toBe(`${join(dir, 'empty.zip')} is empty.`);
    expect(opened.take()).toEqual([]);
    await expect(opened.read('0'.repeat(32), 0, 10)).rejects.toThrow('No opened bundle with this id; open the file again.');
  });
});
