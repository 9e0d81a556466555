// `session-vault team push|account`: send sessions to a team's PostgreSQL store (redacted, incremental), and manage its accounts.
import { hostname } from 'node:os';
import type { ParseArgsConfig } from 'node:util';
import type { Services } from '../app/services.ts';
import { createAccount, revokeAccount, type TeamRole } from '../team/accounts.ts';
import { pushSessions, type PushProgress, type PushReport } from '../team/push.ts';
import { connectTeam, describeTeamError, type TeamConnection } from '../team/team-connection.ts';
import { resolveTeamTarget, scrubMessage, type TeamTarget } from '../team/team-credentials.ts';
import { formatFindings } from './bundle-commands.ts';
import { withOneShotServices } from './one-shot.ts';
import { parseCommandArgs } from './parse-command-args.ts';
import { sanitizeForTerminal, terminalJson } from './terminal-text.ts';
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
         normalized session.json, scanned for secrets and redacted first. Only sessions that changed since
         they were last pushed are sent; each batch is one transaction, so a push cut off stores whole
         sessions only, and the same push run again finishes it. The store's schema is created or upgraded
         on the first connect (by its owner).
account  adds an account (a database login in the team's group; its token, printed once, is its password)
         or revokes one. Needs the store's owner (a database user with CREATEROLE).

Push options:
  --query TEXT     every session whose title, project, branch, id or summary contains TEXT
  --all            every readable session
  --machine NAME   the machine label the sessions carry (default: this computer's host name)
  --keep ID        leave the finding with this id as it is: a false positive (repeatable)
  --dry-run        scan and compare with the store; send nothing
  --root DIR       also read sessions below DIR (repeatable; not saved)
  --no-defaults    skip the tools' default folders
${CONNECTION}
`;

const PUSH_OPTIONS = {
  to: { type: 'string' },
  query: { type: 'string' },
  all: { type: 'boolean' },
  machine: { type: 'string' },
  keep: { type: 'string', multiple: true },
  'dry-run': { type: 'boolean' },
  root: { type: 'string', multiple: true },
  'no-defaults': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

const ACCOUNT_OPTIONS = {
  to: { type: 'string' },
  role: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

/** This computer's host name as a machine label (letters, digits, `.`, `_`, `-`). */
function defaultMachine(): string {
  const name = hostname()
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 63);
  return name || 'this-machine';
}

/** Runs `work` on a connection to the store; any failure comes out as one line with no credential in it. */
async function withStore<T>(to: string | undefined, env: NodeJS.ProcessEnv, work: (conn: TeamConnection, target: TeamTarget) => Promise<T>): Promise<T> {
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

/** Keys for the sessions named (key, id or key suffix), matched by --query, or all of them. */
async function pushKeys(services: Services, given: string[], query: string | undefined, all: boolean): Promise<string[]> {
  if (all || query !== undefined) {
    const { sessions } = await services.client.listSessions({ includeChildren: true, ...(query !== undefined ? { text: query } : {}) });
    const readable = sessions.filter((s) => !s.unreadable).map((s) => s.key);
    if (!readable.length) throw new UsageError(query !== undefined ? `No session matches "${query}".` : 'No sessions found to push.');
    return readable;
  }
  const { sessions } = await services.client.listSessions({ includeChildren: true });
  return given.map((g) => {
    if (sessions.some((s) => s.key === g)) return g;
    const matches = sessions.filter((s) => s.id === g || s.key.endsWith(`:${g}`));
    if (matches.length === 1) return (matches[0] as { key: string }).key;
    if (!matches.length) throw new UsageError(`No session "${g}" is known. Run \`session-vault list\` to see keys and ids.`);
    throw new UsageError(`"${g}" matches ${matches.length} sessions; give one of these keys: ${matches.map((m) => m.key).join(', ')}`);
  });
}

function megabytes(n: number): string {
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function formatPush(report: PushReport, store: string): string {
  const lines = [formatFindings(report.findings)];
  const where = `${store} as machine "${report.machine}" (account ${report.account})`;
  const sent = report.dryRun
    ? `Dry run: would push ${report.pushed.length} session(s) (${megabytes(report.bytes)}) to ${where}; nothing was sent.`
    : `Pushed ${report.pushed.length} session(s) (${megabytes(report.bytes)}) to ${where} in ${report.batches} batch(es).`;
  lines.push(sanitizeForTerminal(sent));
  if (report.unchanged.length) lines.push(`${report.unchanged.length} session(s) unchanged since the last push: nothing sent for them.`);
  // Keys and reasons come from the sessions' files: one safe line each.
  for (const s of report.skipped) lines.push(`Skipped ${sanitizeForTerminal(s.key)}: ${sanitizeForTerminal(s.reason)}`);
  return lines.join('\n');
}

/** Progress on a terminal's stderr; nothing when stderr is a pipe. */
function progressLine(): { update: (p: PushProgress) => void; done: () => void } {
  if (!process.stderr.isTTY) return { update: () => undefined, done: () => undefined };
  let last = 0;
  return {
    update: (p) => {
      if (Date.now() - last < 100) return;
      last = Date.now();
      process.stderr.write(`\r${p.done}/${p.total} sessions scanned, ${p.pushed} to send  `);
    },
    done: () => process.stderr.write('\r\x1b[K'),
  };
}

async function runPush(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const { values: v, positionals } = parseCommandArgs(argv, PUSH_OPTIONS, TEAM_HELP);
  if (v.help) return void process.stdout.write(TEAM_HELP);
  const choices = [positionals.length > 0, v.query !== undefined, v.all === true].filter(Boolean).length;
  if (choices !== 1) throw new UsageError(`name the sessions to push: <session>..., --query TEXT or --all (one of them).\n\n${TEAM_HELP}`);
  const machine = v.machine ?? defaultMachine();
  await withStore(v.to, env, async (conn, target) => {
    await withOneShotServices({ roots: v.root, noDefaults: v['no-defaults'] }, env, async (services) => {
      const keys = await pushKeys(services, positionals, v.query, v.all === true);
      const progress = progressLine();
      const report = await pushSessions({
        client: conn.client,
        machine,
        keys,
        load: services.bundles.load,
        env,
        keep: v.keep ?? [],
        dryRun: v['dry-run'] === true,
        onProgress: progress.update,
      }).finally(progress.done);
      process.stdout.write(v.json ? `${terminalJson({ store: target.shown, ...report })}\n` : `${formatPush(report, target.shown)}\n`);
    });
  });
}

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
  if (sub === 'push') return runPush(rest, env);
  if (sub === 'account') return runAccount(rest, env);
  throw new UsageError(`unknown team command "${sub}".\n\n${TEAM_HELP}`);
}
