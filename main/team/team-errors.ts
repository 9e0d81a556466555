// Errors of the team store, said plainly: what went wrong and what to do, never a stack trace or a credential.

/** A refusal the user can act on (wrong role, another's machine, a store newer than the app). */
export class TeamStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TeamStoreError';
  }
}

/** PostgreSQL's SQLSTATE of an error from the server, if it is one. */
export function sqlState(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** insufficient_privilege, or a row refused by a row-level security policy. */
export function isAccessDenied(err: unknown): boolean {
  return sqlState(err) === '42501';
}
