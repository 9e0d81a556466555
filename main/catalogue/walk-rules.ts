// What a walk of a root enters: how deep, which folders it skips (walk.ts, the snapshot's walk, the watcher, the quick check) and which files it leaves to their twin, with no file system code so the quick paths can load it.

/** Folders that never hold sessions but can hold millions of files. */
const SKIP_DIRS = new Set(['node_modules', '.git', '.hg', '.svn', '__pycache__', '.venv', 'target', '.cache']);

export const MAX_WALK_DEPTH = 8;

export function isSkippedDir(name: string): boolean {
  return SKIP_DIRS.has(name);
}

/**
 * Two files of one session lying side by side, and which of them the session is read from while both exist (the
 * holder); the other is its shadowed twin:
 * - `X.jsonl.zst` beside `X.jsonl`: Codex writes the .zst and then deletes the .jsonl (a resumed session the other way
 *   round); the plain file holds the session;
 * - `X.jsonl` beside `session_X.json`: Hermes's gateway keeps a transcript a line per message, and the agent its session
 *   log (the same messages, with the model and platform); the session log holds the session;
 * - `X.txt` beside `X.jsonl`: Cursor's older plain-text transcript and the JSONL one that replaced it; the JSONL holds it;
 * - `transcript_full.jsonl` beside `transcript.jsonl`: Antigravity's unclipped steps and its step log, which holds the
 *   conversation and reads the full one in;
 * - `wire.jsonl` beside `context.jsonl` in a kimi-cli session folder: the context holds the session and reads the wire
 *   in; an older session folder has the wire alone. (Kimi Code's `agents/<id>/wire.jsonl` is a session of its own.)
 * - `ui_messages.json` beside `api_conversation_history.json` in a Cline, Roo Code or Kilo Code `tasks/<id>/` folder: the
 *   history holds the task and reads the UI messages in (tokens, cost, times); a task without its history has them alone.
 * `dir` is the folder both lie in.
 */
const TWIN_RULES: ReadonlyArray<{ holder(name: string, dir: string): string | null; shadowed(name: string, dir: string): string | null }> = [
  {
    holder: (name) => (name.endsWith('.jsonl.zst') ? name.slice(0, -'.zst'.length) : null),
    shadowed: (name) => (name.endsWith('.jsonl') ? `${name}.zst` : null),
  },
  {
    holder: (name) => (name.endsWith('.jsonl') ? `session_${name.slice(0, -'.jsonl'.length)}.json` : null),
    shadowed: (name) => {
      const id = /^session_(.+)\.json$/.exec(name)?.[1];
      return id === undefined ? null : `${id}.jsonl`;
    },
  },
  {
    holder: (name) => (name.endsWith('.txt') ? `${name.slice(0, -'.txt'.length)}.jsonl` : null),
    shadowed: (name) => (name.endsWith('.jsonl') ? `${name.slice(0, -'.jsonl'.length)}.txt` : null),
  },
  {
    holder: (name) => (name === 'transcript_full.jsonl' ? 'transcript.jsonl' : null),
    shadowed: (name) => (name === 'transcript.jsonl' ? 'transcript_full.jsonl' : null),
  },
  {
    holder: (name, dir) => (name === 'wire.jsonl' && !isKimiCodeAgent(dir) ? 'context.jsonl' : null),
    shadowed: (name, dir) => (name === 'context.jsonl' && !isKimiCodeAgent(dir) ? 'wire.jsonl' : null),
  },
  {
    holder: (name, dir) => (name === 'ui_messages.json' && isTaskFolder(dir) ? 'api_conversation_history.json' : null),
    shadowed: (name, dir) => (name === 'api_conversation_history.json' && isTaskFolder(dir) ? 'ui_messages.json' : null),
  },
];

/** A Cline-family task folder (`<extension id>/tasks/<taskId>`), whose UI messages are read with its history. */
function isTaskFolder(dir: string): boolean {
  const parts = dir.split(/[\\/]+/).filter((p) => p.length > 0);
  return parts.length >= 3 && parts.at(-2) === 'tasks';
}

/** A Kimi Code agent's folder (`<session>/agents/<id>`), whose wire.jsonl is the session whatever lies beside it. */
function isKimiCodeAgent(dir: string): boolean {
  const trimmed = dir.replace(/[\\/]+$/, '');
  const parent = trimmed.slice(0, Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\')));
  return parent.slice(Math.max(parent.lastIndexOf('/'), parent.lastIndexOf('\\')) + 1) === 'agents';
}

/** Whether a file of this name may have a holder twin: the walk gathers a folder's names only once one is found there. */
function mayHaveHolder(name: string): boolean {
  return name.endsWith('.jsonl') || name.endsWith('.jsonl.zst') || name.endsWith('.txt') || name === 'ui_messages.json';
}

/**
 * A file whose holder twin lies beside it: the same session, left to the holder. `has`: whether the folder `dir`
 * holds a file of that name.
 */
export function isShadowedTwin(name: string, has: (name: string) => boolean, dir: string): boolean {
  if (!mayHaveHolder(name)) return false;
  for (const rule of TWIN_RULES) {
    const holder = rule.holder(name, dir);
    if (holder !== null && has(holder)) return true;
  }
  return false;
}

/** The paths of the files that hold this file's session while they exist (`X.jsonl` for `X.jsonl.zst`). */
export function holderTwinsOf(path: string): string[] {
  return twinPaths(path, (rule, name, dir) => rule.holder(name, dir));
}

/** The paths of the files this one holds the session of while it exists (`X.jsonl.zst` for `X.jsonl`). */
export function shadowedTwinsOf(path: string): string[] {
  return twinPaths(path, (rule, name, dir) => rule.shadowed(name, dir));
}

function twinPaths(path: string, pick: (rule: (typeof TWIN_RULES)[number], name: string, dir: string) => string | null): string[] {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1;
  const dir = path.slice(0, cut);
  const name = path.slice(cut);
  const found: string[] = [];
  for (const rule of TWIN_RULES) {
    const twin = pick(rule, name, dir);
    if (twin !== null) found.push(dir + twin);
  }
  return found;
}
