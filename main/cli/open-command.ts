// `session-vault open <file | session> [--json]`: the summary of one session file wherever it lies, read by the app's own readers, or of a listed session named by its key or id.
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { FORMAT_LABELS } from '../../shared/source-formats.ts';
import { resolve } from 'node:path';
import type { SessionSummary } from '../../shared/session.ts';
import { toSummary } from '../../shared/summarize.ts';
import { resolveReader } from '../sources/recognize.ts';
import { readers } from '../sources/registry.ts';
import { UnreadableError } from '../sources/types.ts';
import { parseCommandArgs } from './parse-command-args.ts';
import { resolveSessionRef, SessionNotFound } from './resolve-session.ts';
import { withOneShotServices } from './one-shot.ts';
import { sanitizeForTerminal, terminalJson } from './terminal-text.ts';
import { UsageError } from './usage-error.ts';

export const OPEN_HELP = `Usage: session-vault open [--json] <file | session>

Prints the summary of one session file, wherever it lies: its format is told by its place in a tool's
layout or, for a file anywhere else, by its first records. The file's folder is not added as a root.
Given no file by that name, it takes a session as \`list\` shows them: a key (claude-code:…), an id or
a unique start of one.

Options:
  --json          print the session summary as JSON
  --root DIR      with a session: also look below DIR (repeatable; not saved)
  --no-defaults   with a session: skip the tools' default folders
  -h, --help      show this help

Exit codes: 0 printed, 1 not a session file or unreadable, 2 usage.
`;

/** One summary as `label: value` lines (values from the session pass the terminal filter). */
export function formatSummary(s: SessionSummary, label: string): string {
  const rows: Array<[string, string | number | null]> = [
    ['title', s.title],
    ['format', `${label} (${s.format})`],
    ['id', s.id],
    ['created', s.createdAt],
    ['updated', s.updatedAt],
    ['project', s.projectPath ?? s.projectName],
    ['branch', s.branch],
    ['model', s.model],
    ['status', s.outcomeStatus ?? s.status],
    ['messages', s.messageCount],
    ['tool calls', s.toolCallCount],
    ['tokens', s.totalTokens],
    ['cost (USD)', s.costUsd],
    ['warnings', s.warningCount],
    ['file', s.primaryPath],
  ];
  return rows
    .filter(([, v]) => v !== null && v !== '')
    .map(([k, v]) => `${`${k}:`.padEnd(12)} ${sanitizeForTerminal(String(v))}`)
    .join('\n')
    .concat('\n');
}

/** A name with no path separator that is no file here may be a session's key or id. */
const mayBeSessionRef = (given: string): boolean => !/[\\/]/.test(given);

async function summarizeFile(file: string, info: Stats): Promise<{ summary: SessionSummary; label: string }> {
  if (!info.isFile()) throw new Error(`${file} is not a file.`);
  const reader = await resolveReader(file);
  if (!reader) {
    const known = readers.map((r) => FORMAT_LABELS[r.format]).join(', ');
    throw new Error(`${file} is not a session file any reader recognises (by its place or its first records): ${known}.`);
  }
  try {
    return { summary: toSummary(await reader.read(file)), label: FORMAT_LABELS[reader.format] };
  } catch (err) {
    const reason = err instanceof UnreadableError ? err.message : `${(err as Error).name}: ${(err as Error).message}`;
    throw new Error(`${file} looks like a ${FORMAT_LABELS[reader.format]} session but cannot be read: ${reason}`, { cause: err });
  }
}

/** The listed session a key, an id or a unique id start names (as `diff` and `export` take them). */
async function summarizeListed(given: string, roots: string[] | undefined, noDefaults: boolean | undefined, env: NodeJS.ProcessEnv) {
  return withOneShotServices({ roots, noDefaults, needs: 'list' }, env, async (services) => {
    const { sessions } = await services.client.listSessions({ includeChildren: true, limit: 100_000 });
    let key: string;
    try {
      key = resolveSessionRef(given, sessions);
    } catch (err) {
      if (!(err instanceof SessionNotFound)) throw err;
      throw new Error(`cannot open ${given}: no such file, and ${err.message.charAt(0).toLowerCase()}${err.message.slice(1)}`, { cause: err });
    }
    const summary = sessions.find((s) => s.key === key) as SessionSummary;
    return { summary, label: FORMAT_LABELS[summary.format] };
  });
}

export async function runOpen(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    argv,
    { json: { type: 'boolean' }, root: { type: 'string', multiple: true }, 'no-defaults': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    OPEN_HELP,
  );
  if (values.help) {
    process.stdout.write(OPEN_HELP);
    return;
  }
  if (positionals.length !== 1) throw new UsageError(`name exactly one file or session to open.\n\n${OPEN_HELP}`);
  const given = positionals[0]!;
  const file = resolve(given);
  let info: Stats | null = null;
  try {
    info = await stat(file);
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    if (!missing || !mayBeSessionRef(given)) {
      throw new Error(`cannot open ${file}: ${missing ? 'no such file' : (err as Error).message}.`, { cause: err });
    }
  }
  const { summary, label } = info ? await summarizeFile(file, info) : await summarizeListed(given, values.root, values['no-defaults'], env);
  process.stdout.write(values.json ? `${terminalJson(summary)}\n` : formatSummary(summary, label));
}
