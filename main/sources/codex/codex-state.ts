// The mutable state one pass over a Codex rollout builds, and small helpers every Codex record handler shares.
import type { Message, MessagePart, MessageRole, Operation, TokenUsage } from '../../../shared/session.ts';
import { WarningList } from '../coerce.ts';
import { CodexTurns } from './codex-turns.ts';
import { CumulativeUsage } from './codex-usage.ts';
import type { RateLimitState } from './codex-rate-limits.ts';
import type { ExecOutput } from './codex-exec-output.ts';

/** A message known only from an event (user_message, agent_message ...), kept when no response_item says the same. */
export interface FallbackMessage {
  role: MessageRole;
  kind: 'text' | 'thinking';
  text: string;
  line: number;
  timestamp: string | null;
  /** item_completed copies are a second echo; they only count when neither the item nor the event survived. */
  late: boolean;
}

/** Facts of one session_meta line. */
export interface CodexMeta {
  line: number;
  id: string | null;
  timestamp: string | null;
  cwd: string | null;
  originator: string | null;
  cliVersion: string | null;
  source: unknown;
  modelProvider: string | null;
  branch: string | null;
  commit: string | null;
  repositoryUrl: string | null;
  forkedFromId: string | null;
  /** Set only for sub-agent threads (source.subagent ...). */
  parentThreadId: string | null;
  subagent: Record<string, unknown> | null;
  instructions: string | null;
}

/** The effective settings of the latest turn_context. */
export interface CodexContext {
  line: number;
  turnId: string | null;
  cwd: string | null;
  model: string | null;
  effort: string | null;
  summary: string | null;
  approvalPolicy: string | null;
  sandbox: string | null;
  /** The subset of fields shown as configuration entries. */
  config: Record<string, unknown>;
}

export class CodexState {
  readonly warnings = new WarningList();
  readonly messages: Message[] = [];
  readonly fallbacks: FallbackMessage[] = [];
  /** role, kind and text of every response_item message, to recognise the events that echo them. */
  readonly spoken = new Map<string, number>();
  readonly operations: Operation[] = [];
  readonly toolsByCallId = new Map<string, Operation>();
  /** exec_command_end outputs, compared with the calls' results once every record is read (codex-exec-output.ts). */
  readonly execOutputs: ExecOutput[] = [];
  /** Results without a call id (old writers) pair with the latest call of the same name still waiting. */
  readonly waitingByName = new Map<string, Operation[]>();
  /** web_search_call items carry no call id; web_search_end events pair with them in order. */
  readonly webSearches: Operation[] = [];
  readonly turns = new CodexTurns();
  readonly tokens = new CumulativeUsage();
  /**
   * A fork (session_meta with forked_from_id) may begin with its parent's history copied in, token counts included:
   * until its own first turn (a turn id made after the fork's own id), the counts are the parent's.
   */
  forkReplay: { waiting: boolean; forkMs: number | null } = { waiting: false, forkMs: null };
  meta: CodexMeta | null = null;
  readonly laterMeta: CodexMeta[] = [];
  context: CodexContext | null = null;
  /** The first working directory a turn_context names, for rollouts whose session_meta has none. */
  firstContextCwd: string | null = null;
  currentModel: string | null = null;
  readonly models = new Set<string>();
  threadName: string | null = null;
  readonly childKeys: string[] = [];
  /** Known record kinds that carry nothing the model shows, by kind. */
  readonly otherRecords = new Map<string, number>();
  readonly unknownRecords = new Map<string, number>();
  readonly unknownBlocks = new Map<string, number>();
  readonly errors: Array<{ line: number; timestamp: string | null; message: string }> = [];
  readonly abortedTurns: Array<{ turnId: string | null; reason: string | null; timestamp: string | null }> = [];
  /** The assistant message that the next token_count's usage belongs to. */
  lastAssistant: Message | null = null;
  firstTimestamp: string | null = null;
  lastTimestamp: string | null = null;
  /** Their times in milliseconds (compared with each record's). */
  firstMs = 0;
  lastMs = 0;
  /** Records that were recognised as Codex records at all. */
  recognised = 0;
  costParts: Array<{ model: string | null; usage: TokenUsage }> = [];
  /** The last rate-limit state a token_count event recorded. */
  rateLimits: RateLimitState | null = null;
}

export function bump(map: Map<string, number>, key: string, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

export function newMessage(state: CodexState, line: number, role: MessageRole, timestamp: string | null, parts: MessagePart[]): Message {
  const message: Message = {
    id: `line-${line}`,
    role,
    timestamp,
    model: role === 'assistant' ? state.currentModel : null,
    usage: null,
    cost: null,
    parts,
    agentId: null,
    origin: { fileIndex: 0, line, pointer: null },
  };
  state.messages.push(message);
  if (role === 'assistant') state.lastAssistant = message;
  return message;
}

export function newOperation(
  state: CodexState,
  line: number,
  type: string,
  name: string | null,
  timestamp: string | null,
  detail: Record<string, unknown>,
): Operation {
  const op: Operation = {
    id: `op-${line}`,
    type,
    name,
    timestamp,
    endedAt: null,
    status: null,
    latencyMs: null,
    detail,
    vcs: null,
    usage: null,
    cost: null,
    parentId: state.turns.current()?.op.id ?? null,
    childSessionKey: null,
    origin: { fileIndex: 0, line, pointer: null },
  };
  state.operations.push(op);
  state.turns.current()?.tools.push(op);
  return op;
}

export function detailOf(op: Operation): Record<string, unknown> {
  if (typeof op.detail === 'object' && op.detail !== null && !Array.isArray(op.detail)) return op.detail as Record<string, unknown>;
  const fresh: Record<string, unknown> = {};
  op.detail = fresh;
  return fresh;
}

export function addChild(state: CodexState, threadId: string): string {
  const key = `codex:${threadId}`;
  if (!state.childKeys.includes(key)) state.childKeys.push(key);
  return key;
}
