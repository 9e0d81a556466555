// Assembles the canonical Session from what a Kimi pass collected: title, model, estimated cost, status, links.
import { ACTIVE_WINDOW_MS } from '../../../shared/activity.ts';
import type { LifecycleStatus, ModelInfo, Session, SourceFile } from '../../../shared/session.ts';
import { builtinPricing } from '../../pricing/pricing-table.ts';
import { CostTotal } from '../../pricing/cost-total.ts';
import { lastSegment, titleFromText, type DocumentContext } from '../coerce.ts';
import type { KimiState } from './kimi-state.ts';

export interface KimiSessionFacts {
  id: string;
  key: string;
  parentKey: string | null;
  childKeys: string[];
  /** Titles the session's own files give, best first (a custom title, a sub-agent's description ...). */
  titles: Array<string | null>;
  fallbackTitle: string;
  /** The working directory a side file states (Kimi Code's state.json `workDir` wins over the journal's). */
  cwd: string | null;
  /** Times a side file states, used when no record carries one. */
  createdAt: string | null;
  updatedAt: string | null;
  /** The turn state is known (from a wire or journal); otherwise only the messages tell. */
  turnsKnown: boolean;
  sourceFiles: SourceFile[];
  extra: Record<string, unknown>;
  now: number;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function reportUnknown(state: KimiState): void {
  for (const [type, n] of state.unknownTypes) state.warnings.add('unknown_record_type', `Unknown record type "${type}" (${plural(n, 'record')}) skipped.`);
  for (const [type, n] of state.unknownBlocks) state.warnings.add('unknown_block_type', `Unknown content part type "${type}" (${plural(n, 'part')}) skipped.`);
}

function firstPrompt(state: KimiState): string | null {
  for (const m of state.messages) {
    if (m.role !== 'user' || (m.annotations as Record<string, unknown> | undefined)?.injected) continue;
    const text = m.parts.find((p) => p.type === 'text');
    const title = text?.type === 'text' ? titleFromText(text.text) : null;
    if (title) return title;
  }
  return null;
}

function modelInfo(state: KimiState): ModelInfo | null {
  let name: string | null = null;
  let best = 0;
  for (const [model, n] of state.models) if (n > best) [name, best] = [model, n];
  name ??= state.model;
  if (name === null && state.provider === null && !Object.keys(state.parameters).length) return null;
  return { provider: state.provider, name, parameters: state.parameters };
}

/** Kimi records tokens but no price: each answer is priced by its model, when the price table knows it. */
function estimate(state: KimiState, fallbackModel: string | null): Session['cost'] {
  const total = new CostTotal();
  for (const m of state.messages) {
    if (!m.usage) continue;
    m.cost = builtinPricing.estimate(m.model ?? fallbackModel, m.usage);
    total.add(m.cost, m.usage);
  }
  if (total.unpriced > 0) {
    const why = fallbackModel === null ? 'The session does not name its model' : `No price is known for model ${JSON.stringify(fallbackModel)}`;
    state.warnings.add('unpriced_model', `${why}; its tokens are not in the estimated cost.`);
  }
  return total.total();
}

/** Running: written within the window (file and records) and a turn still open (or, without turn records, no final answer). */
function lifecycle(state: KimiState, ctx: DocumentContext, facts: KimiSessionFacts): LifecycleStatus {
  const last = state.lastTimestamp ?? facts.updatedAt;
  if (facts.now - ctx.mtimeMs >= ACTIVE_WINDOW_MS) return 'closed';
  if (last !== null && facts.now - Date.parse(last) >= ACTIVE_WINDOW_MS) return 'closed';
  if (facts.turnsKnown) return state.openTurn ? 'active' : 'closed';
  const message = state.messages.filter((m) => m.role !== 'system').at(-1);
  const final = message?.role === 'assistant' && !message.parts.some((p) => p.type === 'tool_call');
  return message && !final ? 'active' : 'closed';
}

function buildExtra(state: KimiState, facts: KimiSessionFacts): Record<string, unknown> {
  const extra: Record<string, unknown> = { ...state.extra };
  if (state.turns) extra.turns = state.turns;
  if (state.contextTokens !== null) extra.contextTokens = state.contextTokens;
  if (state.otherRecords.size) extra.otherRecords = Object.fromEntries(state.otherRecords);
  return { ...extra, ...facts.extra };
}

export function buildKimiSession(state: KimiState, ctx: DocumentContext, facts: KimiSessionFacts): Session {
  reportUnknown(state);
  const model = modelInfo(state);
  const cost = estimate(state, model?.name ?? null);
  const cwd = facts.cwd ?? state.cwd;
  const title = [...facts.titles, firstPrompt(state)].map((t) => titleFromText(t)).find((t) => t !== null) ?? facts.fallbackTitle;
  return {
    key: facts.key,
    id: facts.id,
    format: 'kimi',
    formatVersion: typeof state.extra.wireProtocol === 'string' ? state.extra.wireProtocol : null,
    title,
    project: { path: cwd, name: cwd ? lastSegment(cwd) : null, branch: null, headCommit: null },
    createdAt: state.firstTimestamp ?? facts.createdAt,
    updatedAt: state.lastTimestamp ?? facts.updatedAt,
    closedAt: null,
    status: lifecycle(state, ctx, facts),
    outcome: null,
    model,
    config: [],
    systemPrompt: state.systemPrompt !== null ? { path: null, hash: null, text: state.systemPrompt } : null,
    toolVersion: null,
    messages: state.messages,
    operations: [],
    todos: [],
    summary: null,
    artifacts: [],
    usage: state.usage,
    cost,
    parentKey: facts.parentKey,
    childKeys: facts.childKeys,
    sourceFiles: facts.sourceFiles,
    warnings: state.warnings.list(),
    extra: buildExtra(state, facts),
  };
}
