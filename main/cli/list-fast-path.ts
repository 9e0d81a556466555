// `list` from the index as it is when nothing below the roots changed since a full run (index-current.ts): the app's own list over a read-only catalogue, no services, no workers, no scan.
import type { SessionSummary } from '../../shared/session.ts';
import { listWithIndex } from '../search-index/search-service.ts';
import { withCurrentCatalogue } from './current-catalogue.ts';
import type { RootsOptions } from './index-current.ts';

/** Every session as `list` prints them (the contract's listSessions({})), or null when a full start is needed. */
export function fastList(dataDir: string, options: RootsOptions, env: NodeJS.ProcessEnv): Promise<SessionSummary[] | null> {
  return withCurrentCatalogue(
    dataDir,
    { ...options, searches: false },
    env,
    (catalogue, marks) => listWithIndex(catalogue, {}, marks.decorate, marks.annotated).sessions,
  );
}
