// Where Grok keeps a session: <GROK_HOME>/sessions/<percent-encoded cwd>/<sessionId>/, a folder whose summary.json stands for it.
import { basename, dirname, join } from 'node:path';

/** A session folder name: a UUID (v7 in current builds); dots and separators never appear. */
const SESSION_ID = /^[A-Za-z0-9_-]+$/;

/** The bucket is the working directory, percent-encoded: it holds an encoded separator (%2F, or %5C on Windows). */
function isBucket(name: string): boolean {
  return /%2F|%5C/i.test(name);
}

/** The session folder of a path inside one (`sessions/<bucket>/<id>/...`), or null. */
export function grokSessionDirOf(absPath: string): string | null {
  let dir = dirname(absPath);
  // summary.json sits in the session folder; companions can sit one or two levels below it (subagents/<id>/meta.json).
  for (let depth = 0; depth < 3; depth++) {
    const bucket = dirname(dir);
    if (SESSION_ID.test(basename(dir)) && isBucket(basename(bucket)) && basename(dirname(bucket)) === 'sessions') return dir;
    dir = bucket;
  }
  return null;
}

/** One file per session folder is its primary file: summary.json, which Grok rewrites on every turn. */
export function claimsGrok(absPath: string): boolean {
  return basename(absPath) === 'summary.json' && grokSessionDirOf(absPath) === dirname(absPath);
}

/** Every other file of a session folder (chat_history.jsonl, updates.jsonl, signals.json, subagents/*\/meta.json ...) is read through it. */
export function grokCompanion(absPath: string): boolean {
  return !claimsGrok(absPath) && grokSessionDirOf(absPath) !== null;
}

/** The working directory the bucket name encodes (`%2Ftmp%2Fproject` → `/tmp/project`), or null when it does not decode. */
export function bucketPath(sessionDir: string): string | null {
  try {
    return decodeURIComponent(basename(dirname(sessionDir)));
  } catch {
    return null;
  }
}

/** GROK_HOME replaces ~/.grok; sessions live in its sessions folder. */
export function grokRoots(env: NodeJS.ProcessEnv, home: string): string[] {
  return [join(env.GROK_HOME?.trim() || join(home, '.grok'), 'sessions')];
}
