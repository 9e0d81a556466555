// `session-vault serve`: the whole UI in any browser, over HTTP + SSE on 127.0.0.1 with a per-run token.
import { randomBytes } from 'node:crypto';
import { openInBrowser } from './open-browser.ts';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { createHttpTransport } from './http-server.ts';
import { configureHeaps } from '../env/idle-memory.ts';
import { createServices, type Services } from '../app/services.ts';
import { resolveDataDir } from '../env/data-dir.ts';
import { parseServeArgs, SERVE_HELP } from '../cli/serve-args.ts';
import { UsageError } from '../cli/usage-error.ts';
import { sanitizeForTerminal } from '../cli/terminal-text.ts';
import { runTeamServe } from './serve-team.ts';

export interface RunningServer {
  url: string;
  port: number;
  token: string;
  services: Services;
  /**
   * Resolves when the services have started (roots and vault loaded, the catalogue restored from the index).
   * The server listens before that: the list's first page is read from the index meanwhile, other calls wait.
   */
  started: Promise<void>;
  close(): Promise<void>;
}

/** out/main/*.js sits beside out/renderer; from source (tests) the built UI is in out/renderer too. */
export function defaultRendererDir(): string {
  const here = fileURLToPath(import.meta.url);
  return here.endsWith('.ts') ? resolve(dirname(here), '..', '..', 'out', 'renderer') : resolve(dirname(here), '..', 'renderer');
}

export interface StartServerOptions {
  dataDir: string;
  port?: number;
  roots?: string[];
  discoverDefaults?: boolean;
  rendererDir?: string;
  env?: NodeJS.ProcessEnv;
}

export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const rendererDir = options.rendererDir ?? defaultRendererDir();
  const services = createServices({
    dataDir: options.dataDir,
    shell: 'web',
    extraRoots: options.roots ?? [],
    ...(options.discoverDefaults === undefined ? {} : { discoverDefaults: options.discoverDefaults }),
    ...(options.env ? { env: options.env } : {}),
  });
  const started = services.start();
  started.catch(() => undefined); // awaited by the caller (runServe), or below when listening fails
  const token = randomBytes(24).toString('base64url');
  let port = 0;
  const server = createHttpTransport({
    dispatch: services.dispatch,
    subscribe: services.subscribe,
    token,
    rendererDir,
    port: () => port,
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolveListen());
  }).catch(async (err: NodeJS.ErrnoException) => {
    await started.catch(() => undefined);
    await services.close();
    if (err.code === 'EADDRINUSE') throw new UsageError(`Port ${options.port} is already in use; pick another with --port, or 0 for any free port.`);
    throw err;
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    services,
    started,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await started.catch(() => undefined);
      await services.close();
    },
  };
}

export async function runServe(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const args = parseServeArgs(argv);
  if (args.help) {
    process.stdout.write(SERVE_HELP);
    return;
  }
  const rendererDir = defaultRendererDir();
  if (!existsSync(join(rendererDir, 'index.html'))) {
    throw new UsageError(`The UI is not built (no ${join(rendererDir, 'index.html')}); run \`npm run build\` first.`);
  }
  // The serve process (`session-vault serve`, `npm start` without Electron) sizes V8's heaps before the services start.
  configureHeaps();
  if (args.team !== undefined)
    return runTeamServe(
      { team: args.team, port: args.port, open: args.open, host: args.host, ...(args.tls ? { tls: args.tls } : {}), insecureHttp: args.insecureHttp },
      rendererDir,
      env,
    );
  const running = await startServer({
    dataDir: resolveDataDir(env),
    port: args.port,
    roots: args.roots,
    ...(args.noDefaults ? { discoverDefaults: false } : {}),
    rendererDir,
    env,
  });
  process.stdout.write(`Session Vault is running at ${running.url}\n`);
  process.stdout.write("Open that address in a browser (it holds this run's access token). Press Ctrl+C to stop.\n");
  if (args.open) process.stdout.write(`${await openInBrowser(running.url, { env, platform: process.platform, interactive: process.stdout.isTTY === true })}\n`);
  try {
    await running.started;
  } catch (err) {
    await running.close();
    throw err;
  }
  for (const problem of running.services.startupProblems()) process.stderr.write(`warning: ${sanitizeForTerminal(problem)}\n`);
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
