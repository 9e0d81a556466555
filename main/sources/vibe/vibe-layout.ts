// Where Vibe keeps a session (logs/session/<prefix>_<date>_<time>_<id8>/) and its sub-agents (<session>/agents/<agent>_<date>_<time>_<id8>/).
import { basename, dirname, join } from 'node:path';
import { WarningList } from '../coerce.ts';
import { listFolder } from '../file-bytes.ts';
import { readVibeMetaFile } from './vibe-meta.ts';

/** `<session_prefix or agent name>_<YYYYMMDD>_<HHMMSS>_<first 8 characters of the session id>` (vibe/core/session/session_logger.py). */
const SESSION_DIR = /^[A-Za-z0-9._-]+_\d{8}_\d{6}_[A-Za-z0-9-]+$/;

export function isVibeSessionDir(dir: string): boolean {
  return SESSION_DIR.test(basename(dir));
}

/** The messages.jsonl of a session folder; the folder's meta.json is read with it. */
export function claimsVibe(absPath: string): boolean {
  return basename(absPath) === 'messages.jsonl' && isVibeSessionDir(dirname(absPath));
}

/** meta.json belongs to the messages.jsonl beside it. */
export function vibeCompanion(absPath: string): boolean {
  return basename(absPath) === 'meta.json' && isVibeSessionDir(dirname(absPath));
}

/** The folder of the session that ran this one as a sub-agent (the task tool logs into `<parent>/agents/`), if it is one. */
export function parentSessionDir(sessionDir: string): string | null {
  const agents = dirname(sessionDir);
  return basename(agents) === 'agents' && isVibeSessionDir(dirname(agents)) ? dirname(agents) : null;
}

/** A session's id: meta.json's session_id, or the folder name while Vibe has written no metadata. */
export async function sessionIdOf(sessionDir: string): Promise<string> {
  const read = await readVibeMetaFile(sessionDir, new WarningList());
  return (read?.ok ? read.meta.sessionId : null) ?? basename(sessionDir);
}

/** Keys of the sub-agents this session ran, in folder-name (start time) order. */
export async function childKeysOf(sessionDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await listFolder(join(sessionDir, 'agents'));
  } catch {
    return []; // most sessions run no sub-agent
  }
  const dirs = names
    .filter((n) => SESSION_DIR.test(n))
    .sort()
    .map((n) => join(sessionDir, 'agents', n));
  return Promise.all(dirs.map(async (dir) => `vibe:${await sessionIdOf(dir)}`));
}
