// Reading a small file whole (its size and bytes from one open), and the stat/readdir that block in workers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listFolder, readFileUpTo, statPath } from './file-bytes.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-file-bytes-'));
  await writeFile(join(dir, 'small.jsonl'), '{"a":1}\n');
  await writeFile(join(dir, 'empty.jsonl'), '');
  await writeFile(join(dir, 'large.jsonl'), 'x'.repeat(4096));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('readFileUpTo', () => {
  it('gives a small file its size and bytes', async () => {
    const { size, bytes } = await readFileUpTo(join(dir, 'small.jsonl'), 1024);
    expect(size).toBe(8);
    expect(bytes?.toString()).toBe('{"a":1}\n');
  });

  it('gives only the size of a file past the limit, and of an empty file', async () => {
    expect(await readFileUpTo(join(dir, 'large.jsonl'), 1024)).toEqual({ size: 4096, bytes: null });
    expect(await readFileUpTo(join(dir, 'empty.jsonl'), 1024)).toEqual({ size: 0, bytes: null });
  });

  it('throws for a missing file and for a folder', async () => {
    await expect(readFileUpTo(join(dir, 'missing.jsonl'), 1024)).rejects.toThrow(/ENOENT/);
    await expect(readFileUpTo(dir, 1 << 20)).rejects.toThrow(/EISDIR/);
  });
});

describe('statPath and listFolder', () => {
  it('stat a file as fs.stat does, and reject a missing one with its errno code', async () => {
    const [mine, theirs] = await Promise.all([statPath(join(dir, 'small.jsonl')), stat(join(dir, 'small.jsonl'))]);
    expect([mine.size, mine.mtimeMs, mine.isFile()]).toEqual([theirs.size, theirs.mtimeMs, true]);
    await expect(statPath(join(dir, 'missing.jsonl'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('list a folder as fs.readdir does, and reject a missing one with its errno code', async () => {
    expect((await listFolder(dir)).sort()).toEqual((await readdir(dir)).sort());
    await expect(listFolder(join(dir, 'subagents'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
