// Assembles the canonical Session from the state one pass over a Codex rollout built: messages, status, usage, links.
import { recentlyActive } from '../../../shared/activity.ts';
import { basename } from 'node:path';
import type { Cost, Message, MessagePart, ModelInfo, Operation, Session } from '../../../shared/session.ts';
import { builtinPricing } from '../../pricing/pricing-table.ts';
import { CostTotal } from '../../pricing/cost-total.ts';
import { Fields, flattenConfig, lastSegment, primarySourceFile, titleFromText, type DocumentContext } from '../coerce.ts';
import { keepExecOutputs } from './codex-exec-output.ts';
import { isInjected } from './codex-items.ts';
import type { CodexMeta, CodexState, FallbackMessage } from './codex-state.ts';
import { spokenKey } from './spoken-key.ts';
import { UnreadableError } from '../types.ts';

const UUID_AT_END = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl(?:\.gz|\.zst)?$/i;

/** The id in `rollout-<local time>-<uuid>.jsonl` (or `.jsonl.zst`); the file stem for names without one. */
export function idFromFileName(path: string): { id: string; isUuid: boolean } {
  const match = UUID_AT_END.exec(basename(path));
  if (match?.[1]) return { id: match[1], isUuid: true };
  return { id: basename(path).replace(/\.jsonl(\.gz|\.zst)?$/i, ''), isUuid: false };
}

/** Events echo response items; an echo is kept only when the item it repeats is missing (torn line, older writer). */
function mergeEchoes(state: CodexState): void {
  const spoken = new Map(state.spoken);
  const adopted: string[] = [];
  const adopt = (echo: FallbackMessage): void => {
    const key = spokenKey(echo.role, echo.kind, echo.text);
    const left = spoken.get(key) ?? 0;
    if (left > 0) {
      spoken.set(key, left - 1);
      return;
    }
    adopted.push(key);
    const part: MessagePart = echo.kind === 'text' ? { type: 'text', text: echo.text } : { type: 'thinking', text: echo.text, redacted: false };
    state.messages.push({
      id: `line-${echo.line}`,
      role: echo.role,
      timestamp: echo.timestamp,
      model: null,
      usage: null,
      cost: null,
      parts: [part],
      annotations: { fromEvent: true },
      agentId: null,
      origin: { fileIndex: 0, line: echo.line, pointer: null },
    });
  };
  for (const echo of state.fallbacks) if (!echo.late) adopt(echo);
  // item_completed repeats what an event already said, so an event kept above also answers for its late copy.
  for (const key of adopted) spoken.set(key, (spoken.get(key) ?? 0) + 1);
  for (const echo of state.fallbacks) if (echo.late) adopt(echo);
  state.messages.sort((a, b) => (a.origin?.line ?? 0) - (b.origin?.line ?? 0));
}

function firstPrompt(messages: Message[]): string | null {
  for (const m of messages) {
    if (m.role !== 'user') continue;
    const notes = (m.annotations ?? {}) as Record<string, unknown>;
    if (notes.injected || notes.kind === 'agent_message') continue;
    const text = m.parts.find((p) => p.type === 'text');
    if (text?.type === 'text' && !isInjected(text.text)) {
      const title = titleFromText(text.text);
      if (title) return title;
    }
  }
  return null;
}

/** Codex records tokens but never prices; every slice is priced with the model that was active, or left unpriced. */
function estimateCost(state: CodexState, fallbackModel: string | null): Cost | null {
  const total = new CostTotal();
  for (const part of state.costParts) total.add(builtinPricing.estimate(part.model ?? fallbackModel, part.usage), part.usage);
  return total.total();
}

function readModel(state: CodexState): ModelInfo | null {
  const parameters: Record<string, unknown> = {};
  if (state.context?.effort) parameters.reasoningEffort = state.context.effort;
  if (state.context?.summary) parameters.reasoningSummary = state.context.summary;
  const provider = state.meta?.modelProvider ?? null;
  if (state.currentModel === null && provider === null && !Object.keys(parameters).length) return null;
  return { provider, name: state.currentModel, parameters };
}

function metaSummary(m: CodexMeta): Record<string, unknown> {
  return { line: m.line, id: m.id, forkedFromId: m.forkedFromId, parentThreadId: m.parentThreadId, source: m.source };
}

function buildExtra(state: CodexState, fileId: string | null): Record<string, unknown> {
  const meta = state.meta;
  const extra: Record<string, unknown> = {};
  if (meta?.originator) extra.originator = meta.originator;
  if (meta?.source !== null && meta?.source !== undefined) extra.source = meta.source;
  if (meta?.repositoryUrl) extra.repositoryUrl = meta.repositoryUrl;
  // A fork copies another session's history into a new thread: related, but not spawned by it, so no parentKey.
  if (meta?.forkedFromId) extra.forkedFrom = `codex:${meta.forkedFromId}`;
  if (meta?.subagent) extra.subagent = meta.subagent;
  if (fileId) extra.fileNameId = fileId;
  if (state.laterMeta.length) extra.otherSessionMeta = state.laterMeta.map(metaSummary);
  if (state.abortedTurns.length) extra.abortedTurns = state.abortedTurns;
  if (state.errors.length) extra.errors = state.errors;
  if (state.rateLimits) extra.rateLimits = state.rateLimits;
  if (state.models.size > 1) extra.models = [...state.models];
  if (state.tokens.resets) extra.tokenCounterResets = state.tokens.resets;
  // The parent's usage a fork's copied history replayed: shown as a fact, never counted as this session's.
  if (state.tokens.inherited) extra.inheritedUsage = state.tokens.inherited;
  if (state.turns.list.length) extra.turns = state.turns.list.length;
  if (state.otherRecords.size) extra.otherRecords = Object.fromEntries(state.otherRecords);
  return extra;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function reportUnknown(state: CodexState): void {
  for (const [type, n] of state.unknownRecords) {
    state.warnings.add('unknown_record_type', `Unknown Codex record type "${type}" (${plural(n, 'record')}) ignored.`);
  }
  for (const [type, n] of state.unknownBlocks) {
    state.warnings.add('unknown_block_type', `Unknown Codex content type "${type}" (${plural(n, 'item')}) ignored.`);
  }
}

function settleStatus(state: CodexState, ctx: DocumentContext, now: number): { status: Session['status']; closedAt: string | null } {
  // A rollout copied or restored today keeps its old record times: a new file alone does not make it running.
  const fresh = recentlyActive(now, ctx.mtimeMs, state.lastTimestamp);
  const open = state.turns.close(fresh, state.lastTimestamp);
  if (open === 'open') return { status: 'active', closedAt: null };
  if (!state.turns.usesTaskEvents) return { status: fresh ? 'active' : 'unknown', closedAt: null };
  if (open === 'crashed') {
    state.warnings.add('ended_without_completion', 'The rollout ended without task_complete (crash?): the last turn never finished.');
    return { status: 'closed', closedAt: state.lastTimestamp };
  }
  return { status: 'closed', closedAt: state.turns.last()?.op.endedAt ?? state.lastTimestamp };
}

export function buildCodexSession(state: CodexState, ctx: DocumentContext, now: number, recordCount: number): Session {
  const meta = state.meta;
  if (state.recognised === 0 && !meta) {
    const seen = [...state.unknownRecords.keys()].slice(0, 5).join(', ');
    throw new UnreadableError(
      'wrong_shape',
      `Not a Codex rollout: none of the ${plural(recordCount, 'record')} is a Codex record (session_meta, turn_context, response_item, event_msg or compacted)${seen ? `; found ${seen}` : ''}.`,
    );
  }
  const fromFile = idFromFileName(ctx.path);
  let id = meta?.id ?? null;
  let fileId: string | null = null;
  if (id === null) {
    id = fromFile.id;
    state.warnings.add('missing_field', 'The rollout has no usable session_meta id; the session id is taken from the file name.');
  } else if (fromFile.isUuid && fromFile.id !== id) {
    // ai-viewer (case o_payload_id_filename) identifies the session by session_meta.id, not by the file name.
    fileId = fromFile.id;
    state.warnings.add('id_mismatch', `The file name says ${fromFile.id} but session_meta says ${id}; the session_meta id is used.`);
  }

  mergeEchoes(state);
  keepExecOutputs(state.execOutputs, state.messages);
  const { status, closedAt } = settleStatus(state, ctx, now);
  const model = readModel(state);
  for (const m of state.messages) if (m.usage) m.cost = builtinPricing.estimate(m.model ?? model?.name, m.usage);
  const turnOps = state.turns.list.map((t) => t.op);
  for (const op of turnOps)
    if (op.usage) op.cost = builtinPricing.estimate(((op.detail as Record<string, unknown>).model as string | undefined) ?? model?.name, op.usage);
  const operations: Operation[] = [...turnOps, ...state.operations].sort((a, b) => (a.origin?.line ?? 0) - (b.origin?.line ?? 0));
  const projectPath = meta?.cwd ?? state.firstContextCwd;
  const config = state.context ? flattenConfig(new Fields(state.context.config, 'turn_context', state.warnings), null) : [];
  const extra = buildExtra(state, fileId);
  reportUnknown(state);

  return {
    key: `codex:${id}`,
    id,
    format: 'codex',
    formatVersion: null,
    title: titleFromText(state.threadName) ?? firstPrompt(state.messages) ?? `Codex session ${id.slice(0, 8)}`,
    project: { path: projectPath, name: projectPath ? lastSegment(projectPath) : null, branch: meta?.branch ?? null, headCommit: meta?.commit ?? null },
    createdAt: meta?.timestamp ?? state.firstTimestamp,
    updatedAt: state.lastTimestamp,
    closedAt,
    status,
    outcome: null,
    model,
    config,
    systemPrompt: meta?.instructions ? { path: null, hash: null, text: meta.instructions } : null,
    toolVersion: meta?.cliVersion ?? null,
    messages: state.messages,
    operations,
    todos: [],
    summary: null,
    artifacts: [],
    usage: state.tokens.total(),
    cost: estimateCost(state, model?.name ?? null),
    parentKey: meta?.parentThreadId ? `codex:${meta.parentThreadId}` : null,
    childKeys: state.childKeys,
    sourceFiles: [primarySourceFile(ctx)],
    warnings: state.warnings.list(),
    extra,
  };
}
