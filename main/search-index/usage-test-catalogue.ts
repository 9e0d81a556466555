// The usage and dashboard tests' catalogue: kept copies under /vault/sessions/<key>/source/ (their live file shadows them), and sessions put as a scan puts them, with their usage facts.
import type { Session } from '../../shared/session.ts';
import type { SessionIndex } from './index-store.ts';
import { IndexedCatalogue } from './indexed-catalogue.ts';
import { readResult } from './test-sessions.ts';
import { usageFacts } from './usage-facts.ts';

/** Where kept copies live: `/vault/sessions/<key>/source/<path>`. */
export const VAULT = '/vault/sessions/';

export const vaultCatalogue = (index: SessionIndex) =>
  new IndexedCatalogue(
    index,
    (path) => (path.startsWith(VAULT) ? 'copy' : null),
    () => '',
    (path) => (path.startsWith(VAULT) ? path.slice(VAULT.length, path.indexOf('/source/')) : null),
  );

/** `s` listed at `path` with its index text and usage facts, as the scan workers send it. */
export function putWithUsage(catalogue: IndexedCatalogue, path: string, s: Session): void {
  const { result, text } = readResult(s);
  catalogue.put(path, 100, 1, result.ok ? { ...result, text, usage: usageFacts(s) } : result);
}
