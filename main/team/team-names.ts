// The team store's names in PostgreSQL: its schema, and the group roles of one database's team (roles are cluster-wide).
import { createHash } from 'node:crypto';

/** Every table, function and policy of the team store lives in this schema. */
export const TEAM_SCHEMA = 'session_vault';

export interface TeamRoles {
  /** Reads sessions. */
  viewer: string;
  /** Reads, and pushes its own machines' sessions. */
  member: string;
  /** Everything, deletes included. */
  admin: string;
}

/**
 * The group roles of the team store in `database`. Roles belong to the whole cluster, so each database's team
 * has its own (`sv_<database>_member`), and a member of one team is nobody in another database's store.
 * A database name that is not short plain lower-case ASCII is named by a hash of it (role names stop at 63 bytes).
 */
export function teamRoles(database: string): TeamRoles {
  const base = /^[a-z0-9_]{1,40}$/.test(database) ? database : `h${createHash('sha256').update(database).digest('hex').slice(0, 16)}`;
  return { viewer: `sv_${base}_viewer`, member: `sv_${base}_member`, admin: `sv_${base}_admin` };
}

/** A double-quoted SQL identifier. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A single-quoted SQL string literal (standard_conforming_strings, on since PostgreSQL 9.1). */
export function literal(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** `session_vault.<name>`, quoted. */
export function qualified(name: string): string {
  return `${ident(TEAM_SCHEMA)}.${ident(name)}`;
}
