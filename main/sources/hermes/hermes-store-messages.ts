// The messages rows of one state.db session as canonical messages (JSON columns parsed, epoch times converted).
import type { Message } from '../../../shared/session.ts';
import { Fields, type WarningList } from '../coerce.ts';
import { hermesMessage, newTally, reportTally } from './hermes-messages.ts';
import type { Row } from './hermes-store.ts';
import { epochSecondsToIso } from './hermes-time.ts';

/** Columns that hold JSON text in the store and plain JSON values in a transcript. */
const JSON_COLUMNS = ['tool_calls', 'reasoning_details', 'codex_reasoning_items', 'codex_message_items'];

function parsedRow(row: Row, warnings: WarningList): Row {
  const out: Row = { ...row };
  for (const column of JSON_COLUMNS) {
    const text = row[column];
    if (typeof text !== 'string') continue;
    if (!text.trim()) {
      out[column] = null;
      continue;
    }
    try {
      out[column] = JSON.parse(text);
    } catch {
      // reasoning_details is sometimes plain text; tool_calls must be JSON
      if (column === 'tool_calls')
        warnings.add('invalid_json', `A messages row's "tool_calls" is not valid JSON; its tool calls were skipped (row ${String(row.id)}).`);
      out[column] = column === 'tool_calls' ? null : text;
    }
  }
  return out;
}

/** A JSON pointer token (RFC 6901). */
function token(text: string): string {
  return text.replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * `raw`: true when the session is the store's own (its raw view shows its rows, `/rows/messages/<id>`); false when
 * the rows only stand in for a transcript's messages (the store is not among that session's files).
 */
export function storeMessages(rows: Row[], raw: boolean, warnings: WarningList): Message[] {
  const tally = newTally(warnings);
  const messages: Message[] = [];
  for (const row of rows) {
    const f = new Fields(parsedRow(row, warnings), `messages[${String(row.id)}]`, warnings);
    const seconds = f.number('timestamp');
    const message = hermesMessage(
      {
        f,
        id: `msg-${String(row.id)}`,
        timestamp: epochSecondsToIso(seconds),
        origin: raw ? { fileIndex: 0, line: null, pointer: `/rows/messages/${token(String(row.id))}` } : null,
        where: `messages row ${String(row.id)}`,
      },
      tally,
    );
    if (message) messages.push(message);
  }
  reportTally(tally);
  return messages;
}
