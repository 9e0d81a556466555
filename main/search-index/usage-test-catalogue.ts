// The usage and dashboard tests' catalogue: kept copies under /vault/sessions/<key>/source/ (their live file shadows them), sessions put as a scan puts them, with their usage facts, and the dashboard answered both ways.
import type { Session } from '../../shared/session.ts';
import type { SessionIndex } from './index-store.ts';
import { IndexedCatalogue } from './indexed-catalogue.ts';
import { readResult } from './test-sessions.ts';
import { usageDashboard } from './usage-dashboard.ts';
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

/**
 * The dashboard as the app answers it (its fast paths) and from every counted file's hourly rows (the reference), each
 * number to 12 significant digits (the two add up in another order).
 */
export function dashboardBothWays(catalogue: IndexedCatalogue, query: string, breakdown: 'model' | 'source' | 'project', timezone: string, now: number) {
  catalogue.index.flush();
  const pick = (d: ReturnType<typeof usageDashboard>) =>
    JSON.parse(JSON.stringify({ ...d, tookMs: 0 }), (_, v: unknown) => (typeof v === 'number' ? Number(v.toPrecision(12)) : v)) as typeof d;
  return [
    pick(usageDashboard(catalogue, { query, timezone, breakdown }, () => null, now)),
    pick(usageDashboard(catalogue, { query, timezone, breakdown }, () => null, now, true)),
  ] as const;
}
