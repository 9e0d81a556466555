// Where sessions go when no --dir is given: the environment, the git repository's .vizier/sessions, or the data folder.
import { join, resolve } from 'node:path';
import { resolveDataDir } from '../env/data-dir.ts';

/**
 * Outside a git repository, recorded sessions live in the vault, in Vizier's layout, so the app lists
 * them with the reader it already has (the vault scans `<data dir>/vault/recorded`).
 */
export function recordedSessionsDir(dataDir: string): string {
  return join(dataDir, 'vault', 'recorded', '.vizier', 'sessions');
}

/** SESSION_VAULT_SESSIONS_DIR, else `<repo root>/.vizier/sessions` inside a git repo (seed 000), else the vault's recorded folder. */
export function defaultSessionsDir(env: NodeJS.ProcessEnv, repoRoot: string | null): string {
  const fromEnv = env.SESSION_VAULT_SESSIONS_DIR?.trim();
  if (fromEnv) return resolve(fromEnv);
  if (repoRoot) return join(repoRoot, '.vizier', 'sessions');
  return recordedSessionsDir(resolveDataDir(env));
}
