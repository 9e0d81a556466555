// Parses a Hermes transcript (.hermes/sessions/session_<id>.json, one JSON document, or <id>.jsonl, a message per line) into its facts and messages.
import type { Message } from '../../../shared/session.ts';
import { elementFields, Fields, isRecord, notAnObject, warnUnknownFields, type WarningList } from '../coerce.ts';
import { UnreadableError } from '../types.ts';
import { hermesMessage, newTally, reportTally, type MessageTally } from './hermes-messages.ts';
import { epochSecondsToIso, hermesTimestamp } from './hermes-time.ts';

export const TRANSCRIPT_FIELDS = [
  'session_id',
  'model',
  'base_url',
  'platform',
  'session_start',
  'last_updated',
  'cwd',
  'model_config',
  'message_count',
  'system_prompt',
  'tools',
  'messages',
  'conversation_tags',
  'title',
];

/** What a transcript says about its session, besides the messages. */
export interface HermesTranscript {
  sessionId: string | null;
  model: string | null;
  platform: string | null;
  cwd: string | null;
  startedAt: string | null;
  updatedAt: string | null;
  title: string | null;
  systemPrompt: string | null;
  modelConfig: Record<string, unknown> | null;
  tags: string[];
  /** Names of the tools the session offered the model. */
  tools: string[];
  /** `message_count` as written, to notice a transcript that lost messages. */
  declaredCount: number | null;
  messages: Message[];
}

/** A timestamp written as ISO text (zone optional) or as epoch seconds. */
function timestampOf(f: Fields, key: string): string | null {
  const raw = f.raw[key];
  if (typeof raw === 'number') return epochSecondsToIso(raw);
  const text = f.string(key);
  if (text === null) return null;
  const iso = hermesTimestamp(text);
  if (iso === null)
    f.warnings.add('bad_timestamp', `Field "${f.name(key)}" is not a date and time this app understands (${JSON.stringify(text)}); it was skipped.`);
  return iso;
}

function toolNames(raw: unknown[] | null): string[] {
  const names: string[] = [];
  for (const t of raw ?? []) {
    const fn = isRecord(t) && isRecord(t.function) ? t.function : t;
    if (isRecord(fn) && typeof fn.name === 'string') names.push(fn.name);
  }
  return names;
}

/** A `session_meta` entry: the header the JSONL form starts with; its fields fill what the document lacks. */
function applyMeta(f: Fields, t: HermesTranscript): void {
  t.model ??= f.string('model');
  t.platform ??= f.string('platform');
  t.startedAt ??= timestampOf(f, 'timestamp');
  if (!t.tools.length) t.tools = toolNames(f.array('tools'));
}

/** `lines`: for a transcript written a message per line, each message's line in the file (the raw view points there). */
function readMessages(top: Fields, t: HermesTranscript, tally: MessageTally, lines?: readonly number[]): void {
  (top.array('messages') ?? []).forEach((raw, i) => {
    const f = elementFields(raw, 'messages', tally.warnings);
    if (!f) return;
    if (f.raw.role === 'session_meta') return applyMeta(f, t);
    const message = hermesMessage(
      {
        f,
        id: `message-${i}`,
        timestamp: timestampOf(f, 'timestamp'),
        origin: lines ? { fileIndex: 0, line: lines[i] ?? null, pointer: null } : { fileIndex: 0, line: null, pointer: `/messages/${i}` },
        where: `message ${i + 1}`,
      },
      tally,
    );
    if (message) t.messages.push(message);
  });
}

/**
 * The transcript's facts and messages; throws UnreadableError when the document is no Hermes session at all. A
 * `<id>.jsonl` transcript comes as `{messages}` (its session_meta line among them) with each message's `lines`.
 */
export function readHermesTranscript(value: unknown, warnings: WarningList, lines?: readonly number[]): HermesTranscript {
  if (!isRecord(value)) throw notAnObject(value, 'Hermes session');
  const top = new Fields(value, '', warnings);
  if (typeof value.session_id !== 'string' && !Array.isArray(value.messages)) {
    const found = Object.keys(value).slice(0, 6).join(', ');
    throw new UnreadableError('wrong_shape', `Not a Hermes session: no session_id and no messages${found ? ` (fields: ${found})` : ''}.`);
  }
  const modelConfig = top.object('model_config');
  const t: HermesTranscript = {
    sessionId: top.string('session_id'),
    model: top.string('model'),
    platform: top.string('platform'),
    cwd: top.string('cwd') ?? modelConfig?.string('cwd') ?? null,
    startedAt: timestampOf(top, 'session_start'),
    updatedAt: timestampOf(top, 'last_updated'),
    title: top.string('title'),
    systemPrompt: top.string('system_prompt'),
    modelConfig: modelConfig ? (top.value('model_config') as Record<string, unknown>) : null,
    tags: (top.array('conversation_tags') ?? []).filter((x): x is string => typeof x === 'string'),
    tools: toolNames(top.array('tools')),
    declaredCount: top.number('message_count'),
    messages: [],
  };
  const tally = newTally(warnings);
  readMessages(top, t, tally, lines);
  reportTally(tally);
  warnUnknownFields(top, TRANSCRIPT_FIELDS);
  if (t.declaredCount !== null && t.declaredCount > t.messages.length) {
    warnings.add('missing_messages', `The transcript says it holds ${t.declaredCount} messages but ${t.messages.length} could be read.`);
  }
  return t;
}
