// `session-vault team push|account`: send sessions to a team's PostgreSQL store (redacted, incremental), and manage its accounts.
import type { ParseArgsConfig } from 'node:util';
import { createAccount, revokeAccount, type TeamRole } from '../team/accounts.ts';
import { parseCommandArgs } from './parse-command-args.ts';
import { PUSH_HELP_OPTIONS, runPush } from './team-push-command.ts';
import { withStore } from './team-store-access.ts';
import { terminalJson } from './terminal-text.ts';
import { UsageError } from './usage-error.ts';

const CONNECTION = `  --to URL         the team store, postgresql://user@host:5432/database, with no password in it
                   (default: SESSION_VAULT_TEAM_URL)
  --json           print the result as JSON
  -h, --help       show this help

Credentials: the password comes from SESSION_VAULT_TEAM_URL, or the file SESSION_VAULT_TEAM_PASSWORD_FILE
names (readable by you alone), or PGPASSWORD, or ~/.pgpass; never from the command line. It is never printed.`;

export const TEAM_HELP = `Usage: session-vault team push [<session>... | --query TEXT | --all] [--to URL] [options]
       session-vault team account add NAME --role viewer|member|admin [--to URL]
       session-vault team account revoke NAME [--to URL]

push     sends sessions to a team store on PostgreSQL (14 or newer): each as Share would bundle it, the
         normalized session.json and its source files, scanned for secrets and redacted first. A session the
         store does not have yet is pushed after its review (the findings are printed; confirm, or --yes).
         Only what changed since the last push is sent (of a file that grew, its new parts); each batch is
         one transaction, so a push cut off stores whole sessions only, and it resumes by itself when the
         connection drops (or run it again). The store's schema is created or upgraded on the first
         connect (by its owner).
account  adds an account (a database login in the team's group; its token, printed once, is its password)
         or revokes one. Needs the store's owner (a database user with CREATEROLE).

${PUSH_HELP_OPTIONS}
${CONNECTION}
`;

const ACCOUNT_OPTIONS = {
  to: { type: 'string' },
  role: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

const ROLES: TeamRole[] = ['viewer', 'member', 'admin'];

async function runAccount(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const { values: v, positionals } = parseCommandArgs(argv, ACCOUNT_OPTIONS, TEAM_HELP);
  if (v.help) return void process.stdout.write(TEAM_HELP);
  const [action, name, ...extra] = positionals;
  if ((action !== 'add' && action !== 'revoke') || !name || extra.length)
    throw new UsageError(`team account add NAME --role ROLE, or team account revoke NAME.\n\n${TEAM_HELP}`);
  await withStore(v.to, env, async (conn, target) => {
    if (action === 'revoke') {
      await revokeAccount(conn.client, name);
      return void process.stdout.write(
        v.json ? `${terminalJson({ revoked: name })}\n` : `Revoked ${name}: it can no longer sign in to ${target.shown} or push.\n`,
      );
    }
    const role = v.role as TeamRole | undefined;
    if (!role || !ROLES.includes(role)) throw new UsageError(`--role must be viewer, member or admin.\n\n${TEAM_HELP}`);
    const token = await createAccount(conn.client, name, role);
    const url = new URL(target.shown);
    url.username = name;
    // The token is printed this once, to stdout only, because it was asked for; it is stored nowhere but as a hash.
    process.stdout.write(
      v.json
        ? `${terminalJson({ account: name, role, token, url: url.href })}\n`
        : `Added ${name} (${role}). Its token, shown this once: give it to ${name} to keep in PGPASSWORD or a password file:\n  ${token}\nIts store URL: ${url.href}\n`,
    );
  });
}

export async function runTeam(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const [sub, ...rest] = argv;
  if (!sub || sub === '-h' || sub === '--help') return void process.stdout.write(TEAM_HELP);
  if (sub === 'push') return runPush(rest, env, TEAM_HELP);
  if (sub === 'account') return runAccount(rest, env);
  throw new UsageError(`unknown team command "${sub}".\n\n${TEAM_HELP}`);
}
