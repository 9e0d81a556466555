// For the convergence tests: the list a fresh scan of a folder gives, and a watching app's list once it has settled.
import { createServices, type Services } from '../app/services.ts';

/** How a test shows a list: one line per session, sorted. */
export type Listing = (services: Services) => Promise<string[]>;

/** The list a fresh scan of `root` gives: services of their own, in `dataDir`, watching nothing. */
export async function freshListing(root: string, dataDir: string, listing: Listing): Promise<string[]> {
  const fresh = createServices({ dataDir, shell: 'cli', extraRoots: [root], discoverDefaults: false, watch: false, env: {} });
  try {
    await fresh.start();
    await fresh.whenScanned();
    return await listing(fresh);
  } finally {
    await fresh.close();
  }
}

/** `watching`'s list once it equals `truth`, or as it is after `ms` (the watcher settles changes in batches). */
export async function settledListing(watching: Services, truth: string[], listing: Listing, ms = 15_000): Promise<string[]> {
  const deadline = Date.now() + ms;
  let seen = await listing(watching);
  while (JSON.stringify(seen) !== JSON.stringify(truth) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    seen = await listing(watching);
  }
  return seen;
}
