// The roots check in a push's worker: every bundle's check (roots/session-files.ts), each file's real path resolved by one blocking call instead of a round trip through libuv's pool.
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { storeOf } from '../catalogue/contained-sessions.ts';
import { isWithin } from '../roots/paths.ts';
import { SessionFileCheck } from '../roots/session-files.ts';

/** The real path of `path` (links followed, as `canonical` gives it), or `path` resolved where it does not exist. */
function realNow(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return resolve(path);
  }
}

/**
 * A check against roots that are real paths already (resolved once for the push). Every file named is resolved
 * whole, as `SessionFileCheck` does (a symlink anywhere inside a root is followed, and refused when it leads out),
 * only synchronously: the worker that runs it has nothing else to do while it waits, and a session's few paths
 * cost a syscall each rather than a promise and a hop to the thread pool and back.
 */
export class PushFileCheck extends SessionFileCheck {
  private readonly rootsNow: readonly string[];

  constructor(realRoots: readonly string[]) {
    super(() => realRoots, true);
    this.rootsNow = realRoots;
  }

  override realInside(path: string, roots: readonly string[] = this.rootsNow): Promise<string | null> {
    const real = realNow(storeOf(path));
    return Promise.resolve(roots.some((root) => isWithin(root, real)) ? real : null);
  }
}
