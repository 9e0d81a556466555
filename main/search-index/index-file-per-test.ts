// Tests of the index on disk: a fresh folder per test for its file, and every index opened there closed afterwards.
import { afterEach, beforeEach } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionIndex } from './index-store.ts';
import type { TidyLimits } from './index-tidy.ts';

export interface IndexFilePerTest {
  /** This test's index file (it does not exist until an index is opened). */
  readonly file: string;
  /** An index on that file, closed after the test (closing it earlier is fine too). */
  open(limits?: TidyLimits): SessionIndex;
}

/** Call at the top of a test file: sets up and removes the folder around each test. */
export function indexFilePerTest(prefix: string): IndexFilePerTest {
  let dir = '';
  let file = '';
  const opened: SessionIndex[] = [];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
    file = join(dir, 'index.sqlite');
  });
  afterEach(async () => {
    for (const index of opened.splice(0)) index.close();
    await rm(dir, { recursive: true, force: true });
  });
  return {
    get file() {
      return file;
    },
    open(limits?: TidyLimits) {
      const index = new SessionIndex(file, null, limits);
      opened.push(index);
      return index;
    },
  };
}
