// One Hermes message record (a transcript entry or a store row, both OpenAI-style) as a canonical message.
import { warnMissingContent } from '../missing-content.ts';
import type { Message, MessagePart, MessageRole, Origin } from '../../../shared/session.ts';
import type { Fields, WarningList } from '../coerce.ts';
import { contentParts, outputText, thinkingParts, toolCallParts, type UnknownCounts } from './hermes-parts.ts';
import { isCompactionSummary } from './hermes-prompt.ts';

/** Fields a Hermes message has in either store; any other is reported once. */
const MESSAGE_FIELDS = [
  'role',
  'content',
  'tool_calls',
  'tool_call_id',
  'tool_name',
  'finish_reason',
  'reasoning',
  'reasoning_content',
  'reasoning_details',
  'codex_reasoning_items',
  'codex_message_items',
  'timestamp',
  'token_count',
  'id',
  'session_id',
];

/** Why a reply stopped, worth a note only when it is not the ordinary end of a turn. */
const ORDINARY_STOPS = new Set(['stop', 'tool_calls', 'end_turn']);

/** What the conversion of one session's messages collects for its warnings. */
export interface MessageTally {
  warnings: WarningList;
  unknownBlocks: UnknownCounts;
  unknownRoles: UnknownCounts;
  unknownFields: Set<string>;
}

export function newTally(warnings: WarningList): MessageTally {
  return { warnings, unknownBlocks: new Map(), unknownRoles: new Map(), unknownFields: new Set() };
}

/** One record to convert: its fields, the id and time already worked out, and where the raw record is. */
export interface HermesRecord {
  f: Fields;
  id: string;
  timestamp: string | null;
  origin: Origin | null;
  /** Where the record is, for warnings ("message 3", "messages row 12"). */
  where: string;
}

function roleOf(role: string | null): MessageRole | null {
  return role === 'user' || role === 'assistant' || role === 'tool' || role === 'system' ? role : null;
}

function partsOf(rec: HermesRecord, role: MessageRole, tally: MessageTally): { parts: MessagePart[]; role: MessageRole } {
  const { f } = rec;
  if (role === 'tool') {
    const finish = f.string('finish_reason');
    const output = outputText(f.value('content'));
    const callId = f.string('tool_call_id');
    if (!output && callId === null) return { parts: [], role };
    return { role, parts: [{ type: 'tool_result', callId, output, isError: finish === 'error' ? true : null }] };
  }
  const content = contentParts(f.value('content'), f.name('content'), tally.warnings, tally.unknownBlocks);
  const first = content[0];
  // Hermes puts a summary of the compressed context in a user turn of the continuation.
  if (role === 'user' && content.length === 1 && first?.type === 'text' && isCompactionSummary(first.text)) {
    return { role: 'system', parts: [{ type: 'compaction', summary: first.text, trigger: 'compression', tokensBefore: null }] };
  }
  if (role !== 'assistant') return { role, parts: content };
  const thinking = thinkingParts(['reasoning', 'reasoning_content', 'reasoning_details', 'codex_reasoning_items'].map((k) => f.value(k)));
  return { role, parts: [...thinking, ...content, ...toolCallParts(f.value('tool_calls'), f.name('tool_calls'), tally.warnings)] };
}

/**
 * The canonical message, or null for a record that is not one: an unknown role (counted for a warning) or a
 * message with nothing in it (warned about, never shown empty). `session_meta` records are the caller's.
 */
export function hermesMessage(rec: HermesRecord, tally: MessageTally): Message | null {
  const roleText = rec.f.string('role');
  const known = roleOf(roleText);
  if (known === null) {
    const key = roleText ?? 'without a role';
    tally.unknownRoles.set(key, (tally.unknownRoles.get(key) ?? 0) + 1);
    return null;
  }
  for (const k of rec.f.unknownKeys(MESSAGE_FIELDS)) tally.unknownFields.add(k);
  const { parts, role } = partsOf(rec, known, tally);
  if (parts.length === 0) {
    warnMissingContent(tally.warnings, `${known === 'assistant' ? 'An' : 'A'} ${known} message (${rec.where})`);
    return null;
  }
  const message: Message = { id: rec.id, role, timestamp: rec.timestamp, model: null, usage: null, cost: null, parts, agentId: null, origin: rec.origin };
  const finish = known === 'assistant' ? rec.f.string('finish_reason') : null;
  if (finish !== null && !ORDINARY_STOPS.has(finish)) message.annotations = { stopReason: finish };
  return message;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The tally's warnings, one line per kind of thing that was skipped. */
export function reportTally(tally: MessageTally): void {
  for (const [role, n] of tally.unknownRoles)
    tally.warnings.add('unknown_record_type', `Unknown Hermes message role "${role}": ${plural(n, 'message')} skipped.`);
  for (const [type, n] of tally.unknownBlocks)
    tally.warnings.add('unknown_block_type', `Unknown Hermes content item "${type}" (${plural(n, 'item')}) ignored.`);
  if (tally.unknownFields.size) {
    const names = [...tally.unknownFields].sort().join(', ');
    tally.warnings.add('unknown_field', `Unknown message ${tally.unknownFields.size === 1 ? 'field' : 'fields'} ignored: ${names}.`);
  }
}
