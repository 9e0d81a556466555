// Where Goose keeps its sessions.db: the XDG data folder (Linux, and macOS in current builds), macOS's Application Support, Windows, GOOSE_PATH_ROOT.
import { basename, dirname, join, resolve } from 'node:path';

/**
 * Goose's `Paths` (crates/goose/src/config/paths.rs): GOOSE_PATH_ROOT replaces everything with `<root>/data`;
 * otherwise etcetera's app strategy, `$XDG_DATA_HOME/goose` (default ~/.local/share/goose), the Apple folders some
 * macOS builds use, and `%APPDATA%\Block\goose\data` on Windows. Sessions are `<data>/sessions/sessions.db`.
 */
export function gooseRoots(env: NodeJS.ProcessEnv, home: string): string[] {
  const root = env.GOOSE_PATH_ROOT?.trim();
  if (root) return [join(resolve(root), 'data', 'sessions')];
  const xdg = env.XDG_DATA_HOME?.trim() || join(home, '.local', 'share');
  const appData = env.APPDATA?.trim() || join(home, 'AppData', 'Roaming');
  return [
    join(xdg, 'goose', 'sessions'),
    join(home, 'Library', 'Application Support', 'goose', 'sessions'),
    join(home, 'Library', 'Application Support', 'Block', 'goose', 'sessions'),
    join(appData, 'Block', 'goose', 'data', 'sessions'),
  ];
}

/** `goose/sessions/sessions.db`, `goose/data/sessions/sessions.db`, or `<GOOSE_PATH_ROOT>/data/sessions/sessions.db`. */
export function claimsGoose(absPath: string): boolean {
  if (basename(absPath) !== 'sessions.db') return false;
  const sessions = dirname(absPath);
  if (basename(sessions) !== 'sessions') return false;
  const data = dirname(sessions);
  if (basename(data) === 'goose') return true;
  if (basename(data) !== 'data') return false;
  const root = process.env.GOOSE_PATH_ROOT?.trim();
  return basename(dirname(data)) === 'goose' || (!!root && resolve(root) === dirname(data));
}
