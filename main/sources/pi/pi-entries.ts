// Splits a Pi-format session file (Pi, oh-my-pi, OpenClaw) into its header, its title slot and its tree entries.
import { Fields, isRecord, kindOfJson, type WarningList } from '../coerce.ts';
import type { JsonLine } from '../jsonl.ts';

/** One record of the session tree: every line after the header (messages, model changes, compactions, ...). */
export interface PiEntry {
  /** Position among the entries, in file order. */
  index: number;
  /** 1-based line in the file, for the raw record view. */
  line: number;
  type: string;
  /** The entry's own id; `line-<n>` for v1 files, which had none. */
  id: string;
  /** null for a root; v1 entries follow the entry before them. */
  parentId: string | null;
  timestamp: string | null;
  rec: Fields;
}

export interface PiHeader {
  line: number;
  id: string | null;
  version: number | null;
  timestamp: string | null;
  cwd: string | null;
  title: string | null;
  /** The session this one was forked from: a file path (`parentSession`, older `branchedFrom`) or an id (oh-my-pi). */
  forkedFrom: string | null;
  rec: Fields;
}

export interface PiFile {
  header: PiHeader | null;
  /** oh-my-pi's rewritable first line `{"type":"title",...}`, which always holds the current title. */
  titleSlot: string | null;
  entries: PiEntry[];
}

function readHeader(rec: Fields, line: number): PiHeader {
  return {
    line,
    id: rec.string('id'),
    version: rec.number('version'),
    timestamp: rec.timestamp('timestamp'),
    cwd: rec.string('cwd'),
    title: rec.string('title'),
    forkedFrom: rec.string('parentSession') ?? rec.string('branchedFrom'),
    rec,
  };
}

/** An entry's time: its ISO `timestamp`, else the epoch milliseconds its message carries. */
function entryTime(rec: Fields): string | null {
  if (rec.present('timestamp')) return rec.timestamp('timestamp');
  const message = isRecord(rec.raw.message) ? rec.raw.message : null;
  return isoFromMs(message?.timestamp);
}

/** ISO text of epoch milliseconds; null for anything else (or a number no date can hold). */
export function isoFromMs(ms: unknown): string | null {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return null;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** Reads every line: the header (the first `session` record), the title slot before it, then the tree's entries. */
export function splitPiFile(records: readonly JsonLine[], warnings: WarningList): PiFile {
  const file: PiFile = { header: null, titleSlot: null, entries: [] };
  let previousId: string | null = null;
  for (const { value, line } of records) {
    if (!isRecord(value)) {
      warnings.add('not_a_record', `Lines holding ${kindOfJson(value)} instead of a record object were skipped.`);
      continue;
    }
    const rec = new Fields(value, '', warnings);
    const type = rec.string('type');
    if (type === null) {
      warnings.add('missing_type', 'Records without a "type" were skipped.');
      continue;
    }
    if (type === 'title' && file.header === null && file.entries.length === 0) {
      file.titleSlot = rec.string('title');
      continue;
    }
    if (type === 'session') {
      if (file.header === null && file.entries.length === 0) file.header = readHeader(rec, line);
      else warnings.add('extra_header', `A second session header (line ${line}) was ignored.`);
      continue;
    }
    // Version 1 files had no ids: each entry follows the one before it.
    const id = rec.present('id') ? rec.string('id') : null;
    const ownId = id ?? `line-${line}`;
    const parentId = id === null ? previousId : rec.present('parentId') ? rec.string('parentId') : null;
    file.entries.push({ index: file.entries.length, line, type, id: ownId, parentId, timestamp: entryTime(rec), rec });
    previousId = ownId;
  }
  return file;
}
