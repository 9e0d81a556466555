// Parses `session-vault serve [--port N] [--root DIR]...`.
import { resolve } from 'node:path';
import { UsageError } from './usage-error.ts';
import { parseCommandArgs } from './parse-command-args.ts';

export const SERVE_HELP = `Usage: session-vault serve [--port N] [--root DIR]...

Serves the Session Vault UI to a browser on 127.0.0.1 and prints the URL to open.
The URL carries a random token made for this run; requests without it are refused.

Options:
  --port N      port to listen on (default: any free port)
  --root DIR    also read sessions below DIR for this run (repeatable)
  -h, --help    show this help
`;

export interface ServeArgs {
  port: number;
  roots: string[];
  help: boolean;
}

export function parseServeArgs(argv: string[]): ServeArgs {
  const { values } = parseCommandArgs(
    argv,
    {
      port: { type: 'string' },
      root: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
    SERVE_HELP,
    { positionals: false },
  );
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be a whole number from 0 to 65535, not "${values.port}".`);
  }
  return { port, roots: (values.root ?? []).map((r) => resolve(r)), help: values.help ?? false };
}
