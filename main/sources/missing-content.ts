// The one warning every reader gives for a message record with nothing to show (no content, or content under a key the format does not use).
import type { MessagePart } from '../../shared/session.ts';
import type { WarningList } from './coerce.ts';

export const MISSING_CONTENT = 'missing_content';

export interface MissingContentDetail {
  /** What the record held instead, in words ("it held only \"body\""). */
  found?: string;
  /** Set when the message is kept, shown without text, for what it still carries ("its token counts"). */
  keptFor?: string;
  /** How many such records (a reader that counts them as it goes); one by default. */
  count?: number;
}

/**
 * Warns that `subject` (e.g. "A Codex user message") has no content: it is left out of the conversation (the raw
 * record stays in the file), or, with `keptFor`, shown without text because it carries something else. A record
 * is never turned silently into an empty message. Repeats merge into one warning with a count.
 */
export function warnMissingContent(warnings: WarningList, subject: string, detail: MissingContentDetail = {}): void {
  const found = detail.found ? ` (${detail.found})` : '';
  const outcome = detail.keptFor ? `it is shown without text, for ${detail.keptFor}` : 'it was left out (the raw record is in the file)';
  for (let i = 0; i < (detail.count ?? 1); i++) warnings.add(MISSING_CONTENT, `${subject} has no content${found}; ${outcome}.`);
}

/** "it held only "a", "b"" / "it held nothing else": the keys of a content-less object but `ignore`, for the warning. */
export function heldKeys(value: Record<string, unknown>, ignore: readonly string[] = ['role']): string {
  const keys = Object.keys(value).filter((k) => !ignore.includes(k));
  return keys.length ? `it held only ${keys.map((k) => `"${k}"`).join(', ')}` : 'it held nothing else';
}

/** True when these parts show nothing: none at all, or only text with no characters (an empty string is no content). */
export function showsNothing(parts: readonly MessagePart[]): boolean {
  return parts.every((p) => p.type === 'text' && p.text.trim() === '');
}
