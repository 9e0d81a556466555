// `search` from the index as it is when nothing below the roots changed since a full run and every session's text is in (index-current.ts): the app's own search over a read-only catalogue, no services, no workers, no scan.
import { searchSessions, type SearchInput, type SearchOutput } from '../search-index/search-service.ts';
import { withCurrentCatalogue } from './current-catalogue.ts';
import type { RootsOptions } from './index-current.ts';

/** The page the contract's searchSessions gives, or null when a full start is needed. */
export function fastSearch(dataDir: string, options: RootsOptions, env: NodeJS.ProcessEnv, input: SearchInput): Promise<SearchOutput | null> {
  return withCurrentCatalogue(dataDir, { ...options, searches: true }, env, (catalogue, marks) =>
    searchSessions(catalogue, input, marks.decorate, marks.annotated),
  );
}
