// `session-vault serve --team URL`: the UI in a browser over a team store, read-only, on 127.0.0.1 with a per-run token.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { resolveDataDir } from '../env/data-dir.ts';
import { resolveTeamTarget, scrubMessage } from '../team/team-credentials.ts';
import { openTeamServices, type TeamServices } from '../team/team-services.ts';
import { TeamStoreError } from '../team/team-errors.ts';
import { sanitizeForTerminal } from '../cli/terminal-text.ts';
import { UsageError } from '../cli/usage-error.ts';
import { createDispatch } from './dispatch.ts';
import { createHttpTransport } from './http-server.ts';
import { openInBrowser } from './open-browser.ts';

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
  env: NodeJS.ProcessEnv;
}

/** Connects to the store (refused plainly, with no credential shown, when it cannot), then listens on 127.0.0.1. */
export async function startTeamServer(options: StartTeamServerOptions): Promise<RunningTeamServer> {
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
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolveListen());
  }).catch(async (err: NodeJS.ErrnoException) => {
    await team.close();
    if (err.code === 'EADDRINUSE') throw new UsageError(`Port ${options.port} is already in use; pick another with --port, or 0 for any free port.`);
    throw err;
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
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
export async function runTeamServe(args: { team: string; port: number; open: boolean }, rendererDir: string, env: NodeJS.ProcessEnv): Promise<void> {
  const running = await startTeamServer({ team: args.team, dataDir: resolveDataDir(env), rendererDir, port: args.port, env });
  process.stdout.write(`Session Vault is serving the team store ${sanitizeForTerminal(running.team.store)} read-only at ${running.url}\n`);
  process.stdout.write("Open that address in a browser (it holds this run's access token). Press Ctrl+C to stop.\n");
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
