// What this window may do with a session: a team session (`<machine>/<key>`) has none of the vault's local actions (keep, star, fork, delete), and only a member or admin of the team store writes its shared notes, tags and summary.
import { splitTeamKey } from '../../../shared/team-keys.ts';
import type { TeamStatus } from '../../../shared/team-api.ts';
import { useAppStore } from '../../store/store-context.ts';

export interface SessionAccess {
  /** The session is the team store's: kept there, never on this machine, so nothing of the local vault applies. */
  team: boolean;
  /** Its note, tags and summary may be written from here (a local session's always; a team session's by a member or admin). */
  canWrite: boolean;
}

/** The access to a session by its key, given the role the team store signed this window in with (null: unknown or none). */
export function sessionAccess(key: string, role: TeamStatus['role']): SessionAccess {
  if (!splitTeamKey(key)) return { team: false, canWrite: true };
  return { team: true, canWrite: role === 'member' || role === 'admin' };
}

/** `sessionAccess` for the team status the window has read (the Team source and `serve --team` both read it on start). */
export function useSessionAccess(key: string): SessionAccess {
  const role = useAppStore((s) => s.team.status?.role ?? null);
  return sessionAccess(key, role);
}

/** This window is `session-vault serve --team`: every session is the team store's, and this machine's vault is not served. */
export function useServedTeam(): boolean {
  return useAppStore((s) => s.team.status?.served === true);
}
