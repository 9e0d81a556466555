// The `session-vault` command line: list and serve over the same services the app uses.
import { runList, LIST_HELP } from './list-command.ts';
import { runSearch, SEARCH_HELP } from './search-command.ts';
import { runUsage, USAGE_HELP } from './usage-command.ts';
import { runDiff, DIFF_HELP } from './diff-command.ts';
import { runRecord, RECORD_HELP } from './record-command.ts';
import { runValidate, VALIDATE_HELP } from './validate-command.ts';
import { runOpen, OPEN_HELP } from './open-command.ts';
import { runVaultCommand, VAULT_HELP } from './vault-commands.ts';
import { runBundleCommand, BUNDLE_HELP } from './bundle-commands.ts';
import { runTeam, TEAM_HELP } from './team-commands.ts';
import { runServe } from '../transport/serve.ts';
import { SERVE_HELP } from './serve-args.ts';
import { UsageError } from './usage-error.ts';
import { appVersion } from '../env/app-version.ts';
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

const COMMANDS: Record<string, { run: (argv: string[]) => Promise<void>; help: string }> = {
  list: { run: (argv) => runList(argv), help: LIST_HELP },
  search: { run: (argv) => runSearch(argv), help: SEARCH_HELP },
  usage: { run: (argv) => runUsage(argv), help: USAGE_HELP },
  diff: { run: (argv) => runDiff(argv), help: DIFF_HELP },
  serve: { run: (argv) => runServe(argv), help: SERVE_HELP },
  record: { run: (argv) => runRecord(argv), help: RECORD_HELP },
  validate: { run: (argv) => runValidate(argv), help: VALIDATE_HELP },
  open: { run: (argv) => runOpen(argv), help: OPEN_HELP },
  team: { run: (argv) => runTeam(argv), help: TEAM_HELP },
  ...Object.fromEntries(Object.entries(VAULT_HELP).map(([name, help]) => [name, { run: (argv: string[]) => runVaultCommand(name, argv), help }])),
  ...Object.fromEntries(Object.entries(BUNDLE_HELP).map(([name, help]) => [name, { run: (argv: string[]) => runBundleCommand(name, argv), help }])),
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
    process.stdout.write(topic ? topic.help : HELP);
    return 0;
  }
  const entry = COMMANDS[command];
  if (!entry) {
    process.stderr.write(`session-vault: unknown command "${command}".\n\n${HELP}`);
    return 2;
  }
  try {
    await entry.run(rest);
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

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`session-vault: ${sanitizeLines(describeError(err))}\n`);
    process.exitCode = 1;
  },
);
