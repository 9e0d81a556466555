// What one pass over a Kimi file collects (context, legacy wire or Kimi Code journal), and the helpers that add to it.
import type { Message, MessagePart, TokenUsage } from '../../../shared/session.ts';
import type { WarningList } from '../coerce.ts';
import type { BlockCounts } from './kimi-parts.ts';

export interface KimiState {
  warnings: WarningList;
  messages: Message[];
  ids: Set<string>;
  /** Index in the session's source files of the file the messages come from (raw record view). */
  fileIndex: number;
  /** The assistant message of the step being read; a new step starts a new one. */
  step: Message | null;
  usage: TokenUsage | null;
  /** Assistant messages (or requests) per model. */
  models: Map<string, number>;
  model: string | null;
  provider: string | null;
  parameters: Record<string, unknown>;
  cwd: string | null;
  systemPrompt: string | null;
  /** The context size kimi-cli last recorded (`_usage.token_count`): a gauge, not spend. */
  contextTokens: number | null;
  turns: number;
  /** A turn began and has not ended (a cancelled or ended turn closes it). */
  openTurn: boolean;
  /** Tool call id -> the sub-agent it started (its agent id), from kimi-cli's SubagentEvent records. */
  childByCall: Map<string, string>;
  /** When each turn began (kimi-cli's TurnBegin), to date the prompts of a context read without its wire. */
  turnTimes: Array<string | null>;
  firstTimestamp: string | null;
  lastTimestamp: string | null;
  /** Records this reader knows but shows no message for, per type. */
  otherRecords: Map<string, number>;
  unknownTypes: Map<string, number>;
  unknownBlocks: BlockCounts;
  extra: Record<string, unknown>;
  /** The compaction a Kimi Code journal began (full_compaction.begin) and has not completed: its summary comes after. */
  compaction: { message: Message; part: Extract<MessagePart, { type: 'compaction' }> } | null;
}

export function newKimiState(warnings: WarningList, fileIndex: number): KimiState {
  return {
    warnings,
    messages: [],
    ids: new Set(),
    fileIndex,
    step: null,
    usage: null,
    models: new Map(),
    model: null,
    provider: null,
    parameters: {},
    cwd: null,
    systemPrompt: null,
    contextTokens: null,
    turns: 0,
    openTurn: false,
    childByCall: new Map(),
    turnTimes: [],
    firstTimestamp: null,
    lastTimestamp: null,
    otherRecords: new Map(),
    unknownTypes: new Map(),
    unknownBlocks: new Map(),
    extra: {},
    compaction: null,
  };
}

export function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** ISO text of an epoch time in seconds (kimi-cli) or milliseconds (Kimi Code); null for anything else. */
export function isoFromEpoch(value: unknown, unit: 's' | 'ms'): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  const date = new Date(unit === 's' ? value * 1000 : value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

export function noteTime(state: KimiState, iso: string | null): void {
  if (iso === null) return;
  if (state.firstTimestamp === null || iso < state.firstTimestamp) state.firstTimestamp = iso;
  if (state.lastTimestamp === null || iso > state.lastTimestamp) state.lastTimestamp = iso;
}

export function addTokens(state: KimiState, usage: TokenUsage): void {
  const total = (state.usage ??= { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
  total.input += usage.input;
  total.output += usage.output;
  total.cacheRead += usage.cacheRead;
  total.cacheWrite += usage.cacheWrite;
  total.reasoning += usage.reasoning;
}

export function pushMessage(
  state: KimiState,
  line: number,
  role: Message['role'],
  timestamp: string | null,
  parts: MessagePart[],
  annotations?: Record<string, unknown>,
): Message {
  let id = `line-${line}`;
  for (let n = 2; state.ids.has(id); n++) id = `line-${line}#${n}`;
  state.ids.add(id);
  const message: Message = {
    id,
    role,
    timestamp,
    model: null,
    usage: null,
    cost: null,
    parts,
    agentId: null,
    origin: { fileIndex: state.fileIndex, line, pointer: null },
  };
  if (annotations && Object.keys(annotations).length) message.annotations = annotations;
  state.messages.push(message);
  return message;
}

/** The assistant message of the current step, opened on its first part. */
export function stepMessage(state: KimiState, line: number, timestamp: string | null): Message {
  if (!state.step) {
    state.step = pushMessage(state, line, 'assistant', timestamp, []);
    state.step.model = state.model;
  }
  return state.step;
}
