// The `session-vault` command line: list and serve over the same services the app uses.
import { enableCompileCache } from 'node:module';
import { UsageError } from './usage-error.ts';
import { BUNDLE_COMMANDS, VAULT_COMMANDS } from './command-names.ts';
import { appVersion } from '../env/app-version.ts';
import { configureHeaps } from '../env/idle-memory.ts';
import { sanitizeLines } from './terminal-text.ts';
import { describeError } from '../fs/fs-error-text.ts';

const HELP = `Usage: session-vault <command> [options]

Keep, browse and search the sessions AI coding assistants write to disk.

Commands:
  list       list every session found (id, created, branch, outcome, summary)
  search     full-text search with filters: session-vault search "<query>" [--json]
  usage      tokens and cost per day, week, month or session: session-vault usage daily [--json]
  diff       compare two sessions side by side, across formats: session-vault diff <a> <b> [--json]
  open       print the summary of one session file, wherever it lies: session-vault open <file> [--json]
  serve      serve the app's UI to a browser on 127.0.0.1
  record     record a session step by step (start|append|op|close), crash-safe
  validate   check session.json files against the session schema
  keep       copy sessions into the vault, safe from tools that delete old ones
  tag, note  star, tag and annotate a session
  summary    print or set a session's structured summary: session-vault summary <session> [--set FILE|-] [--json]
  mcp        serve the vault to an AI assistant over stdio (Model Context Protocol)
  fork       branch a new vault session from a prior point of another
  resume     print the command that resumes a session in its own tool
  prune      move vault sessions older than N days to the trash (dry run first)
  delete     move a session's vault copy to the trash (source files only when named)
  clear      move every vault session to the trash
  export     share sessions as a redacted zip bundle, or one as Markdown or HTML
  import     bring a bundle's sessions into the vault (checked first, never overwrites)
  team       push sessions to a team's PostgreSQL store (redacted, incremental); manage its accounts
  help       show help for a command: session-vault help <command>

Options:
  -h, --help     show this help (or a command's, after the command)
  -v, --version  print the version

Environment:
  SESSION_VAULT_HOME              where the app keeps its own data (default: the platform's data folder)
  SESSION_VAULT_SESSIONS_DIR      where "record" writes sessions
  SESSION_VAULT_SESSION_LOGGING   on|off for "record" (off writes nothing)
  SESSION_VAULT_REDACT            secrets,env | secrets | env | none for "record"
  SESSION_VAULT_WRITER_CONFIG     the settings file "record" reads
`;

interface Command {
  run: (argv: string[]) => Promise<void>;
  help: string;
}

/**
 * Each command's module is loaded only when that command runs (or its help is asked for): a one-shot command
 * does not pay for parsing the server, the MCP SDK, the team store's driver and every other command.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  list: async () => import('./list-command.ts').then((m) => ({ run: m.runList, help: m.LIST_HELP })),
  search: async () => import('./search-command.ts').then((m) => ({ run: m.runSearch, help: m.SEARCH_HELP })),
  usage: async () => import('./usage-command.ts').then((m) => ({ run: m.runUsage, help: m.USAGE_HELP })),
  diff: async () => import('./diff-command.ts').then((m) => ({ run: m.runDiff, help: m.DIFF_HELP })),
  summary: async () => import('./summary-command.ts').then((m) => ({ run: m.runSummary, help: m.SUMMARY_HELP })),
  mcp: async () => import('./mcp-command.ts').then((m) => ({ run: m.runMcp, help: m.MCP_HELP })),
  serve: async () => {
    const [{ runServe }, { SERVE_HELP }] = await Promise.all([import('../transport/serve.ts'), import('./serve-args.ts')]);
    return { run: (argv) => runServe(argv), help: SERVE_HELP };
  },
  record: async () => import('./record-command.ts').then((m) => ({ run: m.runRecord, help: m.RECORD_HELP })),
  validate: async () => import('./validate-command.ts').then((m) => ({ run: m.runValidate, help: m.VALIDATE_HELP })),
  open: async () => import('./open-command.ts').then((m) => ({ run: m.runOpen, help: m.OPEN_HELP })),
  team: async () => import('./team-commands.ts').then((m) => ({ run: m.runTeam, help: m.TEAM_HELP })),
  ...Object.fromEntries(
    VAULT_COMMANDS.map((name) => [
      name,
      async (): Promise<Command> =>
        import('./vault-commands.ts').then((m) => ({ run: (argv: string[]) => m.runVaultCommand(name, argv), help: m.VAULT_HELP[name]! })),
    ]),
  ),
  ...Object.fromEntries(
    BUNDLE_COMMANDS.map((name) => [
      name,
      async (): Promise<Command> =>
        import('./bundle-commands.ts').then((m) => ({ run: (argv: string[]) => m.runBundleCommand(name, argv), help: m.BUNDLE_HELP[name]! })),
    ]),
  ),
};

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '-h' || command === '--help') {
    process.stdout.write(HELP);
    return 0;
  }
  if (command === '-v' || command === '--version') {
    process.stdout.write(`${appVersion}\n`);
    return 0;
  }
  if (command === 'help') {
    const topic = rest[0] ? COMMANDS[rest[0]] : undefined;
    process.stdout.write(topic ? (await topic()).help : HELP);
    return 0;
  }
  const load = COMMANDS[command];
  if (!load) {
    process.stderr.write(`session-vault: unknown command "${command}".\n\n${HELP}`);
    return 2;
  }
  try {
    await (await load()).run(rest);
    return 0;
  } catch (err) {
    // Messages name sessions, keys and bundle entries: printed without the escape sequences they may hold.
    if (err instanceof UsageError) {
      process.stderr.write(`session-vault ${command}: ${sanitizeLines(err.message)}\n`);
      return 2;
    }
    process.stderr.write(`session-vault ${command}: ${sanitizeLines(describeError(err))}\n`);
    return 1;
  }
}

// V8's compiled code of the modules a command loads, kept between runs in Node's cache folder (NODE_DISABLE_COMPILE_CACHE
// turns it off): a one-shot command spends much of its time loading modules. The modules above are loaded already.
enableCompileCache();
// The young generation held at its first size from here on: a process that keeps growing it touches fresh pages,
// which cost more than the collections they save (a quick `list` of 1,698 sessions: 70 ms less CPU held, median of 16).
configureHeaps();

// A reader that stops early (`session-vault list --json | head`) closes the pipe: the rest of the output has nowhere
// to go, and that is not an error (a shell's own tools end quietly too). Any other failure to write is said in a line.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') process.stderr.write(`session-vault: cannot write the output (${sanitizeLines(describeError(err))}).\n`);
  process.exit(err.code === 'EPIPE' ? 0 : 1);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`session-vault: ${sanitizeLines(describeError(err))}\n`);
    process.exitCode = 1;
  },
);
