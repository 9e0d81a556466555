// Tests of the index on disk: a fresh folder per test for its file, every index opened there closed afterwards, and a session put as a scan puts it.
import { afterEach, beforeEach } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionIndex } from './index-store.ts';
import type { TidyLimits } from './index-tidy.ts';
import type { Session } from '../../shared/session.ts';
import { readResult } from './test-sessions.ts';

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

/** `session` put as a scan puts a read file (at /roots/<id>.json, its summary and index text); returns its path. */
export function putSession(index: SessionIndex, session: Session, size = 100, mtimeMs = 1): string {
  const path = `/roots/${session.id}.json`;
  const { result, text } = readResult(session);
  index.put(path, size, mtimeMs, session.key, result, text);
  return path;
}
