// Assembles the canonical Session from a replayed Copilot CLI events file and its workspace.yaml.
import { ACTIVE_WINDOW_MS } from '../../../shared/activity.ts';
import type { Message, Operation, Session } from '../../../shared/session.ts';
import { lastSegment, primarySourceFile, titleFromText, type DocumentContext, type WarningList } from '../coerce.ts';
import { UnreadableError } from '../types.ts';
import type { CopilotLayout } from './copilot-paths.ts';
import type { CopilotState } from './copilot-state.ts';
import { placeIntentions } from './copilot-content.ts';
import { copilotUsage } from './copilot-usage.ts';
import type { CopilotWorkspace } from './copilot-workspace.ts';

export interface CopilotContext extends DocumentContext {
  layout: CopilotLayout;
  workspace: CopilotWorkspace | null;
  /** Wall-clock time for the "still running" test (tests pin it). */
  now: number;
}

function isPrompt(m: Message): boolean {
  const notes = (m.annotations ?? {}) as Record<string, unknown>;
  return m.role === 'user' && m.agentId === null && notes.isMeta !== true;
}

function firstPrompt(messages: Message[]): string | null {
  for (const m of messages) {
    if (!isPrompt(m)) continue;
    const title = titleFromText(m.parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n'));
    if (title) return title;
  }
  return null;
}

function mostUsed(models: Map<string, number>): string | null {
  let best: string | null = null;
  for (const [model, n] of models) if (best === null || n > (models.get(best) ?? 0)) best = model;
  return best;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-/i;

/** The model with the most tokens in the usage the shutdowns reported. */
function busiest(ops: Operation[]): string | null {
  let best: Operation | null = null;
  const size = (op: Operation) => (op.usage ? op.usage.input + op.usage.output + op.usage.cacheRead + op.usage.cacheWrite : 0);
  for (const op of ops) if (op.name && (!best || size(op) > size(best))) best = op;
  return best?.name ?? null;
}

const recent = (iso: string | null, now: number) => iso === null || now - Date.parse(iso) < ACTIVE_WINDOW_MS;

/**
 * The CLI writes session.shutdown when it exits: a session whose last start or resume has none is running while
 * its file and its own last event are both recent, and of unknown state after (killed, or the machine slept).
 */
function lifecycle(state: CopilotState, ctx: CopilotContext): Pick<Session, 'status' | 'closedAt'> {
  if (state.shutdownAt) return { status: 'closed', closedAt: state.shutdownAt.ts };
  const live = ctx.now - ctx.mtimeMs < ACTIVE_WINDOW_MS && recent(state.lastTs, ctx.now);
  return { status: live ? 'active' : 'unknown', closedAt: null };
}

function extraOf(state: CopilotState, ctx: CopilotContext): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  if (state.producer) extra.producer = state.producer;
  if (state.resumes) extra.resumes = state.resumes;
  const repository = state.contexts.find((c) => c.repository)?.repository;
  if (repository) extra.repository = repository;
  const cwds = [...new Set(state.contexts.map((c) => c.cwd).filter((c): c is string => !!c))];
  if (cwds.length > 1) extra.cwds = cwds;
  if (state.premiumRequests !== null) extra.premiumRequests = state.premiumRequests;
  if (state.nanoAiu !== null) extra.nanoAiu = state.nanoAiu;
  Object.assign(extra, state.shutdownFacts);
  if (ctx.workspace?.clientName) extra.client = ctx.workspace.clientName;
  if (ctx.workspace?.summary) extra.workspaceSummary = ctx.workspace.summary;
  return extra;
}

export function buildCopilotSession(state: CopilotState, ctx: CopilotContext, warnings: WarningList): Session {
  const { layout, workspace } = ctx;
  if (state.sessionId === null && !state.messages.length && !state.operations.length) {
    throw new UnreadableError('wrong_shape', 'Not a Copilot CLI session: no session.start event and no conversation event.');
  }
  const id = layout.sessionId;
  if (state.sessionId !== null && state.sessionId !== id) {
    warnings.add(
      'id_mismatch',
      `session.start names session ${JSON.stringify(state.sessionId)}, but the file is session ${JSON.stringify(id)}; the file's id is used.`,
    );
  }
  const first = state.contexts[0];
  const path = first?.cwd ?? workspace?.cwd ?? state.trustedFolder;
  const latest = [...state.contexts].reverse();
  const status = lifecycle(state, ctx);
  const startMs = state.firstTs ? Date.parse(state.firstTs) : null;
  placeIntentions(state);
  const { operations: usageOps, usage, cost } = copilotUsage(state, startMs);
  const model = mostUsed(state.models) ?? busiest(usageOps) ?? state.model;
  // A tool, hook or sub-agent still running when the session is no longer live never finished.
  if (status.status !== 'active') for (const op of state.operations) if (op.status === 'running') op.status = 'unfinished';
  const title = [workspace?.name, state.title, workspace?.summary, firstPrompt(state.messages)].map((t) => titleFromText(t)).find((t) => t !== null);
  const sourceFiles = [primarySourceFile(ctx)];
  if (workspace) sourceFiles.push(workspace.file);
  return {
    key: `copilot-cli:${id}`,
    id,
    format: 'copilot-cli',
    formatVersion: layout.kind === 'directory' ? 'events.jsonl' : 'legacy-flat',
    title: title ?? `Copilot CLI session ${UUID.test(id) ? id.slice(0, 8) : id}`,
    project: {
      path,
      name: path ? lastSegment(path) : null,
      branch: latest.find((c) => c.branch)?.branch ?? workspace?.branch ?? null,
      headCommit: latest.find((c) => c.headCommit)?.headCommit ?? null,
    },
    createdAt: state.firstTs,
    updatedAt: state.lastTs,
    ...status,
    outcome: state.outcome,
    model: model ? { provider: null, name: model, parameters: state.reasoningEffort ? { reasoningEffort: state.reasoningEffort } : {} } : null,
    config: [],
    systemPrompt: state.systemPrompt ? { path: null, hash: null, text: state.systemPrompt } : null,
    toolVersion: state.version,
    messages: state.messages,
    operations: [...state.operations, ...usageOps],
    todos: [],
    summary: null,
    artifacts: [],
    usage,
    cost,
    parentKey: null,
    childKeys: [],
    sourceFiles,
    warnings: warnings.list(),
    extra: extraOf(state, ctx),
  };
}
