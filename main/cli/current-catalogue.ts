// The catalogue and vault marks from a current index file, read-only, for one answer: the setup the list and search fast paths share.
import { isWithin } from '../roots/paths.ts';
import type { IndexedCatalogue } from '../search-index/indexed-catalogue.ts';
import { openCurrentIndex, type RootsOptions } from './index-current.ts';
import { needsCatalogueSummaries, readOnlyCatalogue, summaryMaker } from './read-only-catalogue.ts';
import { readOnlyIndex } from './read-only-index.ts';
import { readVaultMarks, type VaultMarks } from './vault-marks.ts';

export interface CurrentOptions extends RootsOptions {
  /** The answer reads the full-text tables: a run that only listed may have left text waiting for them. */
  searches: boolean;
}

/**
 * Runs `work` on the catalogue as a full start would leave it, or returns null when that start is needed: the index
 * is not current (index-current.ts), search text waits, a vault file cannot be read (the start reports it), auto-keep
 * is on (the start's sweep keeps sessions that went idle), or anything fails on the way. `work` must not write: what
 * it returns is the answer, printed by the caller.
 */
export async function withCurrentCatalogue<T>(
  dataDir: string,
  options: CurrentOptions,
  env: NodeJS.ProcessEnv,
  work: (catalogue: IndexedCatalogue, marks: VaultMarks) => T,
): Promise<T | null> {
  // The paths are compared as strings (early-listing.ts does the same); Windows' case-folding is the full start's.
  if (process.platform === 'win32') return null;
  const current = await openCurrentIndex(dataDir, options, env);
  if (!current) return null;
  try {
    if (options.searches && current.textPending) return null;
    const marks = await readVaultMarks(dataDir);
    if (marks.problems.length || marks.autoKeep) return null;
    const index = readOnlyIndex(current.db);
    const known = [...current.roots, ...marks.folders];
    const summaryOf = await summaryMaker(needsCatalogueSummaries(index));
    const catalogue = readOnlyCatalogue(index, (path) => known.some((root) => isWithin(root, path)), marks.kindOf, summaryOf);
    // search-service.ts reads only what CatalogueReads names of the catalogue it is given.
    return work(catalogue as IndexedCatalogue, marks);
  } catch {
    // Whatever went wrong reading it this way, the full start reads it the usual way.
    return null;
  } finally {
    current.db.close();
  }
}
