// Where the Devin CLI keeps its one sessions.db: ~/.local/share/devin/cli (Linux) or ~/Library/Application Support/devin/cli (macOS).
import { basename, dirname, join } from 'node:path';

/** No override variable is known (samples/MANIFEST.md); both platform folders are offered and the ones that exist are used. */
export function devinRoots(_env: NodeJS.ProcessEnv, home: string): string[] {
  return [join(home, '.local', 'share', 'devin', 'cli'), join(home, 'Library', 'Application Support', 'devin', 'cli')];
}

/** `devin/cli/sessions.db`: the store; its `-wal` and `-shm` files and anything else there are not sessions. */
export function claimsDevin(absPath: string): boolean {
  const cli = dirname(absPath);
  return basename(absPath) === 'sessions.db' && basename(cli) === 'cli' && basename(dirname(cli)) === 'devin';
}
