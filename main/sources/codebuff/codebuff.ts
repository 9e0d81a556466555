// Reads Codebuff chats (~/.config/manicode*/projects/<project>/chats/<chatId>/chat-messages.json with run-state.json and chat-meta.json).
import { basename, dirname, join } from 'node:path';
import type { Session } from '../../../shared/session.ts';
import { readDocument, WarningList } from '../coerce.ts';
import { shellArg } from '../shell-quote.ts';
import type { SourceReader } from '../types.ts';
import { readCompanions } from './codebuff-companions.ts';
import { parseCodebuffChat } from './codebuff-session.ts';

/** The release, dev and staging channels each keep their own folder (ccusage reads all three). */
const CHANNELS = ['manicode', 'manicode-dev', 'manicode-staging'];

/** A chat folder: `projects/<project>/chats/<chatId>/`. */
function isChatDir(dir: string): boolean {
  const chats = dirname(dir);
  return basename(chats) === 'chats' && basename(dirname(dirname(chats))) === 'projects';
}

export function claimsCodebuff(absPath: string): boolean {
  return basename(absPath) === 'chat-messages.json' && isChatDir(dirname(absPath));
}

/** run-state.json and chat-meta.json are read with the chat beside them. */
export function codebuffCompanion(absPath: string): boolean {
  const name = basename(absPath);
  return (name === 'run-state.json' || name === 'chat-meta.json') && isChatDir(dirname(absPath));
}

/** CODEBUFF_DATA_DIR (comma-separated channel roots or projects folders, as ccusage reads it), else every channel under ~/.config. */
export function codebuffRoots(env: NodeJS.ProcessEnv, home: string): string[] {
  const override = (env.CODEBUFF_DATA_DIR ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  const roots = override.length ? override : CHANNELS.map((channel) => join(home, '.config', channel));
  return roots.map((root) => (basename(root) === 'projects' ? root : join(root, 'projects')));
}

export async function readCodebuffFile(absPath: string, now = Date.now()): Promise<Session> {
  const { value, ctx } = await readDocument(absPath);
  const warnings = new WarningList();
  const companions = await readCompanions(dirname(absPath), warnings);
  return parseCodebuffChat(value, { ...ctx, warnings: [...ctx.warnings, ...warnings.list()], now, companions });
}

export const codebuffReader: SourceReader = {
  format: 'codebuff',
  capabilities: { tokens: true, recordedCost: true, subAgents: true, toolResults: true, thinking: true, images: true },
  defaultRoots: codebuffRoots,
  // `codebuff --continue <chat id>`: what the CLI itself prints on exit (CodebuffAI/codebuff cli, use-exit-handler).
  resumeCommand: (s) => `codebuff --continue ${shellArg(s.id)}`,
  claims: claimsCodebuff,
  companion: codebuffCompanion,
  read: (absPath) => readCodebuffFile(absPath),
};
