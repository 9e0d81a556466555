// Where Cursor's agent keeps transcripts: <cursor home>/projects/<project>/agent-transcripts/<id>/<id>.jsonl (or an older <id>.txt), sub-agents beside them.
import { basename, dirname, extname, join } from 'node:path';

export interface CursorLayout {
  kind: 'session' | 'subagent';
  sessionId: string;
  /** The session that spawned a sub-agent. */
  parentId: string | null;
  /** `<project>`: the workspace path with separators replaced by "-" (lossy). */
  projectDir: string;
  /** The Cursor home the transcript belongs to (`~/.cursor`): its chats/ folder holds the metadata store. */
  cursorHome: string;
}

const TRANSCRIPTS = 'agent-transcripts';

/** `<projects>/<project>/agent-transcripts`: the folder above a transcript, when the path has that shape. */
function projectOf(transcripts: string): { projectDir: string; cursorHome: string } | null {
  if (basename(transcripts) !== TRANSCRIPTS) return null;
  const project = dirname(transcripts);
  const projects = dirname(project);
  if (basename(projects) !== 'projects' || !basename(project)) return null;
  return { projectDir: basename(project), cursorHome: dirname(projects) };
}

/** A transcript's file extension: `.jsonl`, or `.txt` for the older plain-text transcripts (cursor-text.ts). */
const TRANSCRIPT_EXTENSIONS = new Set(['.jsonl', '.txt']);

/**
 * `<id>/<id>.jsonl`, the older flat `<id>.jsonl`, and `<parent>/subagents/<id>.jsonl`, each also as an older `.txt`
 * (a `.txt` beside its `.jsonl` is left to it: catalogue/walk-rules.ts); null for anything else.
 */
export function layoutOf(absPath: string): CursorLayout | null {
  const name = basename(absPath);
  const ext = extname(name);
  if (!TRANSCRIPT_EXTENSIONS.has(ext) || name.startsWith('.')) return null;
  const id = basename(name, ext);
  const dir = dirname(absPath);
  const flat = projectOf(dir);
  if (flat) return { kind: 'session', sessionId: id, parentId: null, ...flat };
  const nested = projectOf(dirname(dir));
  if (nested && basename(dir) === id) return { kind: 'session', sessionId: id, parentId: null, ...nested };
  if (basename(dir) === 'subagents') {
    const owner = dirname(dir);
    const place = projectOf(dirname(owner));
    if (place) return { kind: 'subagent', sessionId: id, parentId: basename(owner), ...place };
  }
  return null;
}

export function claimsCursor(absPath: string): boolean {
  return layoutOf(absPath) !== null;
}

/** JSON files in Cursor's project and chat folders that are not transcripts (MCP tool lists, chat meta, terminals). */
export function isCursorCompanion(absPath: string): boolean {
  if (layoutOf(absPath)) return false;
  const parts = absPath.split(/[\\/]+/);
  const at = parts.lastIndexOf('.cursor');
  return at >= 0 && (parts[at + 1] === 'projects' || parts[at + 1] === 'chats');
}

/**
 * `~/.cursor`, or the folder CURSOR_CONFIG_DIR / CURSOR_DATA_DIR name (the overrides the cursor-agent bundle reads,
 * per cmux's chat-index notes): transcripts are in its projects/ folder, their metadata stores in chats/.
 */
export function cursorRoots(env: NodeJS.ProcessEnv, home: string): string[] {
  const base = env.CURSOR_CONFIG_DIR?.trim() || env.CURSOR_DATA_DIR?.trim() || join(home, '.cursor');
  return [join(base, 'projects'), join(base, 'chats')];
}
