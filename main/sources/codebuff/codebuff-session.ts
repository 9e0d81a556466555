// Assembles the canonical Session from a Codebuff chat folder: messages, sub-agent runs, credits as cost, agent type, project.
import { warnMissingContent } from '../missing-content.ts';
import { basename, dirname } from 'node:path';
import { ACTIVE_WINDOW_MS } from '../../../shared/activity.ts';
import type { Cost, Message, Session } from '../../../shared/session.ts';
import { addUsage, emptyUsage, lastSegment, notAnObject, primarySourceFile, titleFromText, WarningList, type DocumentContext } from '../coerce.ts';
import { textOf } from '../claude-code/claude-code-blocks.ts';
import { convertChat, type ChatConversion } from './codebuff-chat.ts';
import type { Companions } from './codebuff-companions.ts';
import { chatStart } from './codebuff-time.ts';

export interface CodebuffContext extends DocumentContext {
  now: number;
  companions: Companions;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** `<channel>/projects/<project>/chats/<chatId>/chat-messages.json`. */
export function chatPlace(path: string): { chatId: string; project: string; channel: string } {
  const chatDir = dirname(path);
  const projectDir = dirname(dirname(chatDir));
  return { chatId: basename(chatDir), project: basename(projectDir), channel: basename(dirname(dirname(projectDir))) };
}

/** Credits on the messages when recorded there; otherwise the main agent's total from run-state.json. */
function costOf(conv: ChatConversion, companions: Companions): Cost | null {
  if (conv.credits !== null) return { usd: conv.credits / 100, estimated: false };
  const used = companions.runState?.creditsUsed ?? null;
  return used !== null && used > 0 ? { usd: used / 100, estimated: false } : null;
}

/** Running: written within the window, its last message that recent too, and no final answer yet. */
function isRunning(messages: Message[], lastAt: string | null, ctx: CodebuffContext): boolean {
  if (ctx.now - ctx.mtimeMs >= ACTIVE_WINDOW_MS) return false;
  if (lastAt !== null && ctx.now - Date.parse(lastAt) >= ACTIVE_WINDOW_MS) return false;
  const last = messages.filter((m) => m.agentId === null && m.role !== 'system').at(-1);
  return !(last?.role === 'assistant' && !last.parts.some((p) => p.type === 'tool_call'));
}

function warn(conv: ChatConversion, warnings: WarningList): void {
  for (const [variant, n] of conv.unknownVariants)
    warnings.add('unknown_record_type', `Unknown Codebuff message variant "${variant}" (${plural(n, 'message')}) skipped.`);
  for (const [type, n] of conv.unknownBlocks) warnings.add('unknown_block_type', `Unknown Codebuff block "${type}" (${plural(n, 'block')}) ignored.`);
  if (conv.unreadableTimes)
    warnings.add('bad_timestamp', `${plural(conv.unreadableTimes, 'message')} have a timestamp that is neither a date nor a clock time; it was skipped.`);
  warnMissingContent(warnings, 'A Codebuff message', { count: conv.empty });
}

/** Parses chat-messages.json with the companions already read (pure: tests call it directly). */
export function parseCodebuffChat(value: unknown, ctx: CodebuffContext): Session {
  if (!Array.isArray(value)) throw notAnObject(value, 'Codebuff chat (a list of messages)');
  const warnings = new WarningList();
  warnings.addAll(ctx.warnings);
  const place = chatPlace(ctx.path);
  const start = chatStart(place.chatId);
  const conv = convertChat(value, start, warnings);
  warn(conv, warnings);
  const { messages } = conv;
  const { runState, chatMeta } = ctx.companions;
  if (chatMeta?.messageCount != null && chatMeta.messageCount !== value.length) {
    warnings.add('sources_disagree', `chat-meta.json counts ${chatMeta.messageCount} messages but chat-messages.json holds ${value.length}.`);
  }
  const withUsage = messages.filter((m) => m.usage);
  const usage = withUsage.length ? emptyUsage() : null;
  for (const m of withUsage) if (usage && m.usage) addUsage(usage, m.usage);
  const stamps = messages
    .map((m) => m.timestamp)
    .filter((t): t is string => t !== null)
    .sort();
  const updatedAt = stamps.at(-1) ?? (start ? start.toISOString() : null);
  const prompt = messages.find((m) => m.role === 'user' && m.agentId === null && textOf(m.parts).trim() !== '');
  const cwd = runState?.cwd ?? null;
  const literalModel = messages.find((m) => m.model)?.model ?? null;
  const agentType = runState?.agentType ?? null;
  const extra: Record<string, unknown> = { project: place.project };
  if (place.channel !== 'manicode') extra.channel = place.channel;
  if (agentType) extra.agentType = agentType;
  if (runState?.contextTokenCount != null) extra.contextTokens = runState.contextTokenCount;
  if (conv.uiBlocks) extra.commandPanels = conv.uiBlocks;
  const subAgents = new Set(messages.flatMap((m) => (m.agentId ? [m.agentId] : [])));
  if (subAgents.size) extra.subAgentRuns = subAgents.size;
  return {
    key: `codebuff:${place.project}/${place.chatId}`,
    id: place.chatId,
    format: 'codebuff',
    formatVersion: null,
    title: titleFromText(prompt ? textOf(prompt.parts) : null) ?? titleFromText(chatMeta?.firstPrompt) ?? `Codebuff chat ${place.chatId}`,
    project: { path: cwd, name: cwd ? lastSegment(cwd) : place.project, branch: null, headCommit: null },
    createdAt: start?.toISOString() ?? stamps[0] ?? null,
    updatedAt,
    closedAt: null,
    status: isRunning(messages, stamps.at(-1) ?? null, ctx) ? 'active' : 'closed',
    outcome: null,
    // The LLM is picked server-side per agent template; the template is what the chat recorded.
    model: (literalModel ?? agentType) ? { provider: 'codebuff', name: literalModel ?? agentType, parameters: agentType ? { agentType } : {} } : null,
    config: [],
    systemPrompt: null,
    toolVersion: null,
    messages,
    operations: [],
    todos: [],
    summary: null,
    artifacts: [],
    usage,
    cost: costOf(conv, ctx.companions),
    parentKey: null,
    childKeys: [],
    sourceFiles: [primarySourceFile(ctx), ...ctx.companions.files],
    warnings: warnings.list(),
    extra,
  };
}
