// A team store opened for browsing (`session-vault serve --team`): a small pool of read-only connections, the contract's methods over it, its events.
import { join } from 'node:path';
import pg from 'pg';
import type { AppEvent, ServiceMethods } from '../../shared/api.ts';
import { checkTeamSchema } from './migrate.ts';
import { TeamBundleService } from './team-bundles.ts';
import { describeTeamError } from './team-connection.ts';
import type { TeamTarget } from './team-credentials.ts';
import { TeamStoreError } from './team-errors.ts';
import { teamMethods } from './team-methods.ts';
import { TeamNotes } from './team-notes.ts';
import { TeamReader } from './team-reader.ts';
import { withPoolClient } from './pool-client.ts';

export interface TeamServices {
  /** The store's URL without its password. */
  store: string;
  methods: ServiceMethods;
  subscribe(handler: (event: AppEvent) => void): () => void;
  close(): Promise<void>;
}

/** Connections kept for browsers' requests (a page asks for a list, a session and its messages at once). */
const POOL_SIZE = 4;

/**
 * Opens the store with every connection read-only by default (default_transaction_read_only: the server itself
 * refuses a write to a session, whatever the account may do; only the team's notes and summaries are written, each
 * in a transaction opened READ WRITE, under the store's policies), checks that its schema is this app's, and serves
 * it through the app's contract. Exports are written below `dataDir` (this machine's data folder), as the app's are.
 */
export async function openTeamServices(target: TeamTarget, dataDir: string, env: NodeJS.ProcessEnv): Promise<TeamServices> {
  const pool = new pg.Pool({
    connectionString: target.connectionString,
    max: POOL_SIZE,
    application_name: 'session-vault-serve',
    connectionTimeoutMillis: 15_000,
    options: '-c default_transaction_read_only=on',
  });
  // A connection the server ends while idle fails no request; the pool opens another.
  pool.on('error', () => undefined);
  try {
    await withPoolClient(pool, checkTeamSchema);
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw new TeamStoreError(describeTeamError(err, target));
  }
  const handlers = new Set<(event: AppEvent) => void>();
  const emit = (event: AppEvent) => {
    for (const h of handlers) h(event);
  };
  const reader = new TeamReader(pool);
  const bundles = new TeamBundleService(reader, join(dataDir, 'team-serve'), env, emit);
  return {
    store: target.shown,
    methods: teamMethods({ reader, bundles, notes: new TeamNotes(pool), store: target.shown }),
    subscribe: (handler) => {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    close: () => pool.end().catch(() => undefined),
  };
}
