// The messages rows of one Goose session as canonical messages: content_json parsed, who saw each message noted.
import { warnMissingContent } from '../missing-content.ts';
import type { Message, MessageRole } from '../../../shared/session.ts';
import { Fields, isRecord, type WarningList } from '../coerce.ts';
import { gooseContent, type UnknownCounts } from './goose-content.ts';
import type { Row } from './goose-store.ts';
import { gooseTime, pointerToken } from './goose-time.ts';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** `metadata_json`: Goose hides some messages from the user (context it gives the agent) or from the agent (UI only). */
function visibility(f: Fields): string | null {
  const text = f.string('metadata_json');
  if (!text) return null;
  try {
    const meta: unknown = JSON.parse(text);
    if (!isRecord(meta)) return null;
    if (meta.userVisible === false) return 'Not shown to the user: context given to the agent.';
    if (meta.agentVisible === false) return 'Shown to the user only; not sent to the model.';
  } catch {
    f.warnings.add('invalid_json', `A messages row's metadata_json is not valid JSON; it was skipped (row ${String(f.raw.id)}).`);
  }
  return null;
}

/** `content_json` as a list of blocks; invalid JSON is kept as the text that was stored, with a warning. */
function blocksOf(f: Fields): unknown[] | string {
  const text = f.string('content_json');
  if (text === null) return [];
  try {
    const value: unknown = JSON.parse(text);
    if (Array.isArray(value)) return value;
    f.warnings.wrongType(f.name('content_json'), 'a list of content blocks', value);
    return [];
  } catch {
    f.warnings.add('invalid_json', `A messages row's content_json is not valid JSON; it is shown as stored (row ${String(f.raw.id)}).`);
    return text;
  }
}

function roleOf(role: string | null, onlyResults: boolean): MessageRole | null {
  if (role === 'user') return onlyResults ? 'tool' : 'user';
  if (role === 'assistant' || role === 'system') return role;
  return null;
}

export function gooseMessages(rows: Row[], warnings: WarningList): Message[] {
  const unknownBlocks: UnknownCounts = new Map();
  const unknownRoles = new Map<string, number>();
  const ids = new Set<string>();
  const messages: Message[] = [];
  for (const row of rows) {
    const f = new Fields(row, `messages[${String(row.id)}]`, warnings);
    const blocks = blocksOf(f);
    const content =
      typeof blocks === 'string'
        ? { parts: [{ type: 'text' as const, text: blocks }], notes: [] }
        : gooseContent(blocks, f.name('content_json'), warnings, unknownBlocks);
    const roleText = f.string('role');
    // A user turn that only carries tool results (and their images) is the tools speaking.
    const onlyResults = content.parts.some((p) => p.type === 'tool_result') && content.parts.every((p) => p.type === 'tool_result' || p.type === 'image');
    let role = roleOf(roleText, onlyResults);
    if (role === null) {
      const key = roleText ?? 'without a role';
      unknownRoles.set(key, (unknownRoles.get(key) ?? 0) + 1);
      continue;
    }
    const notes = content.notes;
    // A message that is only a notification is shown as one line from the system.
    if (content.parts.length === 0 && notes.length) {
      content.parts.push({ type: 'text', text: notes.splice(0).join('\n') });
      role = 'system';
    }
    if (content.parts.length === 0) {
      warnMissingContent(warnings, `A Goose ${roleText} message (row ${String(row.id)})`);
      continue;
    }
    const seen = visibility(f);
    if (seen) notes.push(seen);
    let id = f.string('message_id') ?? `msg-${String(row.id)}`;
    if (ids.has(id)) id = `${id}#${String(row.id)}`;
    ids.add(id);
    const message: Message = {
      id,
      role,
      timestamp: gooseTime(f.raw.created_timestamp) ?? gooseTime(f.raw.timestamp),
      model: null,
      usage: null,
      cost: null,
      parts: content.parts,
      agentId: null,
      origin: { fileIndex: 0, line: null, pointer: `/rows/messages/${pointerToken(String(row.id))}` },
    };
    if (notes.length) message.annotations = { note: notes.join(' · ') };
    messages.push(message);
  }
  for (const [role, n] of unknownRoles) warnings.add('unknown_record_type', `Unknown Goose message role "${role}": ${plural(n, 'message')} skipped.`);
  for (const [type, n] of unknownBlocks) warnings.add('unknown_block_type', `Unknown Goose content block "${type}" (${plural(n, 'block')}) ignored.`);
  return messages;
}
