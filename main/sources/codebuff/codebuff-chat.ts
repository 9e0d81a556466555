// Turns chat-messages.json (a list of {id, variant user|ai|agent|error, content, blocks, timestamp, credits?, metadata?}) into canonical messages.
import { pathToFileURL } from 'node:url';
import type { Message, MessagePart, TokenUsage } from '../../../shared/session.ts';
import { elementFields, emptyUsage, type Fields, type WarningList } from '../coerce.ts';
import { wellFormed } from '../claude-code/claude-code-blocks.ts';
import { convertBlocks, pushMessage, type BlockAcc, type BlockPlace } from './codebuff-blocks.ts';
import { CodebuffClock } from './codebuff-time.ts';

export interface ChatConversion {
  messages: Message[];
  unknownVariants: Map<string, number>;
  unknownBlocks: Map<string, number>;
  uiBlocks: number;
  /** Messages whose timestamp is neither an ISO time nor a clock time. */
  unreadableTimes: number;
  empty: number;
  /** Credits recorded on messages (1 credit = 1 US cent); null when none was. */
  credits: number | null;
}

function pick(f: Fields | null, names: string[]): number | null {
  for (const name of names) {
    const value = f?.present(name) ? f.number(name) : null;
    if (value !== null && Number.isSafeInteger(value) && value >= 0) return value;
  }
  return null;
}

/** `metadata.usage` or `metadata.codebuff.usage` in the camelCase or snake_case shapes ccusage reads. */
function messageUsage(metadata: Fields | null): TokenUsage | null {
  const usage = metadata?.present('usage') ? metadata.object('usage') : null;
  const nested = metadata?.present('codebuff') ? metadata.object('codebuff') : null;
  const f = usage ?? (nested?.present('usage') ? nested.object('usage') : null);
  if (!f) return null;
  const input = pick(f, ['inputTokens', 'input_tokens', 'promptTokens', 'prompt_tokens']);
  const output = pick(f, ['outputTokens', 'output_tokens', 'completionTokens', 'completion_tokens']);
  const cacheRead = pick(f, ['cacheReadInputTokens', 'cache_read_input_tokens']);
  const cacheWrite = pick(f, ['cacheCreationInputTokens', 'cache_creation_input_tokens']);
  if (input === null && output === null && cacheRead === null && cacheWrite === null) return null;
  const tokens = emptyUsage();
  tokens.input = input ?? 0;
  tokens.output = output ?? 0;
  tokens.cacheRead = cacheRead ?? 0;
  tokens.cacheWrite = cacheWrite ?? 0;
  return tokens;
}

/** A user message: its text, pasted images (blocks) and attached image files. */
function userParts(f: Fields, warnings: WarningList): MessagePart[] {
  const parts: MessagePart[] = [];
  const text = f.string('content');
  if (text && text.trim() !== '') parts.push({ type: 'text', text: wellFormed(text, warnings) });
  for (const raw of f.present('blocks') ? (f.array('blocks') ?? []) : []) {
    const block = elementFields(raw, f.name('blocks'), warnings);
    if (block?.string('type') === 'image') parts.push({ type: 'image', mediaType: block.string('mediaType'), data: block.string('image'), url: null });
  }
  for (const raw of f.present('attachments') ? (f.array('attachments') ?? []) : []) {
    const file = elementFields(raw, f.name('attachments'), warnings);
    const path = file?.string('path');
    if (path) parts.push({ type: 'image', mediaType: null, data: null, url: pathToFileURL(path).href });
  }
  return parts;
}

export function convertChat(list: unknown[], start: Date | null, warnings: WarningList): ChatConversion {
  const acc: BlockAcc = { warnings, messages: [], ids: new Set(), unknownBlocks: new Map(), uiBlocks: 0, agents: 0 };
  const out = { unknownVariants: new Map<string, number>(), unreadableTimes: 0, empty: 0, credits: null as number | null };
  const clock = new CodebuffClock(start);
  list.forEach((raw, i) => {
    const f = elementFields(raw, 'chat-messages.json', warnings);
    if (!f) return;
    const variant = f.string('variant') ?? f.string('role');
    const stamp = f.present('timestamp') ? f.string('timestamp') : null;
    const time = stamp !== null ? clock.resolve(stamp) : { iso: null, unreadable: false };
    if (time.unreadable) out.unreadableTimes++;
    const metadata = f.present('metadata') ? f.object('metadata') : null;
    const place: BlockPlace = {
      baseId: f.string('id') ?? `message-${i}`,
      pointer: `/${i}`,
      timestamp: time.iso,
      agentId: null,
      model: metadata?.present('model') ? metadata.string('model') : null,
    };
    const before = acc.messages.length;
    const content = f.string('content');
    switch (variant) {
      case 'user': {
        const parts = userParts(f, warnings);
        if (parts.length) pushMessage(acc, place, 'user', parts);
        break;
      }
      case 'ai':
      case 'assistant':
      case 'agent': {
        const agent = variant === 'agent' && f.present('agent') ? f.object('agent') : null;
        if (variant === 'agent') place.agentId = agent?.string('agentName') ?? agent?.string('agentType') ?? 'agent';
        const blocks = f.present('blocks') ? f.array('blocks') : null;
        if (blocks) convertBlocks(blocks, place, acc, `[${i}].blocks`);
        else if (content && content.trim() !== '') pushMessage(acc, place, 'assistant', [{ type: 'text', text: wellFormed(content, warnings) }]);
        break;
      }
      case 'error':
        if (content && content.trim() !== '')
          pushMessage(acc, place, 'system', [{ type: 'text', text: wellFormed(content, warnings) }], { annotations: { note: 'error' } });
        break;
      default: {
        const label = variant ?? 'without a variant';
        out.unknownVariants.set(label, (out.unknownVariants.get(label) ?? 0) + 1);
        return;
      }
    }
    const usage = messageUsage(metadata);
    const credits = f.present('credits') ? f.number('credits') : null;
    const made = acc.messages.slice(before);
    // Tokens and credits belong to the reply as a whole: they go on its last main-agent assistant message.
    const owner = made.filter((m) => m.role === 'assistant' && m.agentId === place.agentId).at(-1);
    if (made.length === 0) {
      out.empty++;
      if (usage || credits) warnings.add('missing_content', 'A Codebuff reply with tokens or credits but no content was left out; its usage is not counted.');
      return;
    }
    if (owner && usage) owner.usage = usage;
    if (owner && credits !== null && credits > 0) {
      owner.cost = { usd: credits / 100, estimated: false };
      out.credits = (out.credits ?? 0) + credits;
    }
  });
  return { messages: acc.messages, unknownBlocks: acc.unknownBlocks, uiBlocks: acc.uiBlocks, ...out };
}
