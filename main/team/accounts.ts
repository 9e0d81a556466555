// Team accounts: each is a database login role in the team's group role, with a token that is both its password and its app sign-in.
import type { ClientBase } from 'pg';
import { scramVerifier } from './scram.ts';
import { newToken, hashToken, tokenMatches } from './tokens.ts';
import { isAccessDenied, sqlState, TeamStoreError } from './team-errors.ts';
import { ident, literal, qualified, teamRoles } from './team-names.ts';

export type TeamRole = 'viewer' | 'member' | 'admin';

export interface TeamAccount {
  name: string;
  role: TeamRole;
  revoked: boolean;
}

const NAME = /^[a-z][a-z0-9_]{1,40}$/;

async function rolesHere(client: ClientBase) {
  const row = await client.query<{ db: string }>('SELECT current_database() AS db');
  return teamRoles(row.rows[0]?.db ?? '');
}

/**
 * Adds an account: a login role named `name` in the team's `role` group, its password a new random token
 * (sent to the server as a SCRAM verifier only), and the token's scrypt hash in `accounts`. Returns the token,
 * which is shown once and kept nowhere. Needs a connection with CREATEROLE (the store's owner).
 */
export async function createAccount(client: ClientBase, name: string, role: TeamRole): Promise<string> {
  if (!NAME.test(name)) throw new TeamStoreError(`"${name}" cannot be an account name: use 2-41 lower-case letters, digits or _, starting with a letter.`);
  const groups = await rolesHere(client);
  const token = newToken();
  const hash = await hashToken(token);
  await client.query('BEGIN');
  try {
    await client.query(`CREATE ROLE ${ident(name)} LOGIN PASSWORD ${literal(scramVerifier(token))} IN ROLE ${ident(groups[role])}`);
    await client.query(`INSERT INTO ${qualified('accounts')} (name, role, token_hash) VALUES ($1, $2, $3)`, [name, role, hash]);
    await client.query('COMMIT');
    return token;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    if (sqlState(err) === '42710') throw new TeamStoreError(`A database role named "${name}" already exists; choose another account name.`);
    if (isAccessDenied(err)) throw new TeamStoreError("Only the team store's owner (a database user with CREATEROLE) can add accounts.");
    throw err;
  }
}

/** Revokes an account: it can no longer sign in (its role loses LOGIN) nor push (the policies check `revoked_at`). */
export async function revokeAccount(client: ClientBase, name: string): Promise<void> {
  await client.query('BEGIN');
  try {
    const updated = await client.query(`UPDATE ${qualified('accounts')} SET revoked_at = now() WHERE name = $1 AND revoked_at IS NULL`, [name]);
    if (!updated.rowCount) throw new TeamStoreError(`There is no active account "${name}".`);
    await client.query(`ALTER ROLE ${ident(name)} NOLOGIN`);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    if (isAccessDenied(err)) throw new TeamStoreError("Only the team store's owner can revoke accounts.");
    throw err;
  }
}

/** The account whose token this is, or null (unknown, revoked, or the wrong token); the check takes the same time either way. */
export async function verifyToken(client: ClientBase, name: string, token: string): Promise<TeamAccount | null> {
  const row = (
    await client.query<{ role: TeamRole; token_hash: string | null; revoked_at: Date | null }>(
      `SELECT role, token_hash, revoked_at FROM ${qualified('accounts')} WHERE name = $1`,
      [name],
    )
  ).rows[0];
  const matches = await tokenMatches(token, row?.token_hash ?? null);
  if (!row || !matches || row.revoked_at) return null;
  return { name, role: row.role, revoked: false };
}

/** The account of the database user this connection signed in as; null when that user has none. */
export async function currentAccount(client: ClientBase): Promise<TeamAccount | null> {
  const row = (
    await client.query<{ name: string; role: TeamRole; revoked_at: Date | null }>(
      `SELECT name, role, revoked_at FROM ${qualified('accounts')} WHERE name = current_user`,
    )
  ).rows[0];
  return row ? { name: row.name, role: row.role, revoked: row.revoked_at !== null } : null;
}
