// Resolves Cursor's lossy project folder name (/ turned into -) to the workspace path, by the md5 its chats folder is named after.
import { createHash } from 'node:crypto';

/** Characters Cursor turns into "-" in a project folder name, most likely first. */
const SEPARATORS = ['/', '-', '.', '_', ' '];
/** How many decodings are tried at most (about 60 ms when none matches); the answer is then kept per folder. */
const MAX_CANDIDATES = 5_000;
/** Answers per project folder, for the chats folder as it was (its entry count): every session of a project asks. */
const known = new Map<string, { entries: number; found: { path: string; hash: string } | null }>();
const KNOWN_MAX = 2_000;

export function md5(text: string): string {
  return createHash('md5').update(text).digest('hex');
}

/**
 * Decodings of a folder name, fewest non-slash separators first: `Users-test-Repository-TestProject` gives
 * `/Users/test/Repository/TestProject` first, then `/Users/test/Repository-TestProject`, ...
 */
export function* candidatePaths(projectDir: string): Generator<string> {
  const tokens = projectDir.split('-');
  const gaps = tokens.length - 1;
  let emitted = 0;
  // Choose k gaps that are not "/", then a non-slash separator for each.
  for (let k = 0; k <= gaps; k++) {
    for (const chosen of combinations(gaps, k)) {
      for (const seps of products(SEPARATORS.length - 1, k)) {
        const joints = new Array<string>(gaps).fill('/');
        chosen.forEach((gap, i) => (joints[gap] = SEPARATORS[seps[i]! + 1]!));
        yield `/${tokens.map((t, i) => (i < gaps ? t + joints[i] : t)).join('')}`;
        if (++emitted >= MAX_CANDIDATES) return;
      }
    }
  }
}

function* combinations(n: number, k: number, start = 0): Generator<number[]> {
  if (k === 0) {
    yield [];
    return;
  }
  for (let i = start; i <= n - k; i++) for (const rest of combinations(n, k - 1, i + 1)) yield [i, ...rest];
}

function* products(base: number, k: number): Generator<number[]> {
  if (k === 0) {
    yield [];
    return;
  }
  for (let d = 0; d < base; d++) for (const rest of products(base, k - 1)) yield [d, ...rest];
}

/** The workspace path whose md5 is one of `hashes` (the chats folder's entries), and that hash. */
export function resolveWorkspace(projectDir: string, hashes: ReadonlySet<string>): { path: string; hash: string } | null {
  if (!hashes.size) return null;
  const cached = known.get(projectDir);
  if (cached && (cached.found ? hashes.has(cached.found.hash) : cached.entries === hashes.size)) return cached.found;
  let found: { path: string; hash: string } | null = null;
  for (const path of candidatePaths(projectDir)) {
    const hash = md5(path);
    if (hashes.has(hash)) {
      found = { path, hash };
      break;
    }
  }
  if (known.size >= KNOWN_MAX) known.clear();
  known.set(projectDir, { entries: hashes.size, found });
  return found;
}
