// Builds the canonical Session from one OpenCode session's rows (either layout): messages with their parts, tokens and recorded cost, model, sub-sessions, status.
import { warnMissingContent } from '../missing-content.ts';
import { ACTIVE_WINDOW_MS } from '../../../shared/activity.ts';
import type { Cost, Message, ModelInfo, Operation, Outcome, Session, TokenUsage } from '../../../shared/session.ts';
import { CostTotal } from '../../pricing/cost-total.ts';
import { builtinPricing } from '../../pricing/pricing-table.ts';
import { addUsage, emptyUsage, isRecord, lastSegment, titleFromText } from '../coerce.ts';
import type { OpenCodeApp } from './opencode-layout.ts';
import { isoTime } from './iso-time.ts';
import { partsOfMessage, tokensOf, type PartsOfMessage } from './opencode-parts.ts';
import type { OcPart, OcRecord, OcRows } from './opencode-rows.ts';

/** The title OpenCode gives a session until the model names it ("New session - 2026-03-22T10:00:00.000Z"). */
const PLACEHOLDER_TITLE = /^(New session|Child session) - \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

const iso = (ms: number | null) => (ms === null ? null : isoTime(ms));
const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

interface MessageFacts {
  message: Message;
  data: Record<string, unknown>;
  parts: PartsOfMessage;
}

/** The model a message names: assistants carry modelID/providerID, user messages `model {providerID, modelID}`. */
function modelOf(data: Record<string, unknown>): { name: string | null; provider: string | null } {
  const nested = isRecord(data.model) ? data.model : {};
  return { name: str(data.modelID) ?? str(nested.modelID), provider: str(data.providerID) ?? str(nested.providerID) };
}

function errorText(value: unknown): string | null {
  if (!isRecord(value)) return null;
  const data = isRecord(value.data) ? value.data : {};
  const message = str(data.message) ?? str(value.message);
  const name = str(value.name);
  if (!message && !name) return null;
  return name && message ? `Error (${name}): ${message}` : `Error: ${message ?? name}`;
}

/** A prompt's `summary: {title, body}` as its text: the title (the body can describe the reply), else the body; or null. */
function summaryOf(value: unknown): string | null {
  if (!isRecord(value)) return null;
  return str(value.title)?.trim() || str(value.body)?.trim() || null;
}

function buildMessage(record: OcRecord, own: readonly OcPart[], app: OpenCodeApp, rows: OcRows): MessageFacts | null {
  const data = record.data;
  if (!data) return null;
  const warnings = rows.warnings;
  const rawRole = str(data.role);
  const role = rawRole === 'user' || rawRole === 'assistant' || rawRole === 'system' ? rawRole : null;
  if (!role)
    warnings.add('unknown_role', `A message has the role ${JSON.stringify(rawRole)}, which ${app.label} does not write; it is shown as a system message.`);
  const parts = partsOfMessage(own, warnings);
  const error = errorText(data.error);
  if (error) parts.parts.push({ type: 'text', text: error });
  // Older trees could keep a prompt only as its message's summary (no text part): shown from there, and said so (as
  // agent-sessions shows it).
  const summaryText = role === 'user' && !parts.parts.length ? summaryOf(data.summary) : null;
  if (summaryText) {
    parts.parts.push({ type: 'text', text: summaryText });
    warnings.add('text_from_summary', `A ${app.label} prompt has no text part; the text shown is its message's summary.`);
  }
  const time = isRecord(data.time) ? data.time : {};
  const createdMs = typeof time.created === 'number' ? time.created : record.createdMs;
  const model = modelOf(data);
  // The steps' own usage, summed: the message's `tokens` is only its last step's (OpenCode overwrites it per step).
  const usage = role === 'assistant' ? (parts.stepUsage ?? tokensOf(data.tokens)) : null;
  const recorded = typeof data.cost === 'number' && Number.isFinite(data.cost) ? data.cost : parts.stepCost;
  const cost: Cost | null =
    role !== 'assistant'
      ? null
      : recorded !== null && (recorded > 0 || usage)
        ? { usd: recorded, estimated: false }
        : builtinPricing.estimate(model.name, usage);
  const annotations: Record<string, unknown> = {};
  for (const key of ['agent', 'mode', 'finish'] as const) if (str(data[key])) annotations[key] = data[key];
  if (str(data.parentID)) annotations.parentId = data.parentID;
  if (parts.patchedFiles.length) annotations.patchedFiles = parts.patchedFiles;
  if (!parts.parts.length) annotations.noContent = true;
  if (summaryText) annotations.textFrom = 'summary';
  return {
    data,
    parts,
    message: {
      id: record.id,
      role: role ?? 'system',
      timestamp: iso(typeof createdMs === 'number' ? createdMs : null),
      model: model.name,
      usage,
      cost,
      parts: parts.parts,
      annotations,
      agentId: null,
      origin: record.origin,
    },
  };
}

/**
 * How the session ended when its last answer failed: OpenCode keeps an assistant message's error as a tagged union
 * `{name, data: {message}}`. A MessageAbortedError is the user stopping the answer ("aborted"); any other, "failed".
 */
function outcomeOf(facts: readonly MessageFacts[]): Outcome | null {
  const last = facts.findLast((f) => f.data.role === 'assistant');
  const error = last && isRecord(last.data.error) ? last.data.error : null;
  if (!error) return null;
  const name = str(error.name);
  const data = isRecord(error.data) ? error.data : {};
  return { status: name === 'MessageAbortedError' ? 'aborted' : 'failed', summary: str(data.message) ?? str(error.message) ?? name, commitSha: null };
}

function sessionModel(rows: OcRows, facts: MessageFacts[]): ModelInfo | null {
  const names = new Set<string>();
  let last: { name: string | null; provider: string | null } = { name: null, provider: null };
  for (const f of facts) {
    const m = modelOf(f.data);
    if (m.name) {
      names.add(m.name);
      last = m;
    }
  }
  const own = rows.session?.model;
  const name = last.name ?? str(own?.id) ?? str(own?.modelID);
  const provider = last.provider ?? str(own?.providerID);
  if (!name && !provider) return null;
  return { provider, name, parameters: names.size > 1 ? { models: [...names] } : {} };
}

/**
 * Active only when the session's own records say a turn is under way (the last assistant message not completed,
 * or a tool still running) and it was written to within the active window; archived sessions are closed.
 */
function statusOf(rows: OcRows, facts: MessageFacts[], now: number): { status: Session['status']; closedAt: string | null } {
  const info = rows.session;
  if (info?.archivedMs) return { status: 'closed', closedAt: iso(info.archivedMs) };
  const last = facts.at(-1);
  const time = last && isRecord(last.data.time) ? last.data.time : {};
  const lastWrite = Math.max(
    info?.updatedMs ?? 0,
    typeof time.created === 'number' ? time.created : 0,
    typeof time.completed === 'number' ? time.completed : 0,
  );
  const turnOpen =
    !!last && ((last.message.role === 'assistant' && time.completed === undefined && !last.data.error && !last.data.finish) || last.parts.openTool);
  if (turnOpen && now - lastWrite < ACTIVE_WINDOW_MS) return { status: 'active', closedAt: null };
  if (info?.compactingMs && now - info.compactingMs < ACTIVE_WINDOW_MS) return { status: 'compacted', closedAt: null };
  return { status: facts.length ? 'open' : 'unknown', closedAt: null };
}

function firstPrompt(facts: MessageFacts[]): string | null {
  for (const f of facts) {
    if (f.message.role !== 'user') continue;
    for (const p of f.message.parts) if (p.type === 'text' && !p.text.startsWith('Attached file: ')) return titleFromText(p.text);
  }
  return null;
}

export function buildOpenCodeSession(rows: OcRows, app: OpenCodeApp, now: number = Date.now()): Session {
  const { warnings } = rows;
  const partsBy = new Map<string, OcPart[]>();
  for (const part of rows.parts) {
    const key = part.messageId ?? '';
    let list = partsBy.get(key);
    if (!list) partsBy.set(key, (list = []));
    list.push(part);
  }
  const facts: MessageFacts[] = [];
  for (const record of rows.messages) {
    const built = buildMessage(record, partsBy.get(record.id) ?? [], app, rows);
    if (!built) continue;
    // A message with no part to show: kept, without text, only for the tokens it carries or a reply still being
    // written (its turn is open); otherwise left out. A store holding only messages, as the usage subset of kilo.db
    // does, has no parts at all and says nothing.
    if (!built.message.parts.length && rows.session) {
      const time = isRecord(built.data.time) ? built.data.time : {};
      const open = built.message.role === 'assistant' && time.completed === undefined && !built.data.error;
      const keptFor = built.message.usage ? 'its token counts' : open ? 'its turn, still open' : null;
      const found = 'no text, reasoning, tool or file part';
      warnMissingContent(warnings, `An ${app.label} ${built.message.role} message`, keptFor ? { found, keptFor } : { found });
      if (!keptFor) continue;
    }
    facts.push(built);
  }
  const known = new Set(rows.messages.map((m) => m.id));
  const stray = rows.parts.filter((p) => p.messageId !== null && !known.has(p.messageId)).length;
  if (stray)
    warnings.add('orphan_part', `${stray} part${stray === 1 ? '' : 's'} name${stray === 1 ? 's' : ''} a message this session does not have; left out.`);

  const usage: TokenUsage = emptyUsage();
  const costs = new CostTotal();
  let anyUsage = false;
  for (const f of facts) {
    if (f.message.usage) {
      addUsage(usage, f.message.usage);
      anyUsage = true;
    }
    costs.add(f.message.cost, f.message.usage);
  }

  const info = rows.session;
  const children = new Set(rows.childIds);
  const operations: Operation[] = [];
  for (const f of facts) {
    for (const sub of f.parts.subSessions) {
      children.add(sub.id);
      operations.push({
        id: `task-${sub.callId ?? sub.id}`,
        type: 'subagent',
        name: sub.agent ?? sub.description,
        timestamp: f.message.timestamp,
        endedAt: null,
        status: sub.status,
        latencyMs: null,
        detail: { description: sub.description, agent: sub.agent, sessionId: sub.id },
        vcs: null,
        usage: null,
        cost: null,
        parentId: null,
        childSessionKey: `${app.format}:${sub.id}`,
        origin: f.message.origin,
      });
    }
  }
  children.delete(rows.id);

  const times = facts.map((f) => f.message.timestamp).filter((t): t is string => t !== null);
  const projectPath = info?.directory ?? rows.worktree;
  const { status, closedAt } = statusOf(rows, facts, now);
  const title =
    (info?.title && !PLACEHOLDER_TITLE.test(info.title) ? titleFromText(info.title, 200) : null) ??
    firstPrompt(facts) ??
    titleFromText(info?.title) ??
    `${app.label} session ${rows.id}`;
  const extra: Record<string, unknown> = {};
  if (info?.slug) extra.slug = info.slug;
  if (info?.agent) extra.agent = info.agent;
  if (info?.shareUrl) extra.shareUrl = info.shareUrl;
  if (info?.summary) extra.changes = info.summary;
  if (info?.projectId) extra.projectId = info.projectId;

  return {
    key: `${app.format}:${rows.id}`,
    id: rows.id,
    format: app.format,
    formatVersion: info?.version ?? null,
    title,
    project: { path: projectPath, name: projectPath ? lastSegment(projectPath) : null, branch: null, headCommit: null },
    createdAt: iso(info?.createdMs ?? null) ?? times[0] ?? null,
    updatedAt: iso(info?.updatedMs ?? null) ?? times.at(-1) ?? null,
    closedAt,
    status,
    outcome: outcomeOf(facts),
    model: sessionModel(rows, facts),
    config: [],
    systemPrompt: null,
    toolVersion: info?.version ?? null,
    messages: facts.map((f) => f.message),
    operations,
    todos: [],
    summary: null,
    artifacts: [],
    usage: anyUsage ? usage : null,
    cost: costs.total(),
    parentKey: info?.parentId ? `${app.format}:${info.parentId}` : null,
    childKeys: [...children].sort().map((id) => `${app.format}:${id}`),
    sourceFiles: rows.sourceFiles,
    warnings: warnings.list(),
    extra,
  };
}
