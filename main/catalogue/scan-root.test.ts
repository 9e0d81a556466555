// One pass over a folder: every claimed file found and reported, unchanged files skipped, large files read last.
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
  it('reads files above the large size after all the others, once beforeLarge has resolved', async () => {
    const { hooks: h, events } = hooks({
      largeAbove: 1000,
      beforeLarge: async () => {
        events.push('before large');
      },
    });
    const result = await scanRoot(dir, h);
    expect(result.seen.size).toBe(3);
    expect(events.slice(0, 2).sort()).toEqual(['read small-a.json', 'read small-b.json']);
    expect(events.slice(2)).toEqual(['before large', 'read big.json']);
  });

  it('reads a large file that is read a piece at a time (a store of many sessions) with the others, holding nothing back', async () => {
    const { hooks: h, events } = hooks({
      largeAbove: 1000,
      beforeLarge: async () => {
        events.push('before large');
      },
      readInPieces: (path) => path.endsWith('big.json'),
    });
    await scanRoot(dir, h);
    // Nothing was large: no wait for beforeLarge (which ends the scan workers and collects the main thread's heap).
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
});
