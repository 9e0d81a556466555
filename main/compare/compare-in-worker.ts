// Runs inside the session worker: opens both sessions through its cache and posts back only their Comparison.
import { compareSessions } from '../../shared/compare/compare.ts';
import type { Session } from '../../shared/session.ts';
import type { CompareRequest, CompareResponse, ReadFailure } from '../workers/read-protocol.ts';

export type OpenSession = (id: number, path: string) => Promise<Session | ReadFailure>;

/** `request.path` is A and `request.otherPath` B; a file that cannot be read is named in the failure. */
export async function compareInWorker(request: CompareRequest, open: OpenSession): Promise<CompareResponse> {
  const { id, path, otherPath } = request;
  const a = await open(id, path);
  if (!('key' in a)) return { ...a, path };
  // Comparing a session with itself needs one parse.
  const b = otherPath === path ? a : await open(id, otherPath);
  if (!('key' in b)) return { ...b, path: otherPath };
  const comparison = compareSessions(a, b, { keyA: request.keyA ?? a.key, keyB: request.keyB ?? b.key });
  return { id, ok: true, comparison };
}
