// Where Kimi keeps sessions: kimi-cli's ~/.kimi/sessions/<hash>/<id>/ and Kimi Code's ~/.kimi-code/sessions/<wd>/<id>/agents/.
import { basename, dirname, join } from 'node:path';

export type KimiLayout =
  /** kimi-cli: `<sessions>/<work dir hash>/<id>/context.jsonl`, with wire.jsonl and state.json beside it. */
  | { kind: 'cli'; sessionDir: string; sessionId: string }
  /** A kimi-cli sub-agent instance: `<session>/subagents/<agentId>/context.jsonl` (+ wire.jsonl, meta.json). */
  | { kind: 'cli-subagent'; sessionDir: string; sessionId: string; agentId: string }
  /** Kimi Code: `<sessions>/wd_<slug>_<hash>/<id>/agents/<agentId>/wire.jsonl`; `main` is the session itself. */
  | { kind: 'code'; sessionDir: string; sessionId: string; agentId: string };

/** kimi-cli names work-dir folders by the path's MD5 (`<kaos>_<md5>` off the local machine). */
const CLI_WORK_DIR = /^([A-Za-z0-9-]+_)?[0-9a-f]{32}$/;
/** Kimi Code names them `wd_<slug>_<first 12 hex of a SHA-256>`. */
const CODE_WORK_DIR = /^wd_.*_[0-9a-f]{12}$/;

/** `<home>/sessions/<work dir>` where the home is the tool's own folder or the work-dir name has the tool's shape. */
function isSessionsBucket(workDir: string, home: string, shape: RegExp): boolean {
  const sessions = dirname(workDir);
  if (basename(sessions) !== 'sessions') return false;
  return basename(dirname(sessions)) === home || shape.test(basename(workDir));
}

function cliSession(sessionDir: string): boolean {
  return basename(sessionDir).length > 0 && isSessionsBucket(dirname(sessionDir), '.kimi', CLI_WORK_DIR);
}

function codeSession(sessionDir: string): boolean {
  return basename(sessionDir).length > 0 && isSessionsBucket(dirname(sessionDir), '.kimi-code', CODE_WORK_DIR);
}

/**
 * kimi-cli's `context.jsonl` (or, in an older session folder that has none, its `wire.jsonl`: left to the context
 * while both exist, catalogue/walk-rules.ts) and Kimi Code's `agents/<id>/wire.jsonl`.
 */
export function kimiLayoutOf(absPath: string): KimiLayout | null {
  const name = basename(absPath);
  const dir = dirname(absPath);
  if (name === 'context.jsonl' || (name === 'wire.jsonl' && basename(dirname(dir)) !== 'agents')) {
    if (cliSession(dir)) return { kind: 'cli', sessionDir: dir, sessionId: basename(dir) };
    const sessionDir = dirname(dirname(dir));
    if (basename(dirname(dir)) === 'subagents' && cliSession(sessionDir)) {
      return { kind: 'cli-subagent', sessionDir, sessionId: basename(sessionDir), agentId: basename(dir) };
    }
    return null;
  }
  if (name === 'wire.jsonl' && basename(dirname(dir)) === 'agents') {
    const sessionDir = dirname(dirname(dir));
    if (codeSession(sessionDir)) return { kind: 'code', sessionDir, sessionId: basename(sessionDir), agentId: basename(dir) };
  }
  return null;
}

export function claimsKimi(absPath: string): boolean {
  return kimiLayoutOf(absPath) !== null;
}

/**
 * Kimi's files beside a session that are not sessions: kimi-cli's state.json, rotated context_<n>.jsonl and sub-agent
 * meta.json; Kimi Code's state.json and root session_index.jsonl.
 */
export function isKimiCompanion(absPath: string): boolean {
  if (claimsKimi(absPath)) return false;
  const dir = dirname(absPath);
  const name = basename(absPath);
  if (claimsKimi(join(dir, 'context.jsonl'))) return name !== 'context.jsonl';
  if (name === 'state.json' && claimsKimi(join(dir, 'agents', 'main', 'wire.jsonl'))) return true;
  return name === 'session_index.jsonl' && basename(dir) === '.kimi-code';
}

export function sessionKey(sessionId: string): string {
  return `kimi:${sessionId}`;
}

export function agentKey(sessionId: string, agentId: string): string {
  return agentId === 'main' ? sessionKey(sessionId) : `kimi:${sessionId}/${agentId}`;
}
