// One pass over a folder: every claimed file found and reported, unchanged files skipped, large files read in a lane of their own.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanRoot, type ScanHooks } from './scan-root.ts';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-scan-'));
  await writeFile(join(dir, 'small-a.json'), 'a'.repeat(10));
  await writeFile(join(dir, 'big.json'), 'b'.repeat(5000));
  await writeFile(join(dir, 'small-b.json'), 'c'.repeat(20));
  await writeFile(join(dir, 'notes.txt'), 'not a session');
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

function hooks(over: Partial<ScanHooks> = {}): { hooks: ScanHooks; events: string[] } {
  const events: string[] = [];
  const name = (path: string) => path.slice(dir.length + 1);
  return {
    events,
    hooks: {
      claims: (path) => path.endsWith('.json'),
      isFresh: () => false,
      read: async (path) => {
        events.push(`read ${name(path)}`);
        return name(path);
      },
      onKeys: () => undefined,
      stopped: () => false,
      ...over,
    },
  };
}

describe('scanRoot', () => {
  it('reads large files one at a time in a lane of their own, beside the others, the largest first', async () => {
    await writeFile(join(dir, 'bigger.json'), 'd'.repeat(9000));
    await writeFile(join(dir, 'biggest.json'), 'e'.repeat(20000));
    let largeRunning = 0;
    let mostLargeAtOnce = 0;
    // The small files wait for a large read to start: read after all the others (the old order), none would.
    const largeStarted = Promise.withResolvers<void>();
    const { hooks: h, events } = hooks({
      largeAbove: 1000,
      beforeLarge: (bytes) => events.push(`before large ${bytes}`),
      afterLarge: () => events.push('lane idle'),
      othersRead: async () => {
        events.push('others read');
      },
      read: async (path) => {
        const name = path.slice(dir.length + 1);
        if (name.startsWith('small')) await largeStarted.promise;
        else {
          mostLargeAtOnce = Math.max(mostLargeAtOnce, ++largeRunning);
          largeStarted.resolve();
          await new Promise((r) => setTimeout(r, 5));
          largeRunning--;
        }
        events.push(`read ${name}`);
        return name;
      },
    });
    const result = await scanRoot(dir, h);
    expect(result.seen.size).toBe(5);
    expect(mostLargeAtOnce).toBe(1);
    const large = events.filter((e) => e.startsWith('before large')).map((e) => Number(e.split(' ')[2]));
    expect(large).toHaveLength(3);
    // The lane starts once the walk is over, with the largest file.
    expect(large).toEqual([20000, 9000, 5000]);
    expect(events.indexOf('others read')).toBeGreaterThan(events.indexOf('read small-b.json'));
    expect(events.at(-1)).toBe('lane idle');
  });

  it('with largeAfterOthers, reads the large files only after all the others, once othersRead has resolved', async () => {
    const { hooks: h, events } = hooks({
      largeAbove: 1000,
      largeAfterOthers: true,
      othersRead: async () => {
        await new Promise((r) => setTimeout(r, 5));
        events.push('others read');
      },
    });
    await scanRoot(dir, h);
    expect(events.slice(0, 2).sort()).toEqual(['read small-a.json', 'read small-b.json']);
    expect(events.slice(2)).toEqual(['others read', 'read big.json']);
  });

  it('reads every file found before a read failed, then fails the scan with that error', async () => {
    const { hooks: h, events } = hooks({
      read: async (path) => {
        if (path.endsWith('small-a.json')) throw new Error('disk gone');
        events.push(`read ${path.slice(dir.length + 1)}`);
        return null;
      },
    });
    await expect(scanRoot(dir, h)).rejects.toThrow('disk gone');
    expect(events.sort()).toEqual(['read big.json', 'read small-b.json']);
  });

  it('reads a large file that is read a piece at a time (a store of many sessions) with the others, holding nothing back', async () => {
    const { hooks: h, events } = hooks({
      largeAbove: 1000,
      beforeLarge: () => events.push('before large'),
      readInPieces: (path) => path.endsWith('big.json'),
    });
    await scanRoot(dir, h);
    // Nothing was large: no lane, no beforeLarge.
    expect(events.sort()).toEqual(['read big.json', 'read small-a.json', 'read small-b.json']);
  });

  it('reports every file found with its size, unchanged ones as done at once, and each read one when done', async () => {
    const found: Array<[number, boolean]> = [];
    const done: number[] = [];
    const { hooks: h, events } = hooks({
      isFresh: (path) => path.endsWith('small-a.json'),
      found: (bytes, fresh) => found.push([bytes, fresh]),
      done: (bytes) => done.push(bytes),
    });
    await scanRoot(dir, h);
    expect(found.sort((a, b) => a[0] - b[0])).toEqual([
      [10, true],
      [20, false],
      [5000, false],
    ]);
    expect(done.sort((a, b) => a - b)).toEqual([20, 5000]);
    expect(events).not.toContain('read small-a.json');
  });

  it('given the files as they are now, reads them instead of walking the folder: their sizes and times, those it claims', async () => {
    const checked: string[] = [];
    const { hooks: h, events } = hooks({
      isFresh: (path, size, mtimeMs) => (checked.push(`${path.slice(dir.length + 1)} ${size} ${mtimeMs}`), path.endsWith('small-b.json')),
    });
    const known = [
      { path: join(dir, 'small-a.json'), size: 11, mtimeMs: 5 },
      { path: join(dir, 'small-b.json'), size: 20, mtimeMs: 6 },
      { path: join(dir, 'notes.txt'), size: 13, mtimeMs: 7 },
    ];
    const result = await scanRoot(dir, h, undefined, known);
    // big.json is on disk but not in the list: not seen, not read.
    expect([...result.seen].sort()).toEqual([join(dir, 'small-a.json'), join(dir, 'small-b.json')]);
    expect(checked).toEqual(['small-a.json 11 5', 'small-b.json 20 6']);
    expect(events).toEqual(['read small-a.json']);
  });
});
