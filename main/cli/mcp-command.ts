// `session-vault mcp`: the MCP server over stdio; it answers the client's hello at once and starts the services meanwhile (imported lazily).
import { resolve } from 'node:path';
import type { McpBackend } from '../mcp/mcp-tools.ts';
import type { Services } from '../app/services.ts';
import { parseCommandArgs } from './parse-command-args.ts';

export const MCP_HELP = `Usage: session-vault mcp [--root DIR]... [--no-defaults]

Serves the vault to an AI assistant as a Model Context Protocol server over standard input and output
(the assistant starts it; see the README for Claude Code, Codex and Gemini CLI). Tools:

  sessions_list           sessions, newest first, filtered with the search syntax; hasSummary true/false
  sessions_search         ranked full-text hits with snippets and the matching message's index
  session_transcript      one session's messages in pages of at most maxChars characters
  session_update_summary  save a session's structured summary (overview, decisions, outcomes, openItems, tags)
  sessions_compare        two sessions side by side (as "diff --json")
  usage_report            tokens and cost per day, week, month or session

Every tool reads only, except session_update_summary, which writes the vault's summary of one session.
Sessions are named by key; no tool takes a file path.

Options:
  --root DIR      also read sessions below DIR (repeatable; not saved)
  --no-defaults   skip the tools' default folders
  -h, --help      show this help
`;

/** Starts the services in this process (watching for new sessions, as the app does) and hands the tools their client. */
async function startBackend(roots: string[], noDefaults: boolean, env: NodeJS.ProcessEnv): Promise<{ backend: McpBackend; services: Services }> {
  const [{ configureHeaps }, { createServices }, { resolveDataDir }] = await Promise.all([
    import('../env/idle-memory.ts'),
    import('../app/services.ts'),
    import('../env/data-dir.ts'),
  ]);
  configureHeaps();
  const services = createServices({ dataDir: resolveDataDir(env), shell: 'cli', extraRoots: roots, discoverDefaults: !noDefaults, env });
  await services.start();
  for (const problem of services.startupProblems()) process.stderr.write(`session-vault mcp: ${problem}\n`);
  return { services, backend: { client: services.client, whenListed: () => services.whenListed(), whenScanned: () => services.whenScanned() } };
}

export async function runMcp(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const { values } = parseCommandArgs(
    argv,
    { root: { type: 'string', multiple: true }, 'no-defaults': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    MCP_HELP,
  );
  if (values.help) return void process.stdout.write(MCP_HELP);
  // Standard output carries the protocol only: anything else a module might print goes to standard error.
  console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);
  const [{ serveStdio }, { appVersion }] = await Promise.all([import('../mcp/mcp-server.ts'), import('../env/app-version.ts')]);
  let started: Promise<{ backend: McpBackend; services: Services }> | null = null;
  let startBackendNow: () => void = () => {};
  const backend = new Promise<McpBackend>((done, fail) => {
    startBackendNow = () => {
      started = startBackend(
        (values.root ?? []).map((r) => resolve(r)),
        values['no-defaults'] === true,
        env,
      );
      started.then((s) => done(s.backend), fail);
    };
  });
  backend.catch((err: unknown) =>
    process.stderr.write(`session-vault mcp: the services could not start: ${err instanceof Error ? err.message : String(err)}\n`),
  );
  const server = await serveStdio(backend, appVersion);
  startBackendNow();
  // The client ends the session by closing our standard input (or by a signal): then the services close too.
  await new Promise<void>((done) => {
    process.stdin.once('end', done);
    process.stdin.once('close', done);
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await server.close().catch(() => undefined);
  const running = await (started as Promise<{ services: Services }> | null)?.catch(() => null);
  await running?.services.close();
}
