// Finds where a query matched in a session's stored text: the best message, and a snippet with the hits marked.
import type { Term } from './query-parser.ts';
import { MESSAGE_SEPARATOR } from './index-text.ts';

/** Plain text pieces; `hit` pieces are the matches. The UI renders them as text, so nothing is ever HTML. */
export interface SnippetPart {
  text: string;
  hit: boolean;
}

export interface MatchLocation {
  /** Index into the session's messages of the message with the most matches, or null when only the title or metadata matched. */
  messageIndex: number | null;
  snippet: SnippetPart[];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One regular expression that finds any positive term; phrases allow any punctuation between their words. */
export function termPattern(terms: Term[]): RegExp | null {
  const alternatives = terms
    .filter((t) => !t.negated)
    .map((t) => {
      if (t.kind !== 'phrase') return escape(t.text);
      const words = t.text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
      return words.map(escape).join('[^\\p{L}\\p{N}]+');
    })
    .filter(Boolean)
    .sort((a, b) => b.length - a.length);
  return alternatives.length ? new RegExp(alternatives.join('|'), 'giu') : null;
}

const MAX_HITS = 500;

function window(text: string, start: number, end: number, pattern: RegExp, radius: number): SnippetPart[] {
  // Stay inside the matched message.
  const segmentStart = text.lastIndexOf(MESSAGE_SEPARATOR, start - 1) + 1;
  const nextSeparator = text.indexOf(MESSAGE_SEPARATOR, end);
  const segmentEnd = nextSeparator === -1 ? text.length : nextSeparator;
  let from = Math.max(segmentStart, start - radius);
  let to = Math.min(segmentEnd, end + radius * 2);
  // Whole words at the edges.
  while (from > segmentStart && from > start - radius - 20 && /\S/.test(text[from - 1] ?? '')) from--;
  while (to < segmentEnd && to < end + radius * 2 + 20 && /\S/.test(text[to] ?? '')) to++;
  const slice = text.slice(from, to).replaceAll(MESSAGE_SEPARATOR, ' ');
  const parts: SnippetPart[] = [];
  if (from > segmentStart) parts.push({ text: '…', hit: false });
  let last = 0;
  for (const m of slice.matchAll(new RegExp(pattern.source, 'giu'))) {
    if (!m[0]) continue;
    if (m.index > last) parts.push({ text: slice.slice(last, m.index), hit: false });
    parts.push({ text: m[0], hit: true });
    last = m.index + m[0].length;
  }
  if (last < slice.length) parts.push({ text: slice.slice(last), hit: false });
  if (to < segmentEnd) parts.push({ text: '…', hit: false });
  return parts.map((p) => (p.hit ? p : { ...p, text: p.text.replace(/\s+/g, ' ') }));
}

interface BodyScan {
  best: { index: number; start: number; end: number } | null;
  /** The scan stopped at a message holding every term (or at MAX_HITS): text past that point cannot change the answer. */
  stopped: boolean;
}

/** Scores each message by distinct terms matched, then by hits; message 0 is the one the text starts in. */
function scanBody(body: string, pattern: RegExp, wanted: number): BodyScan {
  const perMessage = new Map<number, { distinct: Set<string>; hits: number; first: { start: number; end: number } }>();
  let message = 0;
  let scanned = 0;
  let count = 0;
  let stopped = false;
  for (const m of body.matchAll(pattern)) {
    if (!m[0]) continue;
    for (let i = body.indexOf(MESSAGE_SEPARATOR, scanned); i !== -1 && i < m.index; i = body.indexOf(MESSAGE_SEPARATOR, i + 1)) {
      message++;
      scanned = i + 1;
    }
    if (scanned < m.index) scanned = m.index;
    const entry = perMessage.get(message) ?? { distinct: new Set<string>(), hits: 0, first: { start: m.index, end: m.index + m[0].length } };
    entry.distinct.add(m[0].toLowerCase());
    entry.hits++;
    perMessage.set(message, entry);
    // A message holding every term cannot be beaten on distinct terms: stop there instead of scanning megabytes.
    if (entry.distinct.size >= wanted || ++count >= MAX_HITS) {
      stopped = true;
      break;
    }
  }
  let best: { index: number; distinct: number; hits: number; start: number; end: number } | null = null;
  for (const [index, e] of perMessage) {
    if (!best || e.distinct.size > best.distinct || (e.distinct.size === best.distinct && e.hits > best.hits)) {
      best = { index, distinct: e.distinct.size, hits: e.hits, ...e.first };
    }
  }
  return { best, stopped };
}

const positiveCount = (terms: Term[]) => terms.filter((t) => !t.negated).length;

/** Looks in the body first (to name a message), then the title and metadata. */
export function locateMatch(fields: { title: string; body: string; meta: string }, terms: Term[], radius = 60): MatchLocation {
  const pattern = termPattern(terms);
  if (!pattern) return { messageIndex: null, snippet: [{ text: fields.title, hit: false }] };
  const { best } = scanBody(fields.body, pattern, positiveCount(terms));
  if (best) return { messageIndex: best.index, snippet: window(fields.body, best.start, best.end, pattern, radius) };
  for (const text of [fields.title, fields.meta]) {
    pattern.lastIndex = 0;
    const m = pattern.exec(text);
    if (m) return { messageIndex: null, snippet: window(text, m.index, m.index + m[0].length, pattern, radius) };
  }
  return { messageIndex: null, snippet: [{ text: fields.title, hit: false }] };
}

/** A stretch of a body: its text, the index of the message it starts in, and whether it starts and ends the body. */
export interface BodyPart {
  text: string;
  firstMessage: number;
  atStart: boolean;
  atEnd: boolean;
}

/**
 * The best message of this part alone (most distinct terms, then most hits), whether or not the rest of the body
 * could beat it; null when the part has no match.
 */
export function bestInPart(part: BodyPart, terms: Term[], radius = 60): MatchLocation | null {
  const pattern = termPattern(terms);
  if (!pattern) return null;
  const { best } = scanBody(part.text, pattern, positiveCount(terms));
  return best ? { messageIndex: part.firstMessage + best.index, snippet: window(part.text, best.start, best.end, pattern, radius) } : null;
}

/**
 * The match locateMatch would find in the whole body, when this part alone settles it: the scan stopped at a
 * message holding every term, with the snippet's room on both sides inside the part. Null when more of the body
 * is needed (or the part has no match at all).
 */
export function settledInPart(part: BodyPart, terms: Term[], radius = 60): MatchLocation | null {
  const pattern = termPattern(terms);
  if (!pattern) return null;
  const { best, stopped } = scanBody(part.text, pattern, positiveCount(terms));
  if (!best || !stopped) return null;
  // window() stays inside the message and looks up to radius + 20 characters back and 2 * radius + 20 ahead
  // (whole words at the edges): the part must hold the message's edge or all of that room, each side.
  const text = part.text;
  const roomBefore = part.atStart || text.lastIndexOf(MESSAGE_SEPARATOR, best.start - 1) !== -1 || best.start - radius - 21 > 0;
  const roomAfter = part.atEnd || text.indexOf(MESSAGE_SEPARATOR, best.end) !== -1 || best.end + radius * 2 + 21 < text.length;
  if (!roomBefore || !roomAfter) return null;
  // A part starting inside a message: its text before the first separator is that message's tail.
  return { messageIndex: part.firstMessage + best.index, snippet: window(text, best.start, best.end, pattern, radius) };
}
