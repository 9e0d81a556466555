// Reads the files beside a Codebuff chat: run-state.json (agent type, context tokens, credits, cwd) and chat-meta.json (count, first prompt).
import { join } from 'node:path';
import type { SourceFile } from '../../../shared/session.ts';
import { Fields, isRecord, type WarningList } from '../coerce.ts';
import { companionInside } from '../companion.ts';
import { readJsonFile } from '../decode.ts';
import { statPath } from '../file-bytes.ts';

export interface RunState {
  /** The agent template the chat ran (`base2-deepseek`, `base2-free-...`): the model family, chosen server-side. */
  agentType: string | null;
  contextTokenCount: number | null;
  /** Credits the main agent used (1 credit = 1 US cent). */
  creditsUsed: number | null;
  cwd: string | null;
}

export interface ChatMeta {
  messageCount: number | null;
  firstPrompt: string | null;
}

export interface Companions {
  runState: RunState | null;
  chatMeta: ChatMeta | null;
  files: SourceFile[];
}

/** Both are optional; one that exists but cannot be read is reported, never fatal. */
async function readCompanion(chatDir: string, name: string, warnings: WarningList): Promise<{ value: Record<string, unknown>; file: SourceFile } | null> {
  const path = join(chatDir, name);
  if (!(await companionInside(path, chatDir))) return null;
  try {
    const [info, { value }] = await Promise.all([statPath(path), readJsonFile(path)]);
    if (!isRecord(value)) {
      warnings.add('bad_meta', `${name} does not hold a JSON object; it was ignored.`);
      return null;
    }
    return { value, file: { path, size: info.size, mtimeMs: info.mtimeMs, role: 'meta' } };
  } catch (err) {
    warnings.add('bad_meta', `${name} cannot be read (${(err as Error).message}); it was ignored.`);
    return null;
  }
}

export function readRunState(value: Record<string, unknown>, warnings: WarningList): RunState {
  const state = new Fields(value, 'run-state.json', warnings).object('sessionState');
  const main = state?.present('mainAgentState') ? state.object('mainAgentState') : null;
  const files = state?.present('fileContext') ? state.object('fileContext') : null;
  const str = (f: Fields | null | undefined, key: string) => (f?.present(key) ? f.string(key) : null);
  const num = (f: Fields | null | undefined, key: string) => (f?.present(key) ? f.number(key) : null);
  return {
    agentType: str(main, 'agentType'),
    contextTokenCount: num(main, 'contextTokenCount'),
    creditsUsed: num(main, 'creditsUsed'),
    cwd: str(files, 'cwd'),
  };
}

export function readChatMeta(value: Record<string, unknown>, warnings: WarningList): ChatMeta {
  const f = new Fields(value, 'chat-meta.json', warnings);
  return {
    messageCount: f.present('messageCount') ? f.number('messageCount') : null,
    firstPrompt: f.present('firstPrompt') ? f.string('firstPrompt') : null,
  };
}

export async function readCompanions(chatDir: string, warnings: WarningList): Promise<Companions> {
  const [state, meta] = await Promise.all([readCompanion(chatDir, 'run-state.json', warnings), readCompanion(chatDir, 'chat-meta.json', warnings)]);
  return {
    runState: state ? readRunState(state.value, warnings) : null,
    chatMeta: meta ? readChatMeta(meta.value, warnings) : null,
    files: [state?.file, meta?.file].filter((f): f is SourceFile => f !== undefined),
  };
}
