// Turns an Amp thread's messages[] into canonical messages, keeping each one's recorded usage and Amp's own message id.
import { warnMissingContent } from '../missing-content.ts';
import type { Message, MessageRole } from '../../../shared/session.ts';
import { elementFields, type WarningList } from '../coerce.ts';
import { ampContentParts, type UnknownBlocks } from './amp-content.ts';
import { readMessageUsage, type AmpUsage } from './amp-usage.ts';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export interface Converted {
  messages: Message[];
  /** Usage per assistant messageId, for the ledger's cache split. */
  usageByMessageId: Map<number, AmpUsage>;
  messageByAmpId: Map<number, Message>;
}

export function convertMessages(list: unknown[], warnings: WarningList): Converted {
  const unknownBlocks: UnknownBlocks = new Map();
  const unknownRoles = new Map<string, number>();
  const out: Converted = { messages: [], usageByMessageId: new Map(), messageByAmpId: new Map() };
  list.forEach((raw, i) => {
    const f = elementFields(raw, 'messages', warnings);
    if (!f) return;
    const role = f.string('role');
    if (role !== 'user' && role !== 'assistant') {
      const label = role ?? 'without a role';
      unknownRoles.set(label, (unknownRoles.get(label) ?? 0) + 1);
      return;
    }
    const parts = ampContentParts(f.raw.content, `messages[${i}].content`, warnings, unknownBlocks);
    const usage = f.present('usage') ? f.object('usage') : null;
    const recorded = usage ? readMessageUsage(usage) : null;
    const ampId = f.number('messageId');
    if (parts.length === 0) {
      // A usage-only message still holds tokens and a time; one with neither holds nothing to show.
      const found = f.present('content') ? 'none of it can be shown' : 'no "content"';
      warnMissingContent(warnings, `An Amp ${role} message`, recorded ? { found, keptFor: 'its token counts' } : { found });
      if (!recorded) return;
    }
    const onlyResults = parts.length > 0 && parts.every((p) => p.type === 'tool_result');
    const messageRole: MessageRole = role === 'user' && onlyResults ? 'tool' : role;
    const message: Message = {
      id: ampId !== null ? `message-${ampId}` : `message-${i}`,
      role: messageRole,
      timestamp: recorded?.timestamp ?? null,
      model: recorded?.model ?? null,
      usage: recorded?.usage ?? null,
      cost: null,
      parts,
      agentId: null,
      origin: { fileIndex: 0, line: null, pointer: `/messages/${i}` },
    };
    if (recorded?.credits != null) message.annotations = { credits: recorded.credits };
    out.messages.push(message);
    if (ampId !== null) {
      out.messageByAmpId.set(ampId, message);
      if (recorded) out.usageByMessageId.set(ampId, recorded);
    }
  });
  for (const [role, n] of unknownRoles) warnings.add('unknown_role', `Amp messages with role "${role}" (${plural(n, 'message')}) were skipped.`);
  for (const [type, n] of unknownBlocks) warnings.add('unknown_block_type', `Unknown Amp content block "${type}" (${plural(n, 'block')}) ignored.`);
  return out;
}
