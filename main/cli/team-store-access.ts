// Runs a team command's work on a connection to the store, any failure said in one line with no credential in it.
import { connectTeam, describeTeamError, type TeamConnection } from '../team/team-connection.ts';
import { resolveTeamTarget, scrubMessage, type TeamTarget } from '../team/team-credentials.ts';
import { UsageError } from './usage-error.ts';

/** Connects to `to` (or SESSION_VAULT_TEAM_URL), runs `work`, closes; a UsageError passes as it is. */
export async function withStore<T>(to: string | undefined, env: NodeJS.ProcessEnv, work: (conn: TeamConnection, target: TeamTarget) => Promise<T>): Promise<T> {
  let target: TeamTarget | undefined;
  let conn: TeamConnection | undefined;
  try {
    target = resolveTeamTarget(to, env);
    conn = await connectTeam(target);
    return await work(conn, target);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new Error(scrubMessage(describeTeamError(err, target), [target?.password, env.PGPASSWORD]), { cause: err });
  } finally {
    await conn?.close();
  }
}
