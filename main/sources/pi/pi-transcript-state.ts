// What one pass over a Pi session's active branch collects, and the helper that adds a message to it.
import type { Message, MessagePart, TokenUsage } from '../../../shared/session.ts';
import { addUsage, emptyUsage, type WarningList } from '../coerce.ts';
import type { BlockCounts } from './pi-content.ts';
import type { PiEntry } from './pi-entries.ts';

export interface PiModel {
  provider: string | null;
  name: string;
}

export interface PiTranscript {
  warnings: WarningList;
  messages: Message[];
  /** Summed over every call that recorded usage (assistant messages and oh-my-pi's side calls). */
  usage: TokenUsage | null;
  /** Assistant messages per model name, with the provider that served it. */
  models: Map<string, { provider: string | null; count: number }>;
  /** The model in effect: the last model change or assistant message seen. */
  current: PiModel | null;
  thinkingLevel: string | null;
  /** The name the user gave the session (`session_info`, oh-my-pi's `title_change`); the latest wins. */
  name: string | null;
  /** Bookmarks the user put on entries (`label`), by entry id. */
  labels: Map<string, string>;
  compactions: number;
  /** The stop reason of the last assistant message on the branch. */
  lastStopReason: string | null;
  systemPrompt: string | null;
  /** Calls outside the conversation (oh-my-pi `model_usage`: titles, summaries), with their tokens and cost. */
  sideCalls: Array<{ purpose: string | null; model: string | null; usage: TokenUsage | null; usd: number | null }>;
  /** Entries this reader knows but shows no message for, per type (`custom` per its customType). */
  otherEntries: Map<string, number>;
  unknownTypes: Map<string, number>;
  unknownBlocks: BlockCounts;
  unknownRoles: Map<string, number>;
  firstTimestamp: string | null;
  lastTimestamp: string | null;
  /** Message ids given out, so a repeated entry id still yields unique messages. */
  ids: Set<string>;
}

export function newTranscript(warnings: WarningList): PiTranscript {
  return {
    warnings,
    messages: [],
    usage: null,
    models: new Map(),
    current: null,
    thinkingLevel: null,
    name: null,
    labels: new Map(),
    compactions: 0,
    lastStopReason: null,
    systemPrompt: null,
    sideCalls: [],
    otherEntries: new Map(),
    unknownTypes: new Map(),
    unknownBlocks: new Map(),
    unknownRoles: new Map(),
    firstTimestamp: null,
    lastTimestamp: null,
    ids: new Set(),
  };
}

export function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

export function addTokens(t: PiTranscript, usage: TokenUsage): void {
  addUsage((t.usage ??= emptyUsage()), usage);
}

/** Adds a message for an entry of the branch, keeping the raw record reachable (line of the session file). */
export function pushMessage(t: PiTranscript, entry: PiEntry, role: Message['role'], parts: MessagePart[], notes?: Record<string, unknown>): Message {
  const id = t.ids.has(entry.id) ? `${entry.id}#${entry.line}` : entry.id;
  t.ids.add(id);
  const message: Message = {
    id,
    role,
    timestamp: entry.timestamp,
    model: null,
    usage: null,
    cost: null,
    parts,
    agentId: null,
    origin: { fileIndex: 0, line: entry.line, pointer: null },
  };
  const label = t.labels.get(entry.id);
  const annotations = { ...(notes ?? {}), ...(label ? { label } : {}) };
  if (Object.keys(annotations).length) message.annotations = annotations;
  t.messages.push(message);
  return message;
}
