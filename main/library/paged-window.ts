// A window of a big session's messages read through its page table: only the pages the window covers are read and parsed.
import type { Session } from '../../shared/session.ts';
import { readRange, recordsOf } from './page-lines.ts';
import { pageParserFor } from './page-parsers.ts';
import type { Page, PageTable } from './page-table.ts';

/** The page holding message `index` (pages are in message order). */
function pageOf(table: PageTable, index: number): number {
  let lo = 0;
  let hi = table.pages.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((table.pages[mid] as Page)[2] <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The session as the full read gave it, with messages [offset, offset + limit); null when the pages no longer read
 * back as they did (the caller then reads the file whole). The table must have been checked against the file.
 */
export async function pagedWindow(table: PageTable, offset: number, limit: number): Promise<{ session: Session; messagesTotal: number } | null> {
  const { header, messagesTotal, pages, path } = table;
  const end = Math.min(messagesTotal, offset + limit);
  if (end <= offset) return { session: { ...header, messages: [] }, messagesTotal };
  const parser = pageParserFor(table.format, path);
  if (!parser) return null;
  const first = pageOf(table, offset);
  const last = pageOf(table, end - 1);
  const [startByte, firstLine, firstMessage, context] = pages[first] as Page;
  const after = pages[last + 1];
  const bytes = await readRange(path, startByte, after ? after[0] : table.file.size);
  let messages;
  try {
    messages = parser.parse(recordsOf(bytes, firstLine), path, firstLine, context);
  } catch {
    return null;
  }
  if (messages.length !== (after ? after[2] : messagesTotal) - firstMessage) return null;
  return { session: { ...header, messages: messages.slice(offset - firstMessage, end - firstMessage) }, messagesTotal };
}
