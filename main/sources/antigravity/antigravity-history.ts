// Antigravity CLI's prompt log (<.gemini>/antigravity-cli/history.jsonl: a line per prompt with its workspace): where a conversation was held.
import { join } from 'node:path';
import { companionInside } from '../companion.ts';
import { isRecord } from '../coerce.ts';
import { statPath } from '../file-bytes.ts';
import { readJsonLines } from '../jsonl.ts';

interface UnnamedPrompt {
  /** The prompt as typed, whitespace folded and lower-cased. */
  display: string;
  atMs: number;
  workspace: string;
}

export interface PromptLog {
  /** The workspace each conversation's lines name (the first line that names it wins). */
  byConversation: Map<string, string>;
  /** Lines that name no conversation (older CLI builds): matched to a conversation by its first prompt and time. */
  unnamed: UnnamedPrompt[];
}

const fold = (text: string) => text.split(/\s+/).filter(Boolean).join(' ').toLowerCase();

/** A prompt log line this close in time to the conversation's first prompt, with the same words, is that prompt. */
const SAME_PROMPT_MS = 60_000;

/** The log read last, per path, with the size and time it had: a scan reads it once per thread, not once per conversation. */
const cache = new Map<string, { size: number; mtimeMs: number; log: PromptLog }>();

/**
 * The prompt log of the CLI home a brain folder lies in (`<home>/brain/<id>` → `<home>/history.jsonl`), or null when
 * there is none, it cannot be read, or it is a link out of the home. Lines that are not JSON objects are passed over.
 */
export async function promptLogOf(conversationDir: string): Promise<PromptLog | null> {
  const home = join(conversationDir, '..', '..');
  const path = join(home, 'history.jsonl');
  try {
    if (!(await companionInside(path, home))) return null;
    const info = await statPath(path);
    const known = cache.get(path);
    if (known && known.size === info.size && known.mtimeMs === info.mtimeMs) return known.log;
    const { records } = await readJsonLines(path);
    const log: PromptLog = { byConversation: new Map(), unnamed: [] };
    for (const { value } of records) {
      if (!isRecord(value) || typeof value.workspace !== 'string' || value.workspace === '') continue;
      if (typeof value.conversationId === 'string' && value.conversationId !== '') {
        if (!log.byConversation.has(value.conversationId)) log.byConversation.set(value.conversationId, value.workspace);
      } else if (typeof value.display === 'string' && typeof value.timestamp === 'number') {
        log.unnamed.push({ display: fold(value.display), atMs: value.timestamp, workspace: value.workspace });
      }
    }
    cache.set(path, { size: info.size, mtimeMs: info.mtimeMs, log });
    return log;
  } catch {
    return null; // no prompt log: the conversation has no project
  }
}

/**
 * The workspace a conversation was held in: the one its log lines name, else the one of the single unnamed line
 * with its first prompt's words within a minute of it (as kenn-io/agentsview infers it); null when none or several fit.
 */
export function workspaceOf(log: PromptLog, conversationId: string, firstPrompt: string | null, firstPromptAt: string | null): string | null {
  const named = log.byConversation.get(conversationId);
  if (named) return named;
  if (!firstPrompt || !firstPromptAt) return null;
  const words = fold(firstPrompt);
  const at = Date.parse(firstPromptAt);
  if (words.length < 3 || Number.isNaN(at)) return null;
  let best: { workspace: string; diff: number } | null = null;
  let tied = false;
  for (const line of log.unnamed) {
    const diff = Math.abs(line.atMs - at);
    if (line.display !== words || diff > SAME_PROMPT_MS) continue;
    if (!best || diff < best.diff) {
      best = { workspace: line.workspace, diff };
      tied = false;
    } else if (diff === best.diff && line.workspace !== best.workspace) tied = true;
  }
  return best && !tied ? best.workspace : null;
}
