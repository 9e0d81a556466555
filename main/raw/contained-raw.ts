// The raw view of a session inside a store: windows of its rows document (its session row, messages and parts as JSON), and one row behind a message.
import type { RawRecord, RawSource } from '../../shared/api.ts';
import { AppError } from '../../shared/result.ts';
import { isRecord } from '../sources/coerce.ts';
import { RAW_RECORD_LIMIT, resolvePointer } from './raw-record.ts';
import { completeUtf8Length } from './raw-source.ts';

/** A contained session's rows document: its bytes, and the name it goes by beside its store. */
export interface RowsText {
  path: string;
  bytes: Buffer;
}

function onlyFile(fileIndex: number): void {
  if (fileIndex !== 0)
    throw new AppError('NOT_FOUND', `Session has no source file number ${fileIndex}: a session inside a store has one, its rows.`, 'fileIndex');
}

/** A window of the rows document, as the raw view pages through a file. */
export function rowsWindow(doc: RowsText, fileIndex: number, offset: number, length: number): RawSource {
  onlyFile(fileIndex);
  const size = doc.bytes.length;
  const window = doc.bytes.subarray(Math.min(offset, size), Math.min(size, offset + length));
  const more = offset + window.length < size;
  const keep = more ? completeUtf8Length(window) : window.length;
  return { path: doc.path, size, offset, nextOffset: offset + keep, text: window.subarray(0, keep).toString('utf8'), truncated: more };
}

/** A JSON text cell (OpenCode's `data` columns) shown as the JSON it holds; any other value as it is. */
function readable(value: unknown): unknown {
  if (typeof value !== 'string' || !/^\s*[[{]/.test(value)) return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** The row a message's origin points at (`/rows/<table>/<id>`), its JSON text columns decoded, pretty-printed. */
export function rowsRecord(doc: RowsText, fileIndex: number, pointer: string | undefined): RawRecord {
  onlyFile(fileIndex);
  let parsed: unknown;
  try {
    parsed = JSON.parse(doc.bytes.toString('utf8'));
  } catch {
    throw new AppError('UNREADABLE', `${doc.path} is not a JSON document, so a pointer cannot be resolved in it.`);
  }
  const found = resolvePointer(parsed, pointer ?? '');
  const shown = isRecord(found) ? Object.fromEntries(Object.entries(found).map(([k, v]) => [k, readable(v)])) : found;
  const text = JSON.stringify(shown, null, 2);
  return text.length > RAW_RECORD_LIMIT
    ? { path: doc.path, text: text.slice(0, RAW_RECORD_LIMIT), truncated: true }
    : { path: doc.path, text, truncated: false };
}
