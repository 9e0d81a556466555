// Reads Kimi sessions: kimi-cli (~/.kimi/sessions/<hash>/<id>/context.jsonl + wire + state) and Kimi Code (~/.kimi-code/sessions/).
import { basename, dirname, join } from 'node:path';
import type { Session } from '../../../shared/session.ts';
import { statPath } from '../file-bytes.ts';
import { readHead } from '../head.ts';
import { readJsonLines, type JsonLine } from '../jsonl.ts';
import { shellArg } from '../shell-quote.ts';
import { UnreadableError, type SourceReader } from '../types.ts';
import { readKimiCliSession } from './kimi-cli.ts';
import { readKimiCodeAgent } from './kimi-code.ts';
import { claimsKimi, isKimiCompanion, kimiLayoutOf, type KimiLayout } from './kimi-paths.ts';
import { isKimiJournal, recognizesKimi } from './kimi-recognize.ts';
import { cannotRead } from '../read-failure.ts';

/** A file outside both layouts (recognised by content) is read as a session of its own, named after its file or folder. */
async function looseLayout(absPath: string): Promise<KimiLayout> {
  const stem = basename(absPath).replace(/\.jsonl$/, '');
  const id = stem === 'context' || stem === 'wire' ? basename(dirname(absPath)) : stem;
  const journal = isKimiJournal((await readHead(absPath)).records());
  return journal
    ? { kind: 'code', sessionDir: dirname(absPath), sessionId: id, agentId: 'main' }
    : { kind: 'cli', sessionDir: dirname(absPath), sessionId: id };
}

/** kimi-cli's wire protocol: events as `{timestamp, message: {type, payload}}` (after an optional metadata line). */
function isWireProtocol(records: readonly JsonLine[]): boolean {
  return records.slice(0, 20).some(({ value }) => {
    const message = (value as { message?: unknown } | null)?.message;
    return typeof message === 'object' && message !== null && typeof (message as { type?: unknown }).type === 'string';
  });
}

export async function readKimiFile(absPath: string, now = Date.now()): Promise<Session> {
  let info;
  try {
    info = await statPath(absPath);
  } catch (err) {
    throw cannotRead(err);
  }
  if (!info.isFile()) throw new UnreadableError('io_error', 'Not a regular file.');
  const layout = kimiLayoutOf(absPath) ?? (await looseLayout(absPath));
  const base = { path: absPath, size: info.size, mtimeMs: info.mtimeMs };
  if (layout.kind !== 'code') return readKimiCliSession({ ...base, warnings: [] }, layout, now);
  const { records, warnings } = await readJsonLines(absPath);
  if (!isKimiJournal(records.slice(0, 20).map((r) => r.value as Record<string, unknown>)) && isWireProtocol(records)) {
    // A kimi-cli wire (its `TurnBegin`/`ContentPart` events) in Kimi Code's agent folder: read as that wire, keyed as the agent.
    const asCli: KimiLayout =
      layout.agentId === 'main'
        ? { kind: 'cli', sessionDir: layout.sessionDir, sessionId: layout.sessionId }
        : { kind: 'cli-subagent', sessionDir: layout.sessionDir, sessionId: layout.sessionId, agentId: layout.agentId };
    return readKimiCliSession({ ...base, warnings }, asCli, now);
  }
  return readKimiCodeAgent({ ...base, warnings }, records, layout, now);
}

/** kimi-cli: `KIMI_SHARE_DIR` (CCHV also honours `KIMI_HOME`), ccusage's `KIMI_DATA_DIR` (comma-separated); Kimi Code: `KIMI_CODE_HOME`. */
function kimiRoots(env: NodeJS.ProcessEnv, home: string): string[] {
  const data = (env.KIMI_DATA_DIR ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  const shares = data.length ? data : [env.KIMI_SHARE_DIR?.trim() || env.KIMI_HOME?.trim() || join(home, '.kimi')];
  const code = env.KIMI_CODE_HOME?.trim() || join(home, '.kimi-code');
  return [...shares.map((share) => join(share, 'sessions')), join(code, 'sessions')];
}

export const kimiReader: SourceReader = {
  format: 'kimi',
  capabilities: { tokens: true, recordedCost: false, subAgents: true, toolResults: true, thinking: true, images: true },
  defaultRoots: kimiRoots,
  // Both CLIs resume with `kimi --session <id>` (kimi-cli and Kimi Code session guides); sub-agents through their parent.
  resumeCommand: (s) => (s.isSubAgent ? null : `kimi --session ${shellArg(s.id)}`),
  claims: claimsKimi,
  recognizes: recognizesKimi,
  companion: isKimiCompanion,
  read: (absPath) => readKimiFile(absPath),
};
