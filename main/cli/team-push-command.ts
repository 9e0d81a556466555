// `session-vault team push`: sessions to a team store, the review shown before a session's first push, resumed after a dropped connection.
import { hostname } from 'node:os';
import { createInterface } from 'node:readline/promises';
import type { ParseArgsConfig } from 'node:util';
import type { Services } from '../app/services.ts';
import { resolveDataDir } from '../env/data-dir.ts';
import { sessionPrefix } from '../bundle/bundle-paths.ts';
import { PushLedger } from '../team/push-ledger.ts';
import { safeName } from '../vault/vault-store.ts';
import { pushResuming } from '../team/push-resume.ts';
import type { PushOptions, PushProgress, PushReport } from '../team/push.ts';
import { connectTeam } from '../team/team-connection.ts';
import { formatFindings } from './bundle-commands.ts';
import { withOneShotServices } from './one-shot.ts';
import { parseCommandArgs } from './parse-command-args.ts';
import { sanitizeForTerminal, terminalJson } from './terminal-text.ts';
import { withStore } from './team-store-access.ts';
import { UsageError } from './usage-error.ts';
import { resolveSessionRef } from './resolve-session.ts';

export const PUSH_OPTIONS = {
  to: { type: 'string' },
  query: { type: 'string' },
  all: { type: 'boolean' },
  machine: { type: 'string' },
  keep: { type: 'string', multiple: true },
  yes: { type: 'boolean', short: 'y' },
  'no-sources': { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  root: { type: 'string', multiple: true },
  'no-defaults': { type: 'boolean' },
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

/** Keys for the sessions named (key, id or key suffix), matched by --query, or all of them; with each one's listing. */
async function pushKeys(
  services: Services,
  given: string[],
  query: string | undefined,
  all: boolean,
): Promise<{ keys: string[]; listings: Map<string, string> }> {
  const { sessions } = await services.client.listSessions({ includeChildren: true });
  const listings = new Map(sessions.map((s) => [s.key, JSON.stringify(s)]));
  if (all || query !== undefined) {
    const matching = query === undefined ? sessions : (await services.client.listSessions({ includeChildren: true, text: query })).sessions;
    const readable = matching.filter((s) => !s.unreadable).map((s) => s.key);
    if (!readable.length) throw new UsageError(query !== undefined ? `No session matches "${query}".` : 'No sessions found to push.');
    return { keys: readable, listings };
  }
  // As every other command takes a session: its key, its id, or a unique start of one (resolve-session.ts).
  const keys = given.map((g) => resolveSessionRef(g, sessions));
  return { keys, listings };
}

function megabytes(n: number): string {
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function formatPush(report: PushReport, store: string): string {
  const lines = [formatFindings(report.findings)];
  const where = `${store} as machine "${report.machine}" (account ${report.account})`;
  const files = report.sourceBytes ? `, ${megabytes(report.sourceBytes)} of it source files` : '';
  const sent = report.dryRun
    ? `Dry run: would push ${report.pushed.length} session(s) (${megabytes(report.bytes)}${files}) to ${where}; nothing was sent.`
    : `Pushed ${report.pushed.length} session(s) (${megabytes(report.bytes)}${files}) to ${where} in ${report.batches} batch(es).`;
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

/** Asks on the terminal; false without one (a pipe, CI): then --yes is the way to confirm. */
async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

/** The findings of the sessions held for review (their files are in those sessions' folders of the bundle layout). */
function heldFindings(report: PushReport): PushReport['findings'] {
  const folders = report.held.map((key) => sessionPrefix(safeName(key)));
  return report.findings.filter((f) => folders.some((folder) => f.file.startsWith(folder)));
}

export const PUSH_HELP_OPTIONS = `Push options:
  --query TEXT     every session whose title, project, branch, id or summary contains TEXT
  --all            every readable session
  --machine NAME   the machine label the sessions carry (default: this computer's host name)
  --keep ID        leave the finding with this id as it is: a false positive (repeatable)
  -y, --yes        push sessions the store does not have yet without asking (their review is printed)
  --no-sources     send the normalized session.json only, not the source files
  --dry-run        scan and compare with the store; send nothing
  --root DIR       also read sessions below DIR (repeatable; not saved)
  --no-defaults    skip the tools' default folders`;

export async function runPush(argv: string[], env: NodeJS.ProcessEnv, help: string): Promise<void> {
  const { values: v, positionals } = parseCommandArgs(argv, PUSH_OPTIONS, help);
  if (v.help) return void process.stdout.write(help);
  const choices = [positionals.length > 0, v.query !== undefined, v.all === true].filter(Boolean).length;
  if (choices !== 1) throw new UsageError(`name the sessions to push: <session>..., --query TEXT or --all (one of them).\n\n${help}`);
  const machine = v.machine ?? defaultMachine();
  const dryRun = v['dry-run'] === true;
  await withStore(v.to, env, async (conn, target) => {
    await withOneShotServices({ roots: v.root, noDefaults: v['no-defaults'], needs: 'list' }, env, async (services) => {
      const { keys, listings } = await pushKeys(services, positionals, v.query, v.all === true);
      const ledger = await PushLedger.open(resolveDataDir(env), target.shown, machine);
      const push = async (only: string[], newSessions: PushOptions['newSessions']) => {
        const progress = progressLine();
        const loader = services.bundles.openLoader();
        let first = true;
        try {
          return await pushResuming(
            {
              machine,
              keys: only,
              loader,
              env,
              keep: v.keep ?? [],
              sources: v['no-sources'] !== true,
              dryRun,
              newSessions,
              ledger,
              listing: (k) => listings.get(k),
              onProgress: progress.update,
            },
            {
              // The first attempt uses the connection already checked; a resumed one connects again.
              connect: async () => (first ? ((first = false), { ...conn, close: async () => undefined }) : connectTeam(target)),
              onRetry: (attempt, reason) =>
                process.stderr.write(`The connection to the team store was lost (${sanitizeForTerminal(reason)}); resuming, attempt ${attempt}.\n`),
            },
          );
        } finally {
          progress.done();
          await loader.close();
        }
      };
      // Sessions the store has never had wait for the review unless --yes (or a dry run, which sends nothing).
      let report = await push(keys, v.yes || dryRun ? 'push' : 'hold');
      let held: string[] = [];
      if (report.held.length) {
        const review = [
          `Review before the first push of ${report.held.length} session(s):`,
          formatFindings(heldFindings(report)),
          'Secrets found are redacted before anything is sent; --keep ID leaves a false positive as it is.',
        ].join('\n');
        if (!v.json) process.stdout.write(`${review}\n`);
        if (!v.json && (await confirm(`Push these ${report.held.length} session(s) to ${target.shown}? [y/N] `))) {
          const rest = await push(report.held, 'push');
          report = {
            ...rest,
            unchanged: [...report.unchanged, ...rest.unchanged],
            pushed: [...report.pushed, ...rest.pushed],
            bytes: report.bytes + rest.bytes,
            sourceBytes: report.sourceBytes + rest.sourceBytes,
            chunks: { sent: report.chunks.sent + rest.chunks.sent, kept: report.chunks.kept + rest.chunks.kept },
            batches: report.batches + rest.batches,
          };
        } else held = report.held;
      }
      process.stdout.write(v.json ? `${terminalJson({ store: target.shown, ...report })}\n` : `${formatPush(report, target.shown)}\n`);
      if (held.length) {
        throw new UsageError(
          `${held.length} session(s) the team store does not have yet were not pushed: review their findings above, then push again with --yes (and --keep ID for a false positive).`,
        );
      }
    });
  });
}
