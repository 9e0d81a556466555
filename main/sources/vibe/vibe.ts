// Reads Mistral Vibe sessions (<VIBE_HOME>/logs/session/<folder>/messages.jsonl with meta.json, sub-agents under <folder>/agents/).
import { dirname, join } from 'node:path';
import type { Session } from '../../../shared/session.ts';
import { WarningList } from '../coerce.ts';
import { statPath } from '../file-bytes.ts';
import { readJsonLines, type JsonLine } from '../jsonl.ts';
import { shellArg } from '../shell-quote.ts';
import type { SourceReader } from '../types.ts';
import { childKeysOf, claimsVibe, parentSessionDir, sessionIdOf, vibeCompanion } from './vibe-layout.ts';
import { readVibeMessages } from './vibe-messages.ts';
import { readVibeMetaFile } from './vibe-meta.ts';
import { buildVibeSession, type VibeContext } from './vibe-session.ts';
import { cannotRead } from '../read-failure.ts';

/** Parses the records of one messages.jsonl with its folder's facts (pure: tests call it directly). */
export function parseVibe(records: readonly JsonLine[], ctx: VibeContext, warnings = new WarningList()): Session {
  warnings.addAll(ctx.warnings);
  return buildVibeSession(readVibeMessages(records, warnings), ctx, warnings);
}

export async function readVibeFile(absPath: string, now = Date.now()): Promise<Session> {
  let info;
  try {
    info = await statPath(absPath);
  } catch (err) {
    throw cannotRead(err);
  }
  // An empty messages.jsonl (a session abandoned before its first exchange) is listed as empty, like any empty file.
  const { records, warnings: decoding } = await readJsonLines(absPath);
  const sessionDir = dirname(absPath);
  const warnings = new WarningList();
  const metaRead = await readVibeMetaFile(sessionDir, warnings);
  if (metaRead && !metaRead.ok) warnings.add('bad_meta', `The session's ${metaRead.reason}; its id, times, model and tokens are unknown.`);
  const meta = metaRead?.ok ? metaRead.meta : null;
  const parentDir = parentSessionDir(sessionDir);
  const parentId = parentDir ? (meta?.parentSessionId ?? (await sessionIdOf(parentDir))) : null;
  const ctx: VibeContext = {
    path: absPath,
    size: info.size,
    mtimeMs: info.mtimeMs,
    warnings: decoding,
    now,
    meta,
    metaFile: metaRead?.ok ? metaRead.file : null,
    parentKey: parentId ? `vibe:${parentId}` : null,
    childKeys: await childKeysOf(sessionDir),
  };
  return parseVibe(records, ctx, warnings);
}

/** VIBE_HOME replaces ~/.vibe; session logs live in its logs/session folder. */
export function vibeRoots(env: NodeJS.ProcessEnv, home: string): string[] {
  return [join(env.VIBE_HOME?.trim() || join(home, '.vibe'), 'logs', 'session')];
}

export const vibeReader: SourceReader = {
  format: 'vibe',
  capabilities: { tokens: true, recordedCost: true, subAgents: true, toolResults: true, thinking: true, images: true },
  defaultRoots: vibeRoots,
  // `vibe --resume <session id>` (Vibe's README); sub-agents run inside their parent's task call.
  resumeCommand: (s) => (s.isSubAgent ? null : `vibe --resume ${shellArg(s.id)}`),
  claims: claimsVibe,
  companion: vibeCompanion,
  read: (absPath) => readVibeFile(absPath),
};
