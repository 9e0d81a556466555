// Where GitHub Copilot CLI keeps sessions: session-state/<id>/events.jsonl (1.0.11+) or the legacy flat session-state/<id>.jsonl.
import { existsSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

export type CopilotLayout = { kind: 'directory'; sessionId: string; folder: string } | { kind: 'flat'; sessionId: string };

const STATE_DIR = 'session-state';

/** The session a path is, by its place under `session-state/`; null for anything else. */
export function layoutOf(absPath: string): CopilotLayout | null {
  const name = basename(absPath);
  const dir = dirname(absPath);
  if (name === 'events.jsonl' && basename(dirname(dir)) === STATE_DIR) {
    const sessionId = basename(dir);
    return sessionId && !sessionId.startsWith('.') ? { kind: 'directory', sessionId, folder: dir } : null;
  }
  if (extname(name) !== '.jsonl' || name.startsWith('.') || basename(dir) !== STATE_DIR) return null;
  return { kind: 'flat', sessionId: basename(name, '.jsonl') };
}

/**
 * A legacy flat file whose session also has a `<id>/events.jsonl`: both layouts can coexist (a session resumed by
 * a newer CLI), and the folder is the session, so the flat file is not listed a second time.
 */
export function isShadowedFlatFile(absPath: string): boolean {
  const layout = layoutOf(absPath);
  return layout?.kind === 'flat' && existsSync(join(dirname(absPath), layout.sessionId, 'events.jsonl'));
}

export function claimsCopilot(absPath: string): boolean {
  return layoutOf(absPath) !== null && !isShadowedFlatFile(absPath);
}

/** The session folder's other files (workspace.yaml, checkpoints, plans) and shadowed flat files: never sessions. */
export function isCopilotCompanion(absPath: string): boolean {
  if (isShadowedFlatFile(absPath)) return true;
  const parts = absPath.split(/[\\/]+/);
  const at = parts.lastIndexOf(STATE_DIR);
  // <state>/<id>/<anything below> but events.jsonl itself.
  return at >= 0 && parts.length - at > 2 && !(parts.length - at === 3 && parts.at(-1) === 'events.jsonl');
}

/** `COPILOT_HOME` moves everything the CLI keeps; `COPILOT_CLI_HOME` is what claude-code-history-viewer reads. */
export function copilotRoots(env: NodeJS.ProcessEnv, home: string): string[] {
  const override = env.COPILOT_HOME?.trim() || env.COPILOT_CLI_HOME?.trim();
  if (override) return [join(override, STATE_DIR)];
  const roots = [join(home, '.copilot', STATE_DIR)];
  const state = env.XDG_STATE_HOME?.trim();
  if (state) roots.push(join(state, '.copilot', STATE_DIR));
  return roots;
}
