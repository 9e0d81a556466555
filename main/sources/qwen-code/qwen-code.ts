// Reads Qwen Code chats (~/.qwen/projects/<sanitized cwd>/chats/<session id>.jsonl, and chats/archive/).
import { basename, extname } from 'node:path';
import type { Session } from '../../../shared/session.ts';
import { WarningList, type DocumentContext } from '../coerce.ts';
import { statPath } from '../file-bytes.ts';
import { shellArg } from '../shell-quote.ts';
import type { SourceReader } from '../types.ts';
import { activeChain } from './qwen-chain.ts';
import { readQwenLines, type QwenLine } from './qwen-lines.ts';
import { claimsQwen, layoutOf, qwenRoots, type QwenLayout } from './qwen-paths.ts';
import { recognizesQwen } from './qwen-recognize.ts';
import { buildQwenSession } from './qwen-session.ts';
import { cannotRead } from '../read-failure.ts';

export interface QwenInput extends DocumentContext {
  /** Where the file sits; a file outside the layout is the session its name says. */
  layout?: QwenLayout | null;
  now?: number;
}

/** Parses one chat's records (pure; tests call it directly). */
export function parseQwen(records: readonly QwenLine[], input: QwenInput): Session {
  const warnings = new WarningList();
  warnings.addAll(input.warnings);
  const layout = input.layout ?? { sessionId: basename(input.path, extname(input.path)), archived: false, projectDir: '' };
  const chain = activeChain(records, layout.sessionId, warnings);
  return buildQwenSession(chain, { ...input, layout, now: input.now ?? Date.now() }, warnings);
}

export async function readQwenFile(absPath: string, now = Date.now()): Promise<Session> {
  let info;
  try {
    info = await statPath(absPath);
  } catch (err) {
    throw cannotRead(err);
  }
  const { records, warnings } = await readQwenLines(absPath, info.size);
  return parseQwen(records, { path: absPath, size: info.size, mtimeMs: info.mtimeMs, warnings, layout: layoutOf(absPath), now });
}

export const qwenCodeReader: SourceReader = {
  format: 'qwen-code',
  capabilities: { tokens: true, recordedCost: false, subAgents: true, toolResults: true, thinking: true, images: true },
  defaultRoots: qwenRoots,
  // `qwen --resume <session id>` (Qwen Code's CLI options docs); archived chats are not found by it, so those say so in extra.
  resumeCommand: (s) => (s.isSubAgent ? null : `qwen --resume ${shellArg(s.id)}`),
  claims: claimsQwen,
  recognizes: recognizesQwen,
  read: (absPath) => readQwenFile(absPath),
};
