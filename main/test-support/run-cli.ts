// Runs the `session-vault` command line from source as a user runs it, with a home and a data folder of the test's own.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The CLI's entry, run from source through Node's type stripping. */
export const CLI_ENTRY = fileURLToPath(new URL('../cli/cli.ts', import.meta.url));

export interface CliOptions {
  /** The test's temp folder: HOME is `<base>/home`, the data folder `<base>/<dataDir>`. */
  base: string;
  /** The data folder's name under `base` (default `data`). */
  dataDir?: string;
  /** Extra environment (planted secrets, …) over the test process's own. */
  env?: NodeJS.ProcessEnv;
  /** Written to the command's standard input, which is then closed. */
  input?: string;
}

export function runCli(args: string[], options: CliOptions): Promise<CliRun> {
  const { base, dataDir = 'data', env = {}, input } = options;
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      [CLI_ENTRY, ...args],
      { env: { ...process.env, ...env, SESSION_VAULT_HOME: join(base, dataDir), HOME: join(base, 'home') } },
      (err, stdout, stderr) => done({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}
