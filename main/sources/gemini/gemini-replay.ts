// Replays a Gemini CLI chat file (JSON document or append-only JSONL) into its final header and message list.
import type { Origin } from '../../../shared/session.ts';
import { isRecord, kindOfJson, type WarningList } from '../coerce.ts';
import type { JsonLine } from '../jsonl.ts';

export interface RecordedMessage {
  raw: unknown;
  origin: Origin;
}

/** The conversation as Gemini CLI itself would load it. */
export interface GeminiConversation {
  header: Record<string, unknown>;
  messages: RecordedMessage[];
  /** Legacy `history[]` of `{role, parts}` without ids. */
  legacy: boolean;
  rewinds: number;
  dropped: number;
  unknownRecords: Map<string, number>;
}

/** Everything but the messages of a JSON document is its header. */
export function replayDocument(doc: Record<string, unknown>, warnings: WarningList): GeminiConversation {
  const header: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc)) if (k !== 'messages' && k !== 'history') header[k] = v;
  const legacy = !Object.hasOwn(doc, 'messages') && Object.hasOwn(doc, 'history');
  const key = legacy ? 'history' : 'messages';
  const list = doc[key];
  const messages: RecordedMessage[] = [];
  if (Array.isArray(list)) {
    list.forEach((raw, i) => messages.push({ raw, origin: { fileIndex: 0, line: null, pointer: `/${key}/${i}` } }));
  } else if (list !== undefined && list !== null) {
    warnings.wrongType(key, 'a list', list);
  }
  return { header, messages, legacy, rewinds: 0, dropped: 0, unknownRecords: new Map() };
}

/**
 * JSONL (Gemini CLI 0.40+): a header record, one record per message (a later record with the same id replaces the
 * earlier one in place), `{"$set": {...}}` header patches (a `messages` list replaces the whole history) and
 * `{"$rewindTo": id}`, which removes that message and every later one, as the CLI's own loader does.
 */
export function replayJsonLines(records: readonly JsonLine[], warnings: WarningList): GeminiConversation {
  const header: Record<string, unknown> = {};
  const byId = new Map<string, RecordedMessage>();
  let replaced: RecordedMessage[] | null = null;
  const conv: GeminiConversation = { header, messages: [], legacy: false, rewinds: 0, dropped: 0, unknownRecords: new Map() };
  for (const { value, line } of records) {
    if (!isRecord(value)) {
      warnings.add('wrong_type', `A line holds ${kindOfJson(value)} where a Gemini chat record (an object) is expected; it was skipped.`);
      continue;
    }
    if (typeof value.$rewindTo === 'string') {
      conv.rewinds++;
      const ids = [...byId.keys()];
      const at = ids.indexOf(value.$rewindTo);
      // The CLI clears everything when the target is unknown; so does this replay.
      const gone = at === -1 ? ids : ids.slice(at);
      for (const id of gone) byId.delete(id);
      conv.dropped += gone.length;
    } else if (isRecord(value.$set)) {
      for (const [k, v] of Object.entries(value.$set)) {
        if (k !== 'messages') header[k] = v;
        else if (Array.isArray(v)) replaced = v.map((raw, i) => ({ raw, origin: { fileIndex: 0, line, pointer: `/$set/messages/${i}` } }));
      }
    } else if (typeof value.id === 'string') {
      byId.set(value.id, { raw: value, origin: { fileIndex: 0, line, pointer: null } });
    } else if (typeof value.sessionId === 'string') {
      Object.assign(header, value);
    } else {
      const kind = 'record with neither id, sessionId, $set nor $rewindTo';
      conv.unknownRecords.set(kind, (conv.unknownRecords.get(kind) ?? 0) + 1);
    }
  }
  conv.messages = replaced && replaced.length ? replaced : [...byId.values()];
  return conv;
}
