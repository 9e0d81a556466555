// A scan's leftover young generation goes back to the system when the app is idle.
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';

const run = promisify(execFile);

describe('releaseIdleMemory', () => {
  it('shrinks a grown young generation, in a process started without --expose-gc', async () => {
    // A fresh process: the test runner's own heap is not the app's.
    const script = `
      import { getHeapSpaceStatistics } from 'node:v8';
      import { releaseIdleMemory } from ${JSON.stringify(join(import.meta.dirname, 'idle-memory.ts'))};
      const young = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
      // Many short-lived objects that survive a collection or two: what a scan's messages look like to V8.
      const kept = [];
      for (let round = 0; round < 40; round++) {
        const batch = Array.from({ length: 50000 }, (_, i) => ({ i, text: 'entry ' + i + ' of ' + round }));
        kept.push(batch);
        if (kept.length > 4) kept.shift();
      }
      kept.length = 0;
      const before = young();
      await releaseIdleMemory();
      console.log(JSON.stringify({ before, after: young(), exposed: typeof globalThis.gc }));
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
    const { before, after, exposed } = JSON.parse(stdout) as { before: number; after: number; exposed: string };
    expect(before).toBeGreaterThan(8 * 1024 * 1024);
    expect(after).toBeLessThan(before / 2);
    // The app's own global scope gains no gc().
    expect(exposed).toBe('undefined');
  });
});
