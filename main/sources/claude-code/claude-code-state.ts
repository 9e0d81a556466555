// The state one pass over a Claude Code file builds up, and the helpers that add messages and sub-agent spawns.
import type { Message, MessagePart, Operation, Todo, TokenUsage } from '../../../shared/session.ts';
import { isRecord, type Fields, type WarningList } from '../coerce.ts';
import { emptyMetadata, type SessionMetadata } from './claude-code-metadata.ts';

export interface ConversationOptions {
  /** A sub-agent's own file: its messages are that session's own, so they carry no agentId. */
  agentFile: boolean;
  /** Spawning tool_use id -> child session key, from the sub-agents' meta files. */
  childByToolUseId: ReadonlyMap<string, string>;
}

export interface Conversation {
  messages: Message[];
  /** One operation per Task/Agent tool call, linking to the sub-agent session when it is known. */
  operations: Operation[];
  /** The list the last TodoWrite call left. */
  todos: Todo[];
  /** Summed once per API response (message.id, else requestId). */
  usage: TokenUsage | null;
  meta: SessionMetadata;
  /** Distinct working directories in order of appearance. */
  cwds: string[];
  branch: string | null;
  version: string | null;
  sessionIds: string[];
  /** Assistant messages per model (one per API response). */
  models: Map<string, number>;
  effort: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  /** user / assistant / system records (and the 1.x top-level tool records). */
  conversationRecords: number;
  /** Every conversation record was marked isSidechain (a sub-agent transcript). */
  sidechainOnly: boolean;
  /** Record count per type, to explain a file with no conversation at all. */
  recordTypes: Map<string, number>;
  /** The uuid of every conversation record in the file (a split reply has one per line): what summaries point at. */
  recordUuids: Set<string>;
}

const SPAWN_TOOLS = new Set(['Task', 'Agent']);
/** Text Claude Code writes into user records for slash commands and their local output, not typed prompts. */
export const COMMAND_TEXT = /^\s*<(command-name|command-message|local-command-stdout|local-command-stderr)>/;

export interface State {
  conv: Conversation;
  warnings: WarningList;
  options: ConversationOptions;
  ids: Set<string>;
  byMessageId: Map<string, Message>;
  usageByKey: Map<string, Message>;
  spawns: Map<string, Operation>;
  pendingCompaction: { message: Message; part: Extract<MessagePart, { type: 'compaction' }> } | null;
  sidechainSeen: boolean;
  mainSeen: boolean;
  /** Timestamp of the record being read (parsed once, so a bad one is reported once). */
  ts: string | null;
}

export function uniqueId(state: State, wanted: string | null, line: number): string {
  let id = wanted ?? `line-${line}`;
  if (state.ids.has(id)) id = `${id}#${line}`;
  state.ids.add(id);
  return id;
}

export function note(message: Message, key: string, value: unknown): void {
  const annotations = (message.annotations ?? {}) as Record<string, unknown>;
  annotations[key] = value;
  message.annotations = annotations;
}

export function newMessage(state: State, rec: Fields, line: number, role: Message['role'], parts: MessagePart[]): Message {
  const sidechain = rec.raw.isSidechain === true;
  if (sidechain) state.sidechainSeen = true;
  else state.mainSeen = true;
  const message: Message = {
    id: uniqueId(state, rec.string('uuid'), line),
    role,
    timestamp: state.ts,
    model: null,
    usage: null,
    cost: null,
    parts,
    agentId: sidechain && !state.options.agentFile ? (rec.string('agentId') ?? 'sidechain') : null,
    origin: { fileIndex: 0, line, pointer: null },
  };
  state.conv.messages.push(message);
  return message;
}

export function closeSpawns(state: State, parts: MessagePart[], timestamp: string | null): void {
  for (const part of parts) {
    if (part.type !== 'tool_result' || part.callId === null) continue;
    const op = state.spawns.get(part.callId);
    if (!op) continue;
    op.endedAt = timestamp;
    op.status = part.isError ? 'error' : 'completed';
  }
}

function readTodos(input: unknown): Todo[] | null {
  if (!isRecord(input) || !Array.isArray(input.todos)) return null;
  return input.todos.filter(isRecord).flatMap((t) =>
    typeof t.content === 'string'
      ? [
          {
            content: t.content,
            status: typeof t.status === 'string' ? t.status : 'unknown',
            activeForm: typeof t.activeForm === 'string' ? t.activeForm : null,
          },
        ]
      : [],
  );
}

/** Reads TodoWrite lists and turns Task/Agent calls into spawn operations; `line` is where the call was written. */
export function noteToolCalls(state: State, message: Message, parts: MessagePart[], line: number): void {
  for (const part of parts) {
    if (part.type !== 'tool_call') continue;
    if (part.name === 'TodoWrite') state.conv.todos = readTodos(part.input) ?? state.conv.todos;
    if (!SPAWN_TOOLS.has(part.name)) continue;
    const input = isRecord(part.input) ? part.input : {};
    const description = typeof input.description === 'string' ? input.description : null;
    const subagentType = typeof input.subagent_type === 'string' ? input.subagent_type : null;
    const op: Operation = {
      id: part.callId ?? `${message.id}:spawn-${state.conv.operations.length}`,
      type: 'subagent',
      name: description ?? subagentType ?? part.name,
      timestamp: message.timestamp,
      endedAt: null,
      status: null,
      latencyMs: null,
      detail: { tool: part.name, subagentType, description },
      vcs: null,
      usage: null,
      cost: null,
      parentId: null,
      childSessionKey: part.callId ? (state.options.childByToolUseId.get(part.callId) ?? null) : null,
      origin: { fileIndex: 0, line, pointer: null },
    };
    state.conv.operations.push(op);
    if (part.callId) state.spawns.set(part.callId, op);
  }
}

export function newState(warnings: WarningList, options: ConversationOptions): State {
  const conv: Conversation = {
    messages: [],
    operations: [],
    todos: [],
    usage: null,
    meta: emptyMetadata(),
    cwds: [],
    branch: null,
    version: null,
    sessionIds: [],
    models: new Map(),
    effort: null,
    createdAt: null,
    updatedAt: null,
    conversationRecords: 0,
    sidechainOnly: false,
    recordTypes: new Map(),
    recordUuids: new Set(),
  };
  return {
    conv,
    warnings,
    options,
    ids: new Set(),
    byMessageId: new Map(),
    usageByKey: new Map(),
    spawns: new Map(),
    pendingCompaction: null,
    sidechainSeen: false,
    mainSeen: false,
    ts: null,
  };
}
