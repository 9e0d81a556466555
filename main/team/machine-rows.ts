// What a migration gives a team table whose rows belong to a machine: the team reads them, a member writes only its own machine's rows, an admin manages all; and the column compression the server offers.
import type { ClientBase } from 'pg';
import { ident, qualified, type TeamRoles } from './team-names.ts';

/** The grants and row-level security policies (read, push, repush, replace, manage) of `table` (qualified). */
export function machineRowsAccess(table: string, roles: TeamRoles): string[] {
  const viewer = ident(roles.viewer);
  const member = ident(roles.member);
  const admin = ident(roles.admin);
  const owns = qualified('owns_machine');
  return [
    `GRANT SELECT ON ${table} TO ${viewer}`,
    `GRANT INSERT, UPDATE, DELETE ON ${table} TO ${member}`,
    `ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`,
    `CREATE POLICY read ON ${table} FOR SELECT TO ${viewer} USING (true)`,
    `CREATE POLICY push ON ${table} FOR INSERT TO ${member} WITH CHECK (${owns}(machine))`,
    `CREATE POLICY repush ON ${table} FOR UPDATE TO ${member} USING (${owns}(machine)) WITH CHECK (${owns}(machine))`,
    `CREATE POLICY replace ON ${table} FOR DELETE TO ${member} USING (${owns}(machine))`,
    `CREATE POLICY manage ON ${table} FOR ALL TO ${admin} USING (true) WITH CHECK (true)`,
  ];
}

/** ` COMPRESSION lz4` where the server has lz4 (a fraction of pglz's time for text written once), else nothing. */
export async function lz4Compression(client: ClientBase): Promise<string> {
  const lz4 = await client.query<{ ok: boolean }>(`SELECT 'lz4' = ANY(enumvals) AS ok FROM pg_settings WHERE name = 'default_toast_compression'`);
  return lz4.rows[0]?.ok ? ' COMPRESSION lz4' : '';
}
