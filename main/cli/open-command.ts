// `session-vault open <file> [--json]`: the summary of one session file wherever it lies, read by the app's own readers.
import { stat } from 'node:fs/promises';
import { FORMAT_LABELS } from '../../shared/source-formats.ts';
import { resolve } from 'node:path';
import type { SessionSummary } from '../../shared/session.ts';
import { toSummary } from '../../shared/summarize.ts';
import { resolveReader } from '../sources/recognize.ts';
import { readers } from '../sources/registry.ts';
import { UnreadableError } from '../sources/types.ts';
import { parseCommandArgs } from './parse-command-args.ts';
import { sanitizeForTerminal, terminalJson } from './terminal-text.ts';
import { UsageError } from './usage-error.ts';

export const OPEN_HELP = `Usage: session-vault open [--json] <file>

Prints the summary of one session file, wherever it lies: its format is told by its place in a tool's
layout or, for a file anywhere else, by its first records. The file's folder is not added as a root.

Options:
  --json       print the session summary as JSON
  -h, --help   show this help

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

async function summarizeFile(file: string): Promise<{ summary: SessionSummary; label: string }> {
  let info;
  try {
    info = await stat(file);
  } catch (err) {
    throw new Error(`cannot open ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}.`, { cause: err });
  }
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

export async function runOpen(argv: string[]): Promise<void> {
  const { values, positionals } = parseCommandArgs(argv, { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, OPEN_HELP);
  if (values.help) {
    process.stdout.write(OPEN_HELP);
    return;
  }
  if (positionals.length !== 1) throw new UsageError(`name exactly one file to open.\n\n${OPEN_HELP}`);
  const { summary, label } = await summarizeFile(resolve(positionals[0]!));
  process.stdout.write(values.json ? `${terminalJson(summary)}\n` : formatSummary(summary, label));
}
