// Builds a big session's page table from its full read: cuts the file into pages of messages and keeps only cuts a page's own parse agrees with.
import { isDeepStrictEqual } from 'node:util';
import type { Message, Session } from '../../shared/session.ts';
import { lineStarts, readRange, recordsOf } from './page-lines.ts';
import { pageParserFor, type PageParser } from './page-parsers.ts';
import { fileIdentity, sameIdentity, type Page, type PageTable } from './page-table.ts';

export interface BuildOptions {
  /** Messages a page holds at least (a window of 1,000 reads a few pages). */
  pageMessages?: number;
}

const PAGE_MESSAGES = 200;
/** A page that must grow past this many times its size to agree with the full read: the file is read whole instead. */
const MAX_GROWTH = 16;

/** Message `i` begins on a line of its own, after the previous message's: a page may start there. */
function startsOwnLine(messages: readonly Message[], i: number): boolean {
  const line = messages[i]?.origin?.line;
  const before = messages[i - 1]?.origin?.line;
  return typeof line === 'number' && typeof before === 'number' && line > before;
}

/**
 * The next cut after message `from`: a prompt (a new turn, which nothing before it is merged into) once the
 * page holds `size` messages, any message starting its own line at twice that, else the end.
 */
function nextCut(messages: readonly Message[], from: number, size: number): number {
  for (let i = from + size; i < messages.length; i++) {
    if (!startsOwnLine(messages, i)) continue;
    if (messages[i]?.role === 'user' || i - from >= 2 * size) return i;
  }
  return messages.length;
}

/** The record on a marked line, or null (none, or it does not parse). */
async function markedRecord(path: string, range: [number, number] | null | undefined): Promise<unknown> {
  if (!range) return null;
  return recordsOf(await readRange(path, range[0], range[1]), 2)[0]?.value ?? null;
}

/** Every message points at a line of the primary file, in file order. */
function linesInOrder(messages: readonly Message[]): boolean {
  let last = 0;
  for (const m of messages) {
    const o = m.origin;
    if (!o || o.fileIndex !== 0 || o.line === null || o.line < last) return false;
    last = o.line;
  }
  return true;
}

function parsedAlike(parser: PageParser, bytes: Buffer, page: Page, path: string, expected: readonly Message[]): boolean {
  let messages: Message[];
  try {
    messages = parser.parse(recordsOf(bytes, page[1]), path, page[1], page[3]);
  } catch {
    return false;
  }
  return messages.length === expected.length && isDeepStrictEqual(messages, expected);
}

/**
 * The page table for a session just read whole from `path`, or null when its format is not paged, the file changed
 * since the read, or no cut into pages reads back the same messages. Each page is parsed on its own and compared
 * with the full read's messages; a page that differs (a reply split across the cut, an id seen earlier) takes in
 * the next one until it agrees. What a window later reads from a page is therefore what the full read gave.
 */
export async function buildPageTable(session: Session, path: string, options: BuildOptions = {}): Promise<PageTable | null> {
  const parser = pageParserFor(session.format, path);
  const primary = session.sourceFiles[0];
  if (!parser || !primary || primary.path !== path) return null;
  const file = await fileIdentity(path);
  if (file.size !== primary.size || file.mtimeMs !== primary.mtimeMs) return null;
  const { messages } = session;
  if (!messages.length || !linesInOrder(messages)) return null;
  const size = Math.max(1, options.pageMessages ?? PAGE_MESSAGES);

  // Candidate cuts by message index; their first lines' byte offsets in one pass over the file.
  const cuts = [0];
  for (let i = nextCut(messages, 0, size); i < messages.length; i = nextCut(messages, i, size)) cuts.push(i);
  const lineOf = (i: number) => (i === 0 ? 1 : (messages[i]?.origin?.line as number));
  const lines = await lineStarts(path, cuts.map(lineOf), parser.marker);
  const byteOf = new Map(cuts.map((c, k) => [c, lines.starts[k] as number]));

  const pages: Page[] = [];
  let k = 0;
  while (k < cuts.length) {
    const first = cuts[k] as number;
    const page: Page = [byteOf.get(first) as number, lineOf(first), first, parser.contextAt(messages, first, await markedRecord(path, lines.marked[k]))];
    let j = k + 1;
    for (;;) {
      const end = j < cuts.length ? (cuts[j] as number) : messages.length;
      const endByte = j < cuts.length ? (byteOf.get(end) as number) : file.size;
      const bytes = await readRange(path, page[0], endByte);
      if (parsedAlike(parser, bytes, page, path, messages.slice(first, end))) break;
      if (j >= cuts.length || end - first > MAX_GROWTH * size) return null;
      j++;
    }
    pages.push(page);
    k = j;
  }
  // The file must not have changed while it was cut up.
  if (!sameIdentity(await fileIdentity(path), file)) return null;
  return { version: 1, path, format: session.format, file, header: { ...session, messages: [] }, messagesTotal: messages.length, pages };
}
