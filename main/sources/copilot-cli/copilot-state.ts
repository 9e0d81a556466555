// What one pass over a Copilot CLI events file builds up, and the helpers that add messages to it.
import type { Message, MessagePart, Operation, Outcome } from '../../../shared/session.ts';
import type { Fields, WarningList } from '../coerce.ts';

/** One event being read: its line, envelope id, time and the sub-agent it belongs to. */
export interface EventCtx {
  line: number;
  eventId: string | null;
  ts: string | null;
  /** The sub-agent run (its spawning tool call) an event belongs to; null for the main conversation. */
  agentId: string | null;
  data: Fields;
}

export interface WorkingContext {
  cwd: string | null;
  branch: string | null;
  headCommit: string | null;
  repository: string | null;
}

/** The token counts one shutdown reported for one model (a process run's totals). */
export interface ModelMetric {
  model: string;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
  requests: number | null;
  nanoAiu: number | null;
  ts: string | null;
  line: number;
  source: 'modelMetrics' | 'tokenDetails';
}

export interface CopilotState {
  warnings: WarningList;
  messages: Message[];
  operations: Operation[];
  ids: Set<string>;
  /** Call ids some assistant.message requests (collected before the pass: execution events can come first). */
  requested: ReadonlySet<string>;
  toolOps: Map<string, Operation>;
  subagentOps: Map<string, Operation>;
  hookOps: Map<string, Operation>;
  unknownTypes: Map<string, number>;
  sessionId: string | null;
  version: string | null;
  producer: string | null;
  contexts: WorkingContext[];
  /** `Folder <path> has been added to trusted folders.`: the only folder a legacy flat session names. */
  trustedFolder: string | null;
  model: string | null;
  reasoningEffort: string | null;
  /** Assistant messages per model. */
  models: Map<string, number>;
  openTurns: number;
  resumes: number;
  /** The last shutdown, while no start or resume followed it. */
  shutdownAt: { ts: string | null } | null;
  metrics: ModelMetric[];
  /** Output tokens of assistant messages since the last shutdown, per model ('' when unknown). */
  tailOutput: Map<string, { output: number; ts: string | null; line: number }>;
  nanoAiu: number | null;
  premiumRequests: number | null;
  shutdownFacts: Record<string, unknown>;
  /** assistant.reasoning text waiting for the next assistant.message of the same thread. */
  pendingReasoning: Map<string, string[]>;
  /** Each tool request's `intentionSummary` (what the call is for, in words), by call id, with the message that requested it. */
  intentions: Map<string, { text: string; message: Message }>;
  title: string | null;
  outcome: Outcome | null;
  systemPrompt: string | null;
  firstTs: string | null;
  lastTs: string | null;
}

export function newState(warnings: WarningList, requested: ReadonlySet<string>): CopilotState {
  return {
    warnings,
    messages: [],
    operations: [],
    ids: new Set(),
    requested,
    toolOps: new Map(),
    subagentOps: new Map(),
    hookOps: new Map(),
    unknownTypes: new Map(),
    sessionId: null,
    version: null,
    producer: null,
    contexts: [],
    trustedFolder: null,
    model: null,
    reasoningEffort: null,
    models: new Map(),
    openTurns: 0,
    resumes: 0,
    shutdownAt: null,
    metrics: [],
    tailOutput: new Map(),
    intentions: new Map(),
    nanoAiu: null,
    premiumRequests: null,
    shutdownFacts: {},
    pendingReasoning: new Map(),
    title: null,
    outcome: null,
    systemPrompt: null,
    firstTs: null,
    lastTs: null,
  };
}

export function bump(map: Map<string, number>, key: string, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

/** A unique id for a row: the event id, else the line; repeats (trimmed fixtures reuse ids) get the line appended. */
export function uniqueId(state: CopilotState, wanted: string | null, line: number): string {
  let id = wanted ?? `line-${line}`;
  if (state.ids.has(id)) id = `${id}#${line}`;
  state.ids.add(id);
  return id;
}

export function addMessage(
  state: CopilotState,
  ev: EventCtx,
  role: Message['role'],
  parts: MessagePart[],
  more: { model?: string | null; annotations?: Record<string, unknown>; idSuffix?: string } = {},
): Message {
  const message: Message = {
    id: uniqueId(state, ev.eventId === null ? null : `${ev.eventId}${more.idSuffix ?? ''}`, ev.line),
    role,
    timestamp: ev.ts,
    model: more.model ?? null,
    usage: null,
    cost: null,
    parts,
    agentId: ev.agentId,
    origin: { fileIndex: 0, line: ev.line, pointer: null },
  };
  const annotations = { ...(more.annotations ?? {}) };
  if (ev.agentId !== null) annotations.parentToolCallId = ev.agentId;
  if (Object.keys(annotations).length) message.annotations = annotations;
  state.messages.push(message);
  return message;
}

/** A system row for a notice the CLI showed (info, warning, error, abort...). */
export function addNotice(state: CopilotState, ev: EventCtx, kind: string, text: string, more: Record<string, unknown> = {}): void {
  addMessage(state, ev, 'system', text ? [{ type: 'text', text }] : [], { annotations: { kind, ...more } });
}

export function newOperation(ev: EventCtx, id: string, type: string, name: string | null, detail: Record<string, unknown>): Operation {
  return {
    id,
    type,
    name,
    timestamp: ev.ts,
    endedAt: null,
    status: null,
    latencyMs: null,
    detail,
    vcs: null,
    usage: null,
    cost: null,
    parentId: null,
    childSessionKey: null,
    origin: { fileIndex: 0, line: ev.line, pointer: null },
  };
}

/** Milliseconds between two ISO times, when both are known and in order. */
export function between(start: string | null, end: string | null): number | null {
  if (!start || !end) return null;
  const ms = Date.parse(end) - Date.parse(start);
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}
