// Opens one connection to a team store (pg, pure JavaScript), migrates its schema, and says connection failures plainly.
import type pg from 'pg';
import { migrateTeamStore, type SchemaState } from './migrate.ts';
import { scrubMessage, type TeamTarget } from './team-credentials.ts';
import { sqlState, TeamStoreError } from './team-errors.ts';

export interface TeamConnection {
  client: pg.Client;
  /** The store's URL without its password. */
  shown: string;
  schema: SchemaState;
  close(): Promise<void>;
}

/** One line for an error on the way to or inside a team store, with no credential in it. */
export function describeTeamError(err: unknown, target?: TeamTarget): string {
  const secrets = [target?.password];
  if (err instanceof TeamStoreError) return scrubMessage(err.message, secrets);
  const e = err as { code?: string; message?: string } | null;
  const where = target ? ` at ${target.shown}` : '';
  const state = sqlState(err);
  if (state === '28P01' || state === '28000')
    return scrubMessage(`The team store${where} refused the sign-in: ${e?.message ?? 'wrong user or password'}.`, secrets);
  if (state === '3D000') return scrubMessage(`The team store${where} does not exist: ${e?.message ?? ''}.`, secrets);
  if (e?.code === 'ECONNREFUSED' || e?.code === 'ENOTFOUND' || e?.code === 'ETIMEDOUT' || e?.code === 'EHOSTUNREACH') {
    return scrubMessage(`Could not reach the team store${where} (${e.code}).`, secrets);
  }
  return scrubMessage(e?.message ?? String(err), secrets);
}

/**
 * Connects and brings the schema to this app's version (or refuses a newer one). The client carries an error
 * listener, so a connection the server ends (a restart, pg_terminate_backend) fails the running query instead of
 * the process.
 */
export async function connectTeam(target: TeamTarget): Promise<TeamConnection> {
  // The driver is loaded by the first connection: a command that never reaches a team store does not load it.
  const { default: pg } = await import('pg');
  const client = new pg.Client({
    connectionString: target.connectionString,
    application_name: 'session-vault',
    connectionTimeoutMillis: 15_000,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const schema = await migrateTeamStore(client);
    return { client, shown: target.shown, schema, close: () => client.end().catch(() => undefined) };
  } catch (err) {
    await client.end().catch(() => undefined);
    throw new TeamStoreError(describeTeamError(err, target));
  }
}
