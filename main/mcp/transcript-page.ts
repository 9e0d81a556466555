// A transcript in pages bounded by characters: whole messages while they fit, a message longer than a page cut across pages.
import type { Message } from '../../shared/session.ts';
import { messageText } from './transcript-text.ts';

/** Where a page starts: a message, and a character offset into its text when a long message goes on from the page before. */
export interface TranscriptCursor {
  fromMessage: number;
  fromChar: number;
}

export interface TranscriptPage {
  text: string;
  /** The messages the page holds, wholly or in part (`from` inclusive, `through` inclusive); null through when it holds none. */
  fromMessage: number;
  throughMessage: number | null;
  /** Where the next page starts; null after the last message. */
  next: TranscriptCursor | null;
}

/** The session's messages, fetched a window at a time (the services answer windows of a parsed session). */
export interface MessageSource {
  total: number;
  read(offset: number, limit: number): Promise<Message[]>;
}

/** Messages fetched per window while a page fills. */
const WINDOW = 100;
/** Below this many characters left, a page ends rather than starting a long message it would only cut. */
const MIN_PIECE = 200;

/** Where to cut `text` to at most `limit` characters: after a line break or space in the last half if any, never inside a surrogate pair. */
export function cutPoint(text: string, limit: number): number {
  if (text.length <= limit) return text.length;
  let cut = limit;
  const soft = Math.max(text.lastIndexOf('\n', limit - 1), text.lastIndexOf(' ', limit - 1)) + 1;
  if (soft > limit / 2) cut = soft;
  const code = text.charCodeAt(cut - 1);
  if (cut > 1 && code >= 0xd800 && code <= 0xdbff) cut--;
  return cut;
}

/**
 * One page of at most `maxChars` characters (the header counted in, on the first page only). A message that fits
 * a page is never split; one that does not is cut and goes on at `next.fromChar` on the following page.
 */
export async function transcriptPage(source: MessageSource, cursor: TranscriptCursor, maxChars: number, header = ''): Promise<TranscriptPage> {
  const first = cursor.fromMessage === 0 && cursor.fromChar === 0;
  let text = first && header ? `${header.slice(0, cutPoint(header, Math.floor(maxChars / 2)))}\n\n` : '';
  let index = cursor.fromMessage;
  let offset = cursor.fromChar;
  let through: number | null = null;
  let window: Message[] = [];
  let windowStart = index;
  const message = async (i: number): Promise<Message | undefined> => {
    if (i < windowStart || i >= windowStart + window.length) {
      windowStart = i;
      window = await source.read(i, WINDOW);
    }
    return window[i - windowStart];
  };
  while (index < source.total) {
    const m = await message(index);
    if (!m) break;
    const full = messageText(m, index);
    if (offset >= full.length) {
      index++;
      offset = 0;
      continue;
    }
    const marker = offset > 0 ? `(#${index} continued from character ${offset})\n` : '';
    const rest = marker + full.slice(offset);
    const room = maxChars - text.length;
    if (rest.length <= room) {
      text += rest;
      through = index;
      index++;
      offset = 0;
      continue;
    }
    // It does not fit: a message that would fit a page of its own starts the next page; a longer one is cut here.
    const fitsAlone = offset === 0 && full.length <= maxChars;
    if (text.length > 0 && (fitsAlone || room < Math.min(MIN_PIECE, maxChars / 4))) break;
    const cut = cutPoint(full.slice(offset), room - marker.length);
    if (cut <= 0) break;
    text += marker + full.slice(offset, offset + cut);
    through = index;
    offset += cut;
    break;
  }
  return { text, fromMessage: cursor.fromMessage, throughMessage: through, next: index < source.total ? { fromMessage: index, fromChar: offset } : null };
}
