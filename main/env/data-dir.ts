// Where the app keeps its own files: SESSION_VAULT_HOME wins, then the platform's usual place.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Per-platform default when no Electron `userData` path is given (CLI and `serve`). */
function platformDataDir(env: NodeJS.ProcessEnv): string {
  const home = env.HOME ?? homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Application Support', 'Session Vault');
  if (process.platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Session Vault');
  return join(env.XDG_DATA_HOME ?? join(home, '.local', 'share'), 'session-vault');
}

export function resolveDataDir(env: NodeJS.ProcessEnv, platformDefault?: string): string {
  const override = env.SESSION_VAULT_HOME?.trim();
  if (override) return resolve(override);
  return platformDefault ?? platformDataDir(env);
}
