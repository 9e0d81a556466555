// A session's title cut from its first prompt can end in part of a key no rule recognises; the key is found in the whole line and its part in the title redacted.
import type { Session } from '../../shared/session.ts';
import type { Redactor } from '../recorder/redact.ts';
import { findSpansInViews } from './escape-view.ts';
import { markerLabel } from './finding.ts';

/** Every string in a format's own facts (`extra`), where a reader may take a title from (ai-agent v3: the agent id). */
function* stringsIn(value: unknown, depth = 0): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (depth < 4 && value && typeof value === 'object') for (const v of Object.values(value)) yield* stringsIn(v, depth + 1);
}

/** The texts a title can be cut from: the messages' text parts first, then the format's own facts. */
function* titleSources(session: Session): Generator<string> {
  for (const message of session.messages) for (const part of message.parts) if (part.type === 'text') yield part.text;
  yield* stringsIn(session.extra);
}

/** The line the title was cut from: the first text line that holds the title (its `…` dropped). */
function sourceLine(session: Session, head: string): string | null {
  for (const text of titleSources(session)) {
    // From where the title starts in it: a reader may drop a wrapper first (Vizier's `<instruction>`).
    for (const line of text.split(/\r?\n/)) if (line.includes(head)) return line.slice(line.indexOf(head));
  }
  return null;
}

/**
 * The session with every secret in its title redacted, the secrets found in the full line it was taken from (so
 * a key the 80-character cut left half of is still known) and in the title itself. The same session when there is none.
 */
export async function redactTitle(session: Session, redactor: Redactor, literals: ReadonlyMap<string, string> = new Map()): Promise<Session> {
  const title = session.title;
  if (!title) return session;
  const head = title.endsWith('…') ? title.slice(0, -1) : title;
  const line = (head.length >= 8 ? sourceLine(session, head) : null) ?? head;
  const spans = [
    ...(await findSpansInViews(redactor, line, literals, 'text')),
    ...(line === head ? [] : await findSpansInViews(redactor, head, literals, 'text')),
  ]
    .map((s) => ({ start: s.start, end: Math.min(s.end, head.length), rule: s.rule }))
    .filter((s) => s.start < head.length && s.end > s.start)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  if (spans.length === 0) return session;
  let out = '';
  let at = 0;
  for (const s of spans) {
    if (s.end <= at) continue;
    out += `${head.slice(at, Math.max(s.start, at))}[REDACTED:${markerLabel(s.rule)}]`;
    at = s.end;
  }
  return { ...session, title: `${out}${head.slice(at)}${head === title ? '' : '…'}` };
}
