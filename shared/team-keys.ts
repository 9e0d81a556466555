// A team session's key in the app: `<machine>/<key>` (a machine label has no "/", a local key none before its ":"); zod-free, for both sides.

export function teamKey(machine: string, key: string): string {
  return `${machine}/${key}`;
}

const TEAM_KEY = /^([A-Za-z0-9][A-Za-z0-9._-]{0,62})\/(.+)$/s;

/** The machine and the session's own key of a team key; null for a local key. */
export function splitTeamKey(value: string): { machine: string; key: string } | null {
  const m = TEAM_KEY.exec(value);
  return m ? { machine: m[1] as string, key: m[2] as string } : null;
}
