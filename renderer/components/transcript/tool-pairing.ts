// Turns each message's parts into display items, joining every tool call with its result (by callId, across messages).
import type { Message, MessagePart } from '../../../shared/session.ts';

type Part<T extends MessagePart['type']> = Extract<MessagePart, { type: T }>;

export type Item =
  | { kind: 'text'; id: string; text: string }
  | { kind: 'thinking'; id: string; text: string; redacted: boolean }
  /** A call and its result as one card; call is null for a result whose call was never recorded. */
  | { kind: 'tool'; id: string; call: Part<'tool_call'> | null; result: Part<'tool_result'> | null; resultMessageId: string | null }
  /** A result that is shown inside its call's card, in an earlier message. */
  | { kind: 'result-ref'; id: string; name: string; callItemId: string }
  | { kind: 'image'; id: string; part: Part<'image'> }
  | { kind: 'compaction'; id: string; part: Part<'compaction'> };

export type ToolItem = Extract<Item, { kind: 'tool' }>;

interface ResultAt {
  part: Part<'tool_result'>;
  messageIndex: number;
  partIndex: number;
}

const at = (m: number, p: number) => `${m}:${p}`;

/**
 * Items for every message, index-aligned with `messages`. Calls with an id take the first unused result
 * with that id wherever it is; calls without one (older formats) take the next id-less result of the
 * same agent before the user speaks again.
 */
export function pairToolCalls(messages: readonly Message[]): Item[][] {
  const byCallId = new Map<string, ResultAt[]>();
  messages.forEach((m, mi) =>
    m.parts.forEach((p, pi) => {
      if (p.type !== 'tool_result' || p.callId === null) return;
      const list = byCallId.get(p.callId) ?? [];
      list.push({ part: p, messageIndex: mi, partIndex: pi });
      byCallId.set(p.callId, list);
    }),
  );
  /** Results already placed (in a card or as an orphan), keyed "message:part", with the card that holds them. */
  const placed = new Map<string, string | null>();
  const pendingNoId = new Map<string, ToolItem[]>();
  const callNames = new Map<string, string>();
  const items: Item[][] = [];

  messages.forEach((message, mi) => {
    const out: Item[] = [];
    const thread = message.agentId ?? '';
    if (message.role === 'user' && message.parts.some((p) => p.type === 'text' && p.text.trim())) pendingNoId.delete(thread);
    message.parts.forEach((part, pi) => {
      const id = `${message.id}:${pi}`;
      switch (part.type) {
        case 'text':
          out.push({ kind: 'text', id, text: part.text });
          return;
        case 'thinking':
          out.push({ kind: 'thinking', id, text: part.text, redacted: part.redacted });
          return;
        case 'image':
          out.push({ kind: 'image', id, part });
          return;
        case 'compaction':
          out.push({ kind: 'compaction', id, part });
          return;
        case 'tool_call': {
          const card: ToolItem = { kind: 'tool', id, call: part, result: null, resultMessageId: null };
          callNames.set(id, part.name);
          if (part.callId !== null) {
            const match = byCallId.get(part.callId)?.find((r) => !placed.has(at(r.messageIndex, r.partIndex)));
            if (match) {
              card.result = match.part;
              card.resultMessageId = messages[match.messageIndex]?.id ?? null;
              placed.set(at(match.messageIndex, match.partIndex), id);
            }
          } else {
            pendingNoId.set(thread, [...(pendingNoId.get(thread) ?? []), card]);
          }
          out.push(card);
          return;
        }
        case 'tool_result': {
          const key = at(mi, pi);
          let holder = placed.get(key);
          if (holder === undefined && part.callId === null) {
            const queue = pendingNoId.get(thread);
            const card = queue?.shift();
            if (card) {
              card.result = part;
              card.resultMessageId = message.id;
              holder = card.id;
            }
          }
          if (holder) {
            out.push({ kind: 'result-ref', id, name: callNames.get(holder) ?? 'tool', callItemId: holder });
            return;
          }
          // A result before (or without) its call is shown where it is, and never claimed again.
          placed.set(key, null);
          out.push({ kind: 'tool', id, call: null, result: part, resultMessageId: message.id });
          return;
        }
      }
    });
    items.push(out);
  });
  return items;
}
