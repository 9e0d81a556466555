// `session-vault diff <a> <b>`: the app's side-by-side comparison of two sessions, as text or JSON.
import { resolveSessionRef } from './resolve-session.ts';
import { formatComparisonText } from '../compare/text-report.ts';
import { withOneShotServices } from './one-shot.ts';
import { UsageError } from './usage-error.ts';
import { parseCommandArgs } from './parse-command-args.ts';
import { sanitizeDeep, terminalJson } from './terminal-text.ts';

export const DIFF_HELP = `Usage: session-vault diff <a> <b> [--json] [--all] [--root DIR]... [--no-defaults]

Compares two sessions side by side, across formats (a Claude Code session against a Codex one):
header deltas (model, config, branch, duration, counts, tokens, cost), turns aligned by their
prompts with word-level diffs of what changed, files touched and operations.

<a> and <b> are session keys (format:id, as "list --json" prints them), ids, or the unique start
of an id. In the app the same comparison is at #/compare/<a>/<b>.

Options:
  --json          print the comparison as JSON (the object the app shows)
  --all           also print identical turns and header fields instead of folding them
  --root DIR      also read sessions below DIR (repeatable; not saved)
  --no-defaults   skip the tools' default folders
  -h, --help      show this help
`;

export async function runDiff(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      json: { type: 'boolean' },
      all: { type: 'boolean' },
      root: { type: 'string', multiple: true },
      'no-defaults': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    DIFF_HELP,
  );
  if (values.help) {
    process.stdout.write(DIFF_HELP);
    return;
  }
  if (positionals.length !== 2) {
    throw new UsageError(`give exactly two sessions to compare (got ${positionals.length}).\n\n${DIFF_HELP}`);
  }
  await withOneShotServices({ roots: values.root, noDefaults: values['no-defaults'], needs: 'list' }, env, async (services) => {
    const { sessions } = await services.client.listSessions({ includeChildren: true, limit: 100_000 });
    const [a, b] = positionals.map((ref) => resolveSessionRef(ref, sessions)) as [string, string];
    // Through the client, so the CLI meets the same validation and errors as the app.
    const comparison = await services.client.compareSessions({ a, b });
    // Every title, prompt, tool argument and label came from a session: each is made one safe line before formatting.
    process.stdout.write(values.json ? `${terminalJson(comparison)}\n` : formatComparisonText(sanitizeDeep(comparison), { all: values.all ?? false }));
  });
}
