// Brings a team store's schema to this app's version on connect, in one transaction, and refuses a store newer than the app.
import type { ClientBase } from 'pg';
import { MIGRATIONS, TEAM_SCHEMA_VERSION } from './migrations.ts';
import { isAccessDenied, TeamStoreError } from './team-errors.ts';
import { ident, qualified, TEAM_SCHEMA, teamRoles } from './team-names.ts';

/** Held while a store's schema is read and migrated, so two first connects do not both create it. */
const MIGRATION_LOCK = 0x5e55_1047;

export interface SchemaState {
  /** The version the store had when we connected. */
  before: number;
  /** The version it has now (this app's). */
  after: number;
}

async function storedVersion(client: ClientBase): Promise<number> {
  const table = await client.query<{ present: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS present`, [`${TEAM_SCHEMA}.team_schema_version`]);
  if (!table.rows[0]?.present) return 0;
  const row = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${qualified('team_schema_version')}`);
  return row.rows[0]?.version ?? 0;
}

/**
 * For a reader that does not migrate (`serve --team` may sign in as a viewer): the store must be at this app's
 * schema version; an older one is to be upgraded by its owner first, a newer one needs a newer app.
 */
export async function checkTeamSchema(client: ClientBase): Promise<void> {
  const version = await storedVersion(client);
  if (version > TEAM_SCHEMA_VERSION) {
    throw new TeamStoreError(
      `The team store is at schema version ${version}, newer than this app understands (${TEAM_SCHEMA_VERSION}). Update Session Vault to read it.`,
    );
  }
  if (version < TEAM_SCHEMA_VERSION) {
    throw new TeamStoreError(
      version === 0
        ? 'This database holds no team store yet. Its owner creates it by connecting once (session-vault team account add …, or a push).'
        : `The team store is at schema version ${version}; this app reads version ${TEAM_SCHEMA_VERSION}. Its owner upgrades it by connecting once with this app (session-vault team account …).`,
    );
  }
}

/**
 * Reads the store's schema version and applies the migrations it lacks, all in one transaction (a failure
 * leaves the store as it was). A store at a newer version than this app's is refused, untouched.
 */
export async function migrateTeamStore(client: ClientBase): Promise<SchemaState> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    const before = await storedVersion(client);
    if (before > TEAM_SCHEMA_VERSION) {
      throw new TeamStoreError(
        `The team store is at schema version ${before}, newer than this app understands (${TEAM_SCHEMA_VERSION}). Update Session Vault to use it; nothing was changed.`,
      );
    }
    if (before < TEAM_SCHEMA_VERSION) {
      const database = (await client.query<{ db: string }>('SELECT current_database() AS db')).rows[0]?.db ?? '';
      const roles = teamRoles(database);
      if (before === 0) {
        await client.query(`CREATE SCHEMA IF NOT EXISTS ${ident(TEAM_SCHEMA)}`);
        await client.query(
          `CREATE TABLE ${qualified('team_schema_version')} (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now(), describe text NOT NULL)`,
        );
      }
      for (const migration of MIGRATIONS.filter((m) => m.version > before)) {
        await migration.apply(client, roles);
        await client.query(`INSERT INTO ${qualified('team_schema_version')} (version, describe) VALUES ($1, $2)`, [migration.version, migration.describe]);
      }
    }
    await client.query('COMMIT');
    return { before, after: TEAM_SCHEMA_VERSION };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    if (isAccessDenied(err)) {
      throw new TeamStoreError(
        'This database user may not create or upgrade the team store. Connect once as the database owner (or a user with CREATE on the database and CREATEROLE) to set it up; nothing was changed.',
      );
    }
    throw err;
  }
}
