// Assembles the canonical Session from an Antigravity CLI transcript, with its brain artifacts attached.
import { warnMissingContent } from '../missing-content.ts';
import { basename } from 'node:path';
import { ACTIVE_WINDOW_MS } from '../../../shared/activity.ts';
import type { Message, Session, SourceFile } from '../../../shared/session.ts';
import { lastSegment, primarySourceFile, titleFromText, WarningList, type DocumentContext } from '../coerce.ts';
import { textOf } from '../claude-code/claude-code-blocks.ts';
import type { JsonLine } from '../jsonl.ts';
import type { BrainArtifacts } from './antigravity-artifacts.ts';
import { workspaceOf, type PromptLog } from './antigravity-history.ts';
import { readSteps, type AntigravityConversation } from './antigravity-steps.ts';

export interface AntigravityContext extends DocumentContext {
  now: number;
  /** The conversation id (the brain folder's name); null for a transcript found outside the CLI's layout. */
  conversationId: string | null;
  brain: BrainArtifacts;
  /** transcript_full.jsonl beside the transcript, when the records were read from it (the same steps, unclipped). */
  full?: SourceFile | null;
  /**
   * The CLI's prompt log (history.jsonl), which names each conversation's workspace. It holds every conversation's
   * prompts, so it is not one of this session's files (a shared session must not carry the others).
   */
  promptLog?: PromptLog | null;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Running: written within the window, its last step that recent too, and either a step not done or no final answer yet. */
function isRunning(conv: AntigravityConversation, ctx: AntigravityContext): boolean {
  if (ctx.now - ctx.mtimeMs >= ACTIVE_WINDOW_MS) return false;
  if (conv.lastAt !== null && ctx.now - Date.parse(conv.lastAt) >= ACTIVE_WINDOW_MS) return false;
  if (conv.lastStatus !== null && conv.lastStatus !== 'DONE') return true;
  const last = conv.messages.filter((m) => m.role !== 'system').at(-1);
  return !(last?.role === 'assistant' && !last.parts.some((p) => p.type === 'tool_call'));
}

function warn(conv: AntigravityConversation, warnings: WarningList): void {
  for (const [type, n] of conv.unknownTypes)
    warnings.add('unknown_record_type', `Unknown Antigravity step "${type}" (${plural(n, 'step')}); its content is shown as a system note.`);
  for (const [type, n] of conv.unknownResults)
    warnings.add('unknown_record_type', `Antigravity step "${type}" (${plural(n, 'step')}) is not a known tool step; it is shown as a tool result.`);
  warnMissingContent(warnings, 'An Antigravity step', { count: conv.empty });
}

function firstPrompt(messages: Message[]): string | null {
  const prompt = messages.find((m) => m.role === 'user' && textOf(m.parts).trim() !== '');
  return prompt ? textOf(prompt.parts) : null;
}

/** Parses the steps of one transcript (pure: tests call it directly). */
export function parseAntigravity(records: readonly JsonLine[], ctx: AntigravityContext): Session {
  const warnings = new WarningList();
  warnings.addAll(ctx.warnings);
  const conv = readSteps(records, warnings, ctx.full ? 1 : 0);
  warn(conv, warnings);
  const id = ctx.conversationId ?? basename(ctx.path).replace(/\.jsonl$/, '');
  const extra: Record<string, unknown> = {};
  if (conv.historyMarkers) extra.historyMarkers = conv.historyMarkers;
  const prompt = conv.messages.find((m) => m.role === 'user' && textOf(m.parts).trim() !== '');
  const workspace =
    ctx.promptLog && ctx.conversationId
      ? workspaceOf(ctx.promptLog, ctx.conversationId, prompt ? textOf(prompt.parts) : null, prompt?.timestamp ?? null)
      : null;
  return {
    key: `antigravity:${id}`,
    id,
    format: 'antigravity',
    formatVersion: null,
    title: titleFromText(firstPrompt(conv.messages)) ?? `Antigravity conversation ${id.slice(0, 8)}`,
    // The transcript names no working directory (tool arguments name files, not the project): the prompt log does.
    project: { path: workspace, name: workspace ? lastSegment(workspace) : null, branch: null, headCommit: null },
    createdAt: conv.firstAt,
    updatedAt: conv.lastAt,
    closedAt: null,
    status: isRunning(conv, ctx) ? 'active' : 'closed',
    outcome: null,
    model: conv.model ? { provider: 'google', name: conv.model, parameters: {} } : null,
    config: [],
    systemPrompt: null,
    toolVersion: null,
    messages: conv.messages,
    operations: [],
    todos: [],
    summary: null,
    artifacts: ctx.brain.artifacts,
    // The step log records no token counts or cost.
    usage: null,
    cost: null,
    parentKey: null,
    childKeys: [],
    sourceFiles: [primarySourceFile(ctx), ...(ctx.full ? [ctx.full] : []), ...ctx.brain.files],
    warnings: warnings.list(),
    extra,
  };
}
