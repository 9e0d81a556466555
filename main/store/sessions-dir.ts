// Where sessions go when no --dir is given: the environment, the git repository's .vizier/sessions, or the data folder.
import { join, resolve } from 'node:path';
import { resolveDataDir } from '../data-dir.ts';

/** SESSION_VAULT_SESSIONS_DIR, else `<repo root>/.vizier/sessions` inside a git repo (seed 000), else `<data dir>/sessions`. */
export function defaultSessionsDir(env: NodeJS.ProcessEnv, repoRoot: string | null): string {
  const fromEnv = env.SESSION_VAULT_SESSIONS_DIR?.trim();
  if (fromEnv) return resolve(fromEnv);
  if (repoRoot) return join(repoRoot, '.vizier', 'sessions');
  return join(resolveDataDir(env), 'sessions');
}
