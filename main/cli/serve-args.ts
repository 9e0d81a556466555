// Parses `session-vault serve [--port N] [--root DIR]...`.
import { resolve } from 'node:path';
import { UsageError } from './usage-error.ts';
import { parseCommandArgs } from './parse-command-args.ts';
import { checkServeAddress } from '../transport/serve-tls.ts';

export const SERVE_HELP = `Usage: session-vault serve [--port N] [--root DIR]... [--no-defaults] [--no-open]
       session-vault serve --team URL [--port N] [--host ADDRESS [--tls-cert FILE --tls-key FILE | --insecure-http]] [--no-open]

Serves the Session Vault UI to a browser on 127.0.0.1, prints the URL and opens it in your browser
(when started at a terminal on a desktop). The URL carries a random token made for this run;
requests without it are refused.

Options:
  --port N      port to listen on (default: any free port)
  --root DIR    also read sessions below DIR for this run (repeatable)
  --no-defaults skip the tools' default folders for this run (with --root: only those folders)
  --no-open     print the address only; do not open a browser
  --team URL    serve a team store (PostgreSQL) read-only instead of this machine's sessions: its sessions
                listed with their machine, searched, opened, compared and exported. The URL carries no
                password: it comes from SESSION_VAULT_TEAM_PASSWORD_FILE, PGPASSWORD or ~/.pgpass
  --host ADDRESS   with --team: listen on ADDRESS (0.0.0.0 for every interface) instead of 127.0.0.1, for
                   people on other machines. Refused without TLS unless --insecure-http
  --tls-cert FILE  with --host: serve HTTPS with this PEM certificate (its names are the host names accepted)
  --tls-key FILE   and its PEM private key (no passphrase; keep it readable by you alone)
  --insecure-http  with --host: serve plain HTTP (the sessions and the token cross the network unencrypted)
  -h, --help    show this help
`;

export interface ServeArgs {
  port: number;
  roots: string[];
  /** --no-defaults: the tools' default folders are not read this run. */
  noDefaults: boolean;
  /** Open the address in the browser (unless --no-open; and only at a desktop terminal, see open-browser.ts). */
  open: boolean;
  /** --team URL: the team store to serve instead of the local sessions. */
  team?: string;
  /** --host ADDRESS (with --team): where to listen instead of 127.0.0.1. */
  host?: string;
  /** --tls-cert FILE --tls-key FILE (with --team): serve HTTPS. */
  tls?: { cert: string; key: string };
  /** --insecure-http (with --team): plain HTTP on a non-loopback address. */
  insecureHttp?: boolean;
  help: boolean;
}

export function parseServeArgs(argv: string[]): ServeArgs {
  const { values } = parseCommandArgs(
    argv,
    {
      port: { type: 'string' },
      root: { type: 'string', multiple: true },
      'no-defaults': { type: 'boolean' },
      'no-open': { type: 'boolean' },
      team: { type: 'string' },
      host: { type: 'string' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      'insecure-http': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    SERVE_HELP,
    { positionals: false },
  );
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be a whole number from 0 to 65535, not "${values.port}".`);
  }
  if (values.team !== undefined && (values.root?.length || values['no-defaults']))
    throw new UsageError(
      `--team serves a team store; ${values.root?.length ? '--root adds' : '--no-defaults skips'} local folders, which it does not show. Use one or the other.`,
    );
  const network = (['host', 'tls-cert', 'tls-key', 'insecure-http'] as const).filter((o) => values[o] !== undefined);
  if (network.length && values.team === undefined) throw new UsageError(`--${network[0]} is for serve --team; the local vault is served on 127.0.0.1 only.`);
  checkServeAddress(values.host ?? '127.0.0.1', { cert: values['tls-cert'], key: values['tls-key'] }, values['insecure-http'] === true);
  return {
    port,
    roots: (values.root ?? []).map((r) => resolve(r)),
    noDefaults: values['no-defaults'] === true,
    open: values['no-open'] !== true,
    ...(values.team !== undefined ? { team: values.team } : {}),
    ...(values.host !== undefined ? { host: values.host } : {}),
    ...(values['tls-cert'] !== undefined && values['tls-key'] !== undefined
      ? { tls: { cert: resolve(values['tls-cert']), key: resolve(values['tls-key']) } }
      : {}),
    ...(values['insecure-http'] ? { insecureHttp: true } : {}),
    help: values.help ?? false,
  };
}
