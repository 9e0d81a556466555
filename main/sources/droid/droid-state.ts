// What one pass over a Droid file collects (either dialect), and the helpers that add messages and times to it.
import type { Message, MessagePart, Outcome, Todo, TokenUsage } from '../../../shared/session.ts';
import { toIsoTimestamp, type WarningList } from '../coerce.ts';
import type { BlockCounts } from './droid-blocks.ts';

export interface DroidState {
  warnings: WarningList;
  messages: Message[];
  ids: Set<string>;
  sessionId: string | null;
  title: string | null;
  cwd: string | null;
  model: string | null;
  version: string | null;
  owner: string | null;
  /** The stream's own token count (its `completion` record); sessions take theirs from the settings file. */
  usage: TokenUsage | null;
  outcome: Outcome | null;
  todos: Todo[];
  config: Record<string, unknown>;
  firstTimestamp: string | null;
  lastTimestamp: string | null;
  /** Records this reader knows but shows no message for. */
  otherRecords: Map<string, number>;
  unknownTypes: Map<string, number>;
  unknownBlocks: BlockCounts;
  /** Kept facts of the run with no canonical field (a stream's duration and turns, errors). */
  extra: Record<string, unknown>;
}

export function newDroidState(warnings: WarningList): DroidState {
  return {
    warnings,
    messages: [],
    ids: new Set(),
    sessionId: null,
    title: null,
    cwd: null,
    model: null,
    version: null,
    owner: null,
    usage: null,
    outcome: null,
    todos: [],
    config: {},
    firstTimestamp: null,
    lastTimestamp: null,
    otherRecords: new Map(),
    unknownTypes: new Map(),
    unknownBlocks: new Map(),
    extra: {},
  };
}

export function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** A record time: ISO text, or epoch milliseconds (seconds when the number is too small to be milliseconds). */
export function droidTime(state: DroidState, value: unknown): string | null {
  let iso: string | null = null;
  if (typeof value === 'string') iso = toIsoTimestamp(value);
  else if (typeof value === 'number' && Number.isFinite(value)) {
    const date = new Date(value < 1e11 ? value * 1000 : value);
    iso = Number.isNaN(date.getTime()) ? null : date.toISOString();
  }
  if (value !== undefined && value !== null && iso === null) {
    state.warnings.add('bad_timestamp', `A record's "timestamp" is not a date and time this app understands (${JSON.stringify(value)}); it was skipped.`);
  }
  if (iso !== null) {
    if (state.firstTimestamp === null || iso < state.firstTimestamp) state.firstTimestamp = iso;
    if (state.lastTimestamp === null || iso > state.lastTimestamp) state.lastTimestamp = iso;
  }
  return iso;
}

export function pushMessage(
  state: DroidState,
  wanted: string | null,
  line: number,
  role: Message['role'],
  timestamp: string | null,
  parts: MessagePart[],
  annotations?: Record<string, unknown>,
): Message {
  let id = wanted ?? `line-${line}`;
  if (state.ids.has(id)) id = `${id}#${line}`;
  state.ids.add(id);
  const message: Message = { id, role, timestamp, model: null, usage: null, cost: null, parts, agentId: null, origin: { fileIndex: 0, line, pointer: null } };
  if (annotations && Object.keys(annotations).length) message.annotations = annotations;
  state.messages.push(message);
  return message;
}

/**
 * A user prompt, with any leading `<system-reminder>` blocks shown as a system message of their own, marked with the
 * tag's name (kind `system-reminder`): the transcript folds it as it folds Claude Code's reminders, and a search for
 * the tag still finds the words the prompt was split at.
 */
export function pushPrompt(state: DroidState, wanted: string | null, line: number, timestamp: string | null, reminders: string[], parts: MessagePart[]): void {
  if (reminders.length) {
    pushMessage(
      state,
      wanted ? `${wanted}#reminder` : null,
      line,
      'system',
      timestamp,
      reminders.map((text) => ({ type: 'text' as const, text })),
      { kind: 'system-reminder' },
    );
  }
  if (parts.length) pushMessage(state, wanted, line, 'user', timestamp, parts);
}
