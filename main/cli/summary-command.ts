// `session-vault summary <session>`: print a session's structured summary, or set it from a JSON file (or standard input) for scripts.
import { readFile } from 'node:fs/promises';
import type { MethodInput } from '../../shared/api.ts';
import type { SummaryRecord } from '../../shared/summary-api.ts';
import { resolveSessionRef } from './resolve-session.ts';
import { withOneShotServices } from './one-shot.ts';
import { UsageError } from './usage-error.ts';
import { parseCommandArgs } from './parse-command-args.ts';
import { sanitizeForTerminal as t, terminalJson } from './terminal-text.ts';

export const SUMMARY_HELP = `Usage: session-vault summary <session> [--set FILE | --set - | --clear] [--json] [--root DIR]... [--no-defaults]

Prints the session's structured summary: the vault's (written in the app, here or by an assistant
through "session-vault mcp"), else the one the session's own file carries (ProjectHub's summary_json).

With --set, saves the vault's summary from a JSON file ("-" reads standard input), written by "cli":
  {"overview": "2-3 sentences", "decisions": ["..."], "outcomes": ["..."], "openItems": ["..."], "tags": ["..."]}
Only overview is required. The summary is kept in the vault, survives the session's file changing or
going away, and is searchable (has:summary, -has:summary, and its words and tags).

<session> is a key (format:id), an id, or the unique start of an id.

Options:
  --set FILE      save the summary in FILE (JSON); "-" reads it from standard input
  --clear         remove the vault's summary (a session's own summary shows again)
  --json          print the summary as JSON ({"key", "summary"}; summary is null when there is none)
  --root DIR      also read sessions below DIR (repeatable; not saved)
  --no-defaults   skip the tools' default folders
  -h, --help      show this help
`;

async function readInput(from: string): Promise<unknown> {
  let text: string;
  if (from === '-') {
    if (process.stdin.isTTY) throw new UsageError('"--set -" reads the summary from standard input, but standard input is a terminal.');
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    text = Buffer.concat(chunks).toString('utf8');
  } else {
    text = await readFile(from, 'utf8').catch((err: NodeJS.ErrnoException) => {
      throw new UsageError(`cannot read ${from}: ${err.code === 'ENOENT' ? 'no such file' : err.message}.`);
    });
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new UsageError(`${from === '-' ? 'standard input' : from} is not JSON: ${(err as Error).message}`);
  }
}

/** The summary as text: who wrote it and when, then ProjectHub's sections. */
export function formatSummary(key: string, s: SummaryRecord | null): string {
  if (!s) return `${t(key)} has no summary.\n`;
  const list = (items: string[], prefix = '') => (items.length ? items.map((i) => `  - ${prefix}${t(i)}`).join('\n') : '  (none)');
  const origin = s.source === 'vault' ? 'the vault' : "the session's own file";
  return [
    `Summary of ${t(key)}, by ${t(s.author)}${s.updatedAt ? `, ${t(s.updatedAt)}` : ''} (from ${origin})`,
    '',
    'Overview',
    `  ${t(s.overview ?? '(none)')}`,
    'Key decisions',
    list(s.decisions),
    'Outcomes',
    list(s.outcomes),
    'Open items',
    list(s.openItems, '[ ] '),
    `Tags: ${s.tags.length ? s.tags.map(t).join(', ') : '(none)'}`,
    '',
  ].join('\n');
}

export async function runSummary(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      set: { type: 'string' },
      clear: { type: 'boolean' },
      json: { type: 'boolean' },
      root: { type: 'string', multiple: true },
      'no-defaults': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    SUMMARY_HELP,
  );
  if (values.help) return void process.stdout.write(SUMMARY_HELP);
  if (positionals.length !== 1) throw new UsageError(`name one session (got ${positionals.length}).\n\n${SUMMARY_HELP}`);
  if (values.set !== undefined && values.clear) throw new UsageError('--set and --clear cannot be used together.');
  // The file is read (and must be JSON) before anything starts.
  const input = values.set === undefined ? undefined : await readInput(values.set);
  await withOneShotServices({ roots: values.root, noDefaults: values['no-defaults'], needs: 'list' }, env, async (services) => {
    const { sessions } = await services.client.listSessions({ includeChildren: true, limit: 100_000 });
    const key = resolveSessionRef(positionals[0] as string, sessions);
    // Through the client: the contract checks the summary and names the field at fault.
    const summary =
      input !== undefined
        ? (await services.client.setSummary({ key, summary: input as MethodInput<'setSummary'>['summary'], author: 'cli' })).summary
        : values.clear
          ? (await services.client.setSummary({ key, summary: null, author: 'cli' })).summary
          : (await services.client.getSummary({ key })).summary;
    process.stdout.write(values.json ? `${terminalJson({ key, summary })}\n` : formatSummary(key, summary));
  });
}
