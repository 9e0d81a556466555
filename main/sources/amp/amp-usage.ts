// Amp's token counts: per inference in messages[].usage (current threads) or per event in usageLedger.events (older ones).
import type { TokenUsage } from '../../../shared/session.ts';
import { elementFields, emptyUsage, type Fields, type WarningList } from '../coerce.ts';

/** One inference's tokens, with the model and time Amp recorded beside them. */
export interface AmpUsage {
  usage: TokenUsage;
  model: string | null;
  timestamp: string | null;
  /** Amp's own billing unit, kept as recorded (not dollars). */
  credits: number | null;
}

function count(f: Fields, ...names: string[]): number | null {
  for (const name of names) {
    const value = f.number(name);
    if (value === null) continue;
    if (!Number.isSafeInteger(value) || value < 0) {
      f.warnings.add('bad_value', `Field "${f.name(name)}" should be a whole number of tokens of at least 0 but is ${value}; it was skipped.`);
      continue;
    }
    return value;
  }
  return null;
}

/**
 * OpenAI-family threads report inputTokens as 0 and put the whole uncached prompt in cacheCreationInputTokens;
 * OpenAI bills no cache writes, so that bucket is plain input there (agentsview reads it the same way).
 */
function foldsCacheCreation(model: string | null): boolean {
  return model !== null && model.startsWith('gpt-');
}

/**
 * `messages[].usage`: {model, inputTokens, outputTokens, cacheCreationInputTokens, cacheReadInputTokens,
 * totalInputTokens?, timestamp}. inputTokens is the uncached part of the prompt (total = the three buckets).
 * A usage object with only `totalTokens` has no split this app can show: it is reported and left out.
 */
export function readMessageUsage(usage: Fields): AmpUsage | null {
  const model = usage.string('model');
  const input = count(usage, 'inputTokens');
  const output = count(usage, 'outputTokens');
  const cacheWrite = count(usage, 'cacheCreationInputTokens');
  const cacheRead = count(usage, 'cacheReadInputTokens');
  const timestamp = usage.present('timestamp') ? usage.timestamp('timestamp') : null;
  const credits = usage.number('credits');
  if (input === null && output === null && cacheWrite === null && cacheRead === null) {
    const total = count(usage, 'totalTokens');
    if (total !== null && total > 0) {
      usage.warnings.add('token_split_unknown', `An Amp inference records only a total of ${total} tokens, without input and output; it is not counted.`);
    }
    return null;
  }
  const tokens = emptyUsage();
  tokens.input = (input ?? 0) + (foldsCacheCreation(model) ? (cacheWrite ?? 0) : 0);
  tokens.cacheWrite = foldsCacheCreation(model) ? 0 : (cacheWrite ?? 0);
  tokens.output = output ?? 0;
  tokens.cacheRead = cacheRead ?? 0;
  return { usage: tokens, model, timestamp, credits };
}

/** One usageLedger event: {id, timestamp, model, tokens {input, output, total}, toMessageId?, credits?}. */
export interface LedgerEvent extends AmpUsage {
  /** messages[].messageId of the assistant message the inference produced, when recorded. */
  toMessageId: number | null;
}

/**
 * The ledger's events. They carry no cache split: ccusage takes cache tokens from the target message's own
 * usage (by `toMessageId`), and so does this reader.
 */
export function readLedger(events: unknown[], cacheByMessageId: ReadonlyMap<number, AmpUsage>, warnings: WarningList): LedgerEvent[] {
  const out: LedgerEvent[] = [];
  events.forEach((raw) => {
    const event = elementFields(raw, 'usageLedger.events', warnings);
    if (!event) return;
    const tokens = event.object('tokens');
    if (!tokens) return;
    const toMessageId = event.number('toMessageId');
    const cache = toMessageId !== null ? cacheByMessageId.get(toMessageId) : undefined;
    const input = count(tokens, 'input');
    const output = count(tokens, 'output');
    if (input === null && output === null) {
      const total = count(tokens, 'total');
      if (total !== null && total > 0) {
        warnings.add('token_split_unknown', `An Amp ledger event records only a total of ${total} tokens, without input and output; it is not counted.`);
      }
      return;
    }
    const usage = emptyUsage();
    usage.input = input ?? 0;
    usage.output = output ?? 0;
    usage.cacheRead = cache?.usage.cacheRead ?? 0;
    usage.cacheWrite = cache?.usage.cacheWrite ?? 0;
    out.push({
      usage,
      model: event.string('model') ?? cache?.model ?? null,
      timestamp: event.present('timestamp') ? event.timestamp('timestamp') : null,
      credits: event.number('credits'),
      toMessageId,
    });
  });
  return out;
}

/** The `usageLedger.events` list when the thread has one (then it is the token source), else null. */
export function ledgerEvents(doc: Fields): unknown[] | null {
  const ledger = doc.present('usageLedger') ? doc.object('usageLedger') : null;
  return ledger?.array('events') ?? null;
}
