// `session-vault serve --team URL`: the UI in a browser over a team store, read-only, on 127.0.0.1 (or another address over TLS) with a per-run token.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { resolveDataDir } from '../env/data-dir.ts';
import { resolveTeamTarget, scrubMessage } from '../team/team-credentials.ts';
import { openTeamServices, type TeamServices } from '../team/team-services.ts';
import { TeamStoreError } from '../team/team-errors.ts';
import { sanitizeForTerminal } from '../cli/terminal-text.ts';
import { UsageError } from '../cli/usage-error.ts';
import { createDispatch } from './dispatch.ts';
import { createHttpTransport } from './http-server.ts';
import { openInBrowser } from './open-browser.ts';
import { checkServeAddress, isLoopbackHost, isWildcardHost, readServeTls, type ServeTls, type TlsFiles } from './serve-tls.ts';

export interface RunningTeamServer {
  url: string;
  port: number;
  token: string;
  team: TeamServices;
  close(): Promise<void>;
}

export interface StartTeamServerOptions {
  /** The store's URL, with no password in it (as `--team` takes it). */
  team: string;
  dataDir: string;
  rendererDir: string;
  port?: number;
  /** The address to listen on (default 127.0.0.1); another than loopback needs `tls` or `insecureHttp`. */
  host?: string;
  /** Serve HTTPS with this certificate and key (PEM files). */
  tls?: TlsFiles;
  /** Serve plain HTTP on a non-loopback address (a trusted network only). */
  insecureHttp?: boolean;
  env: NodeJS.ProcessEnv;
}

/** The name a browser uses for the server: the address given, or for every interface the certificate's first name (else this machine's). */
function shownHost(host: string, tls: ServeTls | null): string {
  if (!isWildcardHost(host)) return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return tls?.names.find((n) => !n.includes('*')) ?? hostname();
}

/** The Host header names accepted: the address served on (on every interface: this machine's addresses and name) and the certificate's names. */
function acceptedHosts(host: string, tls: ServeTls | null): string[] {
  const own = isWildcardHost(host)
    ? [
        hostname(),
        shownHost(host, tls),
        ...Object.values(networkInterfaces())
          .flat()
          .flatMap((i) => (i ? [i.address] : [])),
      ]
    : [host.replace(/^\[|\]$/g, '')];
  return [...own, ...(tls?.names ?? [])];
}

/**
 * Checks the address and reads the TLS files (a non-loopback address without TLS is refused unless insecureHttp),
 * connects to the store (refused plainly, with no credential shown, when it cannot), then listens.
 */
export async function startTeamServer(options: StartTeamServerOptions): Promise<RunningTeamServer> {
  const host = options.host ?? '127.0.0.1';
  checkServeAddress(host, options.tls ?? {}, options.insecureHttp === true);
  const tls = options.tls ? await readServeTls(options.tls) : null;
  const target = resolveTeamTarget(options.team, options.env);
  const team = await openTeamServices(target, options.dataDir, options.env).catch((err: unknown) => {
    throw err instanceof TeamStoreError ? new UsageError(scrubMessage(err.message, [target.password, options.env.PGPASSWORD])) : err;
  });
  const token = randomBytes(24).toString('base64url');
  let port = 0;
  const server = createHttpTransport({
    dispatch: createDispatch(team.methods),
    subscribe: team.subscribe,
    token,
    rendererDir: options.rendererDir,
    port: () => port,
    ...(tls ? { tls: { cert: tls.cert, key: tls.key } } : {}),
    hosts: acceptedHosts(host, tls),
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolveListen());
  }).catch(async (err: NodeJS.ErrnoException) => {
    await team.close();
    if (err.code === 'EADDRINUSE') throw new UsageError(`Port ${options.port} is already in use; pick another with --port, or 0 for any free port.`);
    if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND')
      throw new UsageError(`Cannot listen on ${host}: no interface of this machine has that address.`);
    throw err;
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `${tls ? 'https' : 'http'}://${shownHost(host, tls)}:${port}/?token=${token}`,
    port,
    token,
    team,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await team.close();
    },
  };
}

/** Runs until Ctrl+C or SIGTERM. */
export async function runTeamServe(
  args: { team: string; port: number; open: boolean; host?: string; tls?: TlsFiles; insecureHttp?: boolean },
  rendererDir: string,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const running = await startTeamServer({
    team: args.team,
    dataDir: resolveDataDir(env),
    rendererDir,
    port: args.port,
    env,
    ...(args.host !== undefined ? { host: args.host } : {}),
    ...(args.tls ? { tls: args.tls } : {}),
    ...(args.insecureHttp ? { insecureHttp: true } : {}),
  });
  process.stdout.write(`Session Vault is serving the team store ${sanitizeForTerminal(running.team.store)} read-only at ${running.url}\n`);
  process.stdout.write("Open that address in a browser (it holds this run's access token). Press Ctrl+C to stop.\n");
  if (args.insecureHttp && !args.tls && args.host !== undefined && !isLoopbackHost(args.host))
    process.stderr.write(
      `Warning: plain HTTP on ${sanitizeForTerminal(args.host)}: the sessions and the token cross the network unencrypted (--insecure-http).\n`,
    );
  if (args.open) process.stdout.write(`${await openInBrowser(running.url, { env, platform: process.platform, interactive: process.stdout.isTTY === true })}\n`);
  await new Promise<void>((resolveStop) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void running.close().then(resolveStop);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
