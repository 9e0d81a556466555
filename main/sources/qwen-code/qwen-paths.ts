// Where Qwen Code keeps chats: <runtime dir>/projects/<sanitized cwd>/chats/<session id>.jsonl, archived ones in chats/archive/.
import { basename, dirname, extname, join } from 'node:path';

export interface QwenLayout {
  sessionId: string;
  /** Moved to chats/archive/ by the CLI: browsable, not resumable. */
  archived: boolean;
  /** `<sanitized cwd>`: every non-alphanumeric character of the cwd replaced by "-". */
  projectDir: string;
}

/** Qwen's own session file pattern: a canonical UUID or its compact 32-digit form. */
const SESSION_ID = /^[0-9a-f-]{32,36}$/i;

function projectOf(chats: string): string | null {
  if (basename(chats) !== 'chats') return null;
  const project = dirname(chats);
  return basename(dirname(project)) === 'projects' && basename(project) ? basename(project) : null;
}

export function layoutOf(absPath: string): QwenLayout | null {
  const name = basename(absPath);
  if (extname(name) !== '.jsonl') return null;
  const sessionId = basename(name, '.jsonl');
  if (!SESSION_ID.test(sessionId)) return null;
  const dir = dirname(absPath);
  const active = projectOf(dir);
  if (active) return { sessionId, archived: false, projectDir: active };
  const archived = basename(dir) === 'archive' ? projectOf(dirname(dir)) : null;
  return archived ? { sessionId, archived: true, projectDir: archived } : null;
}

export function claimsQwen(absPath: string): boolean {
  return layoutOf(absPath) !== null;
}

/**
 * Sessions live under the runtime dir: QWEN_RUNTIME_DIR, else QWEN_HOME, else ~/.qwen (as Qwen Code and
 * claude-code-history-viewer resolve it); QWEN_DATA_DIR (ccusage) may list several such dirs, comma-separated.
 */
export function qwenRoots(env: NodeJS.ProcessEnv, home: string): string[] {
  const listed = (env.QWEN_DATA_DIR ?? '')
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean);
  if (listed.length) return listed.map((d) => join(d, 'projects'));
  const base = env.QWEN_RUNTIME_DIR?.trim() || env.QWEN_HOME?.trim() || join(home, '.qwen');
  return [join(base, 'projects')];
}
