// Where a team store's URL and password come from (environment, or a file only the user can read), and masking them out of every message.
import { readFileSync, statSync } from 'node:fs';
import { TeamStoreError } from './team-errors.ts';

export interface TeamTarget {
  /** The URL without its password: safe to print. */
  shown: string;
  connectionString: string;
  /** The password when it came from a file, the URL or the environment; otherwise pg reads ~/.pgpass itself. */
  password?: string;
}

const PASSWORD_FILE = 'SESSION_VAULT_TEAM_PASSWORD_FILE';

/** `postgres://user:secret@host/db` → `postgres://user:***@host/db`, anywhere in a text (a message, a log line). */
export function maskUrls(text: string): string {
  return text.replace(/\b(postgres(?:ql)?:\/\/[^\s:/@]*):[^\s@/]*@/gi, '$1:***@');
}

/** A message with every URL's password masked and every given secret replaced, so no credential is ever printed. */
export function scrubMessage(message: string, secrets: Array<string | undefined>): string {
  let text = maskUrls(message);
  for (const secret of secrets) if (secret && secret.length >= 4) text = text.replaceAll(secret, '***');
  return text;
}

function parseUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TeamStoreError(`"${maskUrls(url)}" is not a PostgreSQL URL (postgresql://user@host:5432/database).`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new TeamStoreError(`"${maskUrls(url)}" is not a PostgreSQL URL (postgresql://user@host:5432/database).`);
  }
  return parsed;
}

/** The password in a file the user alone can read (like ~/.pgpass, a file others can read is refused). */
function readPasswordFile(path: string): string {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch {
    throw new TeamStoreError(`${PASSWORD_FILE} names "${path}", which cannot be read.`);
  }
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    throw new TeamStoreError(`${PASSWORD_FILE} "${path}" can be read by other users; make it yours alone (chmod 600) and try again.`);
  }
  const password = readFileSync(path, 'utf8').replace(/\r?\n$/, '');
  if (!password) throw new TeamStoreError(`${PASSWORD_FILE} "${path}" is empty.`);
  return password;
}

/**
 * The store to connect to: `--to` (which must carry no password: a command line is visible to every user of
 * the machine) or SESSION_VAULT_TEAM_URL. The password: in SESSION_VAULT_TEAM_URL, else in the file
 * SESSION_VAULT_TEAM_PASSWORD_FILE names, else PGPASSWORD, else ~/.pgpass, which pg reads itself.
 */
export function resolveTeamTarget(to: string | undefined, env: NodeJS.ProcessEnv): TeamTarget {
  const url = to ?? env.SESSION_VAULT_TEAM_URL;
  if (!url) throw new TeamStoreError('Say which team store: --to postgresql://user@host/database, or set SESSION_VAULT_TEAM_URL.');
  const parsed = parseUrl(url);
  if (to !== undefined && parsed.password) {
    throw new TeamStoreError(
      `Put the password in PGPASSWORD, SESSION_VAULT_TEAM_URL or a file named by ${PASSWORD_FILE}, not in --to: other users of this machine can see command lines.`,
    );
  }
  const urlPassword = parsed.password ? decodeURIComponent(parsed.password) : undefined;
  const filePath = env[PASSWORD_FILE];
  const password = urlPassword ?? (filePath ? readPasswordFile(filePath) : undefined) ?? (env.PGPASSWORD || undefined);
  const shown = new URL(parsed.href);
  shown.password = '';
  // pg reads the password from the connection string over any given beside it: so it goes in there (never printed).
  const connection = new URL(shown.href);
  if (password !== undefined) connection.password = encodeURIComponent(password);
  return { shown: shown.href, connectionString: connection.href, ...(password !== undefined ? { password } : {}) };
}
