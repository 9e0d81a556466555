// Assembles the canonical Session from a Vibe messages.jsonl and its meta.json: messages, session tokens and cost, git, sub-agents.
import { warnMissingContent } from '../missing-content.ts';
import { basename, dirname } from 'node:path';
import { ACTIVE_WINDOW_MS } from '../../../shared/activity.ts';
import type { Cost, Message, Session, SourceFile } from '../../../shared/session.ts';
import { builtinPricing } from '../../pricing/pricing-table.ts';
import { lastSegment, primarySourceFile, titleFromText, type DocumentContext, type WarningList } from '../coerce.ts';
import { textOf } from '../claude-code/claude-code-blocks.ts';
import type { VibeConversation } from './vibe-messages.ts';
import type { VibeMeta } from './vibe-meta.ts';

export interface VibeContext extends DocumentContext {
  now: number;
  meta: VibeMeta | null;
  metaFile: SourceFile | null;
  /** Key of the session that ran this one as a sub-agent; null for a top-level session. */
  parentKey: string | null;
  childKeys: string[];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Vibe's own figure when it recorded one; otherwise the session's tokens priced with its model. */
function sessionCost(meta: VibeMeta | null, model: string | null, warnings: WarningList): Cost | null {
  if (!meta?.usage) return null;
  if (meta.sessionCost !== null) return { usd: meta.sessionCost, estimated: false };
  const cost = builtinPricing.estimate(model, meta.usage);
  if (!cost) warnings.add('unpriced_model', `No price is known for model ${JSON.stringify(model ?? 'unknown')}; the session has no estimated cost.`);
  return cost;
}

/** Running: written within the window, Vibe's own end_time too, and the last word not a final answer. */
function isRunning(messages: Message[], ctx: VibeContext): boolean {
  if (ctx.now - ctx.mtimeMs >= ACTIVE_WINDOW_MS) return false;
  const end = ctx.meta?.endTime ?? null;
  if (end !== null && ctx.now - Date.parse(end) >= ACTIVE_WINDOW_MS) return false;
  const last = messages.filter((m) => m.role !== 'system').at(-1);
  return !(last?.role === 'assistant' && !last.parts.some((p) => p.type === 'tool_call'));
}

export function buildVibeSession(conv: VibeConversation, ctx: VibeContext, warnings: WarningList): Session {
  const { meta } = ctx;
  const { messages } = conv;
  const folder = basename(dirname(ctx.path));
  const id = meta?.sessionId ?? folder;
  if (!meta?.sessionId) warnings.add('missing_field', 'The session has no meta.json session_id; the id is taken from its folder name.');
  for (const [role, n] of conv.unknownRoles) warnings.add('unknown_role', `Vibe messages with role "${role}" (${plural(n, 'message')}) were skipped.`);
  warnMissingContent(warnings, 'A Vibe message', { count: conv.empty });

  const prompt = messages.find((m) => m.role === 'user' && textOf(m.parts).trim() !== '');
  // meta.json names the model when its config did; otherwise the answers do.
  const model = meta?.model ?? messages.findLast((m) => m.role === 'assistant' && m.model)?.model ?? null;
  const path = meta?.workingDirectory ?? null;
  const extra: Record<string, unknown> = {};
  // A parent outside the agents/ folder is the session this one continues (after /compact or /clear) or was forked from.
  if (meta?.parentSessionId && ctx.parentKey === null) extra.continuedFrom = meta.parentSessionId;
  if (meta?.agentProfile) extra.agentProfile = meta.agentProfile;
  if (meta?.steps != null) extra.steps = meta.steps;
  return {
    key: `vibe:${id}`,
    id,
    format: 'vibe',
    formatVersion: null,
    title: titleFromText(meta?.title) ?? titleFromText(prompt ? textOf(prompt.parts) : null) ?? `Vibe session ${id.slice(0, 8)}`,
    project: { path, name: path ? lastSegment(path) : null, branch: meta?.gitBranch ?? null, headCommit: meta?.gitCommit ?? null },
    createdAt: meta?.startTime ?? null,
    updatedAt: meta?.endTime ?? meta?.startTime ?? null,
    closedAt: null,
    status: isRunning(messages, ctx) ? 'active' : 'closed',
    outcome: null,
    model: model ? { provider: null, name: model, parameters: {} } : null,
    config: [],
    systemPrompt: meta?.systemPrompt ? { path: null, hash: null, text: meta.systemPrompt } : null,
    toolVersion: null,
    messages,
    operations: [],
    todos: [],
    summary: null,
    artifacts: [],
    // Vibe counts tokens per session only (meta.json stats), not per message.
    usage: meta?.usage ?? null,
    cost: sessionCost(meta, model, warnings),
    parentKey: ctx.parentKey,
    childKeys: ctx.childKeys,
    sourceFiles: ctx.metaFile ? [primarySourceFile(ctx), ctx.metaFile] : [primarySourceFile(ctx)],
    warnings: warnings.list(),
    extra,
  };
}
