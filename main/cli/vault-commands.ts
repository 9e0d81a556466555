// `session-vault keep|tag|note|fork|resume|prune|delete|clear`: the vault from the command line, over the same services.
import type { ParseArgsConfig } from 'node:util';
import { resolve } from 'node:path';
import type { Services } from '../app/services.ts';
import { resolveSessionRef } from './resolve-session.ts';
import { withOneShotServices } from './one-shot.ts';
import { UsageError } from './usage-error.ts';
import { parseCommandArgs } from './parse-command-args.ts';
import { sanitizeForTerminal as t, terminalJson } from './terminal-text.ts';

const COMMON = `  --root DIR     also read sessions below DIR (repeatable; not saved)
  --no-defaults  skip the tools' default folders (as list and search do)
  --json         print the result as JSON
  -h, --help     show this help`;

export const VAULT_HELP: Record<string, string> = {
  keep: `Usage: session-vault keep <session>...\n\nCopies each session into the vault (source files byte-for-byte + normalized session.json),\nso tools that delete old sessions can no longer lose it. <session> is a key (claude-code:…) or an id.\n\n${COMMON}\n`,
  tag: `Usage: session-vault tag <session> [--add TAG]... [--remove TAG]... [--star | --unstar]\n\nChanges a session's tags and star (kept in the vault; they survive the source changing).\n\n${COMMON}\n`,
  note: `Usage: session-vault note <session> <text | ->\n\nSets the session's note ("-" reads it from standard input; an empty text removes it).\n\n${COMMON}\n`,
  fork: `Usage: session-vault fork <session> --through N\n\nBranches a new open vault session from the first N messages of <session>, linked to it.\n\n${COMMON}\n`,
  resume: `Usage: session-vault resume <session>\n\nPrints the command that resumes the session in its own tool and where to run it,\nor why it cannot be resumed (still active, project folder missing).\n\n${COMMON}\n`,
  prune: `Usage: session-vault prune [--older-than DAYS] [--yes]\n\nLists vault sessions older than DAYS (default 30, by closed/updated time); with --yes moves them\nto the vault's trash (restorable). Sources outside the vault are never touched.\n\n${COMMON}\n`,
  delete: `Usage: session-vault delete <session> [--source-file PATH]...\n\nMoves the vault's copy to the vault's trash (restorable). The session's own source files are\ndeleted only when each one is named with --source-file.\n\n${COMMON}\n`,
  clear: `Usage: session-vault clear --yes\n\nMoves every session the vault holds to its trash and reports how many.\n\n${COMMON}\n`,
};

const BASE_OPTIONS = {
  root: { type: 'string', multiple: true },
  'no-defaults': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

function parse<O extends ParseArgsConfig['options']>(command: string, argv: string[], options: O) {
  return parseCommandArgs(argv, { ...BASE_OPTIONS, ...options }, VAULT_HELP[command] ?? '');
}

/** A key, an id or a unique id prefix, as `diff` accepts them. */
async function resolveKey(services: Services, given: string): Promise<string> {
  const { sessions } = await services.client.listSessions({ includeChildren: true, limit: 100_000 });
  return resolveSessionRef(given, sessions);
}

function out(json: boolean | undefined, value: unknown, text: string): void {
  process.stdout.write(json ? `${terminalJson(value)}\n` : `${text}\n`);
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError('"-" reads the note from standard input, but standard input is a terminal.');
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function runVaultCommand(command: string, argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const extra =
    {
      tag: { add: { type: 'string', multiple: true }, remove: { type: 'string', multiple: true }, star: { type: 'boolean' }, unstar: { type: 'boolean' } },
      fork: { through: { type: 'string' } },
      prune: { 'older-than': { type: 'string' }, yes: { type: 'boolean' } },
      delete: { 'source-file': { type: 'string', multiple: true } },
      clear: { yes: { type: 'boolean' } },
    }[command] ?? {};
  const { values, positionals } = parse(command, argv, extra as ParseArgsConfig['options']);
  const v = values as Record<string, unknown>;
  if (v.help) {
    process.stdout.write(VAULT_HELP[command] ?? '');
    return;
  }
  const json = v.json as boolean | undefined;
  const needsSession = !['prune', 'clear'].includes(command);
  if (needsSession && !positionals[0]) throw new UsageError(`missing <session>.\n\n${VAULT_HELP[command]}`);
  await withOneShotServices({ roots: v.root as string[] | undefined, noDefaults: v['no-defaults'] === true, needs: 'list' }, env, async (services) => {
    const key = needsSession ? await resolveKey(services, positionals[0]!) : '';
    // Keys, titles, tags and paths come from sessions: each is printed as one line without escape sequences.
    const shownKey = t(key);
    switch (command) {
      case 'keep': {
        const keys = [key, ...(await Promise.all(positionals.slice(1).map((p) => resolveKey(services, p))))];
        const kept = [];
        for (const k of keys) kept.push({ key: k, ...(await services.client.keepSession({ key: k })) });
        return out(json, kept, kept.map((k) => `Kept ${t(k.key)} in ${t(String(k.keptPath))}`).join('\n'));
      }
      case 'tag': {
        const current = (await services.client.getVaultStatus({ key })).annotations.tags;
        const add = (v.add as string[] | undefined) ?? [];
        const remove = new Set((v.remove as string[] | undefined) ?? []);
        const tags = [...current, ...add].filter((t) => !remove.has(t));
        const starred = v.star ? true : v.unstar ? false : undefined;
        const a = await services.client.setAnnotations({ key, tags, ...(starred === undefined ? {} : { starred }) });
        return out(json, a, `${shownKey}: ${a.starred ? '★ ' : ''}${a.tags.length ? a.tags.map(t).join(', ') : '(no tags)'}`);
      }
      case 'note': {
        const text = positionals[1] === '-' ? await readStdin() : positionals.slice(1).join(' ');
        const a = await services.client.setAnnotations({ key, note: text.trimEnd() });
        return out(json, a, a.note ? `Note saved for ${shownKey}.` : `Note removed from ${shownKey}.`);
      }
      case 'fork': {
        const through = Number(v.through);
        if (!Number.isInteger(through) || through < 1) throw new UsageError('--through must be a whole number of messages, at least 1.');
        const f = await services.client.forkSession({ key, throughMessage: through - 1 });
        return out(json, f, `Forked ${shownKey} after message ${through} as ${t(f.key)}\nSession file: ${t(f.path)}`);
      }
      case 'resume': {
        const r = await services.client.getResumeInfo({ key });
        if (!json && !r.available) throw new Error(`Cannot resume ${shownKey}: ${t(String(r.reason))}`);
        return out(json, r, `cd ${t(JSON.stringify(r.cwd))} && ${t(String(r.command))}`);
      }
      case 'prune': {
        const days = v['older-than'] === undefined ? 30 : Number(v['older-than']);
        if (!Number.isInteger(days) || days < 1) throw new UsageError('--older-than must be a whole number of days, at least 1.');
        const r = await services.client.pruneVault({ olderThanDays: days, dryRun: !v.yes });
        const lines = r.sessions.map((s) => `  ${t(s.at ?? '-')}  ${t(s.key)}  ${t(s.title)}`);
        const head = r.dryRun
          ? `${r.sessions.length} vault session(s) older than ${days} days would go to the trash (run again with --yes):`
          : `Moved ${r.sessions.length} vault session(s) older than ${days} days to the trash.`;
        return out(json, r, [head, ...lines].join('\n'));
      }
      case 'delete': {
        const files = v['source-file'] as string[] | undefined;
        const r = await services.client.deleteSession({ key, ...(files ? { confirmSourceFiles: files.map((f) => resolve(f)) } : {}) });
        const text = [
          ...r.trashed.map((trashed) => `Moved the vault's copy of ${shownKey} to the trash (id ${t(trashed.id)}).`),
          ...r.sourceFilesDeleted.map((f) => `Deleted source file ${t(f)}`),
        ].join('\n');
        return out(json, r, text);
      }
      case 'clear': {
        if (!v.yes) throw new UsageError('clear moves every vault session to the trash; confirm with --yes.');
        const r = await services.client.clearVault({ confirm: 'CLEAR' });
        return out(json, r, `Moved ${r.cleared} vault session(s) to the trash.`);
      }
    }
  });
}
