// `session-vault list`: id, created, branch, outcome and a short summary per session (the seeds' `sessions list`).
import { resolve } from 'node:path';
import type { SessionSummary } from '../../shared/session.ts';
import { resolveDataDir } from '../env/data-dir.ts';
import { fastListInBatches } from './list-fast-path.ts';
import { parseCommandArgs } from './parse-command-args.ts';
import { sanitizeForTerminal, TerminalJsonArray, writeTerminalJsonArray } from './terminal-text.ts';
import { changesFound } from './index-current.ts';

export const LIST_HELP = `Usage: session-vault list [--json] [--root DIR]... [--no-defaults]

Lists every session found in the saved folders, the tools' default folders and any --root,
newest first: id, created, source, branch, outcome and a short summary.

Options:
  --json          print a JSON array of session summaries instead of a table
  --root DIR      also read sessions below DIR (repeatable; not saved)
  --no-defaults   skip the tools' default folders
  -h, --help      show this help
`;

function cell(value: string | null | undefined, width: number): string {
  const text = sanitizeForTerminal(value ?? '-').replace(/\s+/g, ' ');
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}

function created(s: SessionSummary): string {
  if (!s.createdAt) return '-';
  const d = new Date(s.createdAt);
  return Number.isNaN(d.getTime()) ? s.createdAt : d.toISOString().slice(0, 16).replace('T', ' ');
}

/** `width`: the terminal's columns, to cut long summaries; undefined (a pipe) keeps whole lines. */
export function formatTable(sessions: SessionSummary[], width?: number): string {
  if (!sessions.length) return 'No sessions found. Add a folder with --root DIR, or open the app and add one.\n';
  const lines = [`${cell('ID', 38)} ${cell('CREATED', 16)} ${cell('SOURCE', 11)} ${cell('BRANCH', 20)} ${cell('OUTCOME', 10)} SUMMARY`];
  for (const s of sessions) {
    const summary = s.unreadable ? `UNREADABLE: ${s.unreadable.message} (${s.primaryPath})` : (s.outcomeSummary ?? s.title);
    const line = `${cell(s.id, 38)} ${cell(created(s), 16)} ${cell(s.format, 11)} ${cell(s.branch, 20)} ${cell(s.outcomeStatus ?? s.status, 10)} ${sanitizeForTerminal(summary).replace(/\s+/g, ' ')}`;
    lines.push(width && line.length > width ? `${line.slice(0, Math.max(width - 1, 0))}…` : line);
  }
  return `${lines.join('\n')}\n`;
}

export async function runList(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const { values } = parseCommandArgs(
    argv,
    {
      json: { type: 'boolean' },
      root: { type: 'string', multiple: true },
      'no-defaults': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    LIST_HELP,
    { positionals: false },
  );
  if (values.help) {
    process.stdout.write(LIST_HELP);
    return;
  }
  const print = (sessions: SessionSummary[]) => {
    const width = process.stdout.isTTY ? process.stdout.columns : undefined;
    if (values.json) writeTerminalJsonArray(sessions, (chunk) => process.stdout.write(chunk));
    else process.stdout.write(formatTable(sessions, width));
  };
  const dataDir = resolveDataDir(env);
  const extraRoots = (values.root ?? []).map((r) => resolve(r));
  const noDefaults = values['no-defaults'] === true;
  // Nothing changed below the roots since the last full run: the index answers as it is (no services, no scan), the
  // JSON a batch of rows at a time; the table is laid out once every row is in.
  const json = new TerminalJsonArray((chunk) => process.stdout.write(chunk));
  const table: SessionSummary[] = [];
  const fast = await fastListInBatches(dataDir, { roots: extraRoots, noDefaults }, env, (batch) => (values.json ? json.add(batch) : table.push(...batch)));
  if (fast) return values.json ? json.end() : print(table);
  const startedAt = Date.now();
  // Loaded only now: the services load every reader, the workers and the index's writer.
  const { withOneShotServices } = await import('./one-shot.ts');
  // The check above found what changed since the last run: the scan reads that instead of walking every root.
  const found = changesFound(dataDir);
  const run = await withOneShotServices({ roots: values.root, noDefaults, needs: 'list', found }, env, async (services) => {
    print((await services.client.listSessions({})).sessions);
    return { roots: await services.client.listRoots(), problems: services.startupProblems() };
  });
  // What the scan saw, for the next run's fast path (not kept when something changed while this one ran).
  // Loaded only here: writing the snapshot loads node:crypto (~18 ms), which the fast path does without.
  const { recordScan } = await import('./scan-snapshot.ts');
  await recordScan(dataDir, { extraRoots, noDefaults, env, startedAt, found, ...run });
}
