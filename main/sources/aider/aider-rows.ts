// One aider run's own lines as store rows (what its raw view shows and a kept copy or bundle carries instead of the whole history), and a run read back from them.
import { open } from 'node:fs/promises';
import { withReadOnlyStore } from '../sqlite-file.ts';
import { UnreadableError, type StoreRows } from '../types.ts';
import { HEADER, type AiderRun } from './aider-runs.ts';

/** The tables: the run's lines by line number (a message's origin points at `/rows/lines/<n>`), and one row of facts about the run. */
export const LINES = 'lines';
const RUN = 'run';

export interface RunFileFacts {
  index: number;
  runCount: number;
  isLast: boolean;
  /** The history file's mtime when the run was taken out of it (a run's end is only known as the file's last write). */
  writtenMs: number;
}

export function runRows(run: AiderRun, facts: RunFileFacts): StoreRows {
  const lines: StoreRows[string]['rows'] = { [String(run.headerLine)]: { line: run.headerLine, text: `${HEADER}${run.header}` } };
  for (const l of run.lines) lines[String(l.line)] = { line: l.line, text: l.text };
  return {
    [LINES]: { columns: ['line', 'text'], rows: lines },
    [RUN]: {
      columns: ['id', 'run_index', 'runs', 'last', 'written_ms'],
      rows: { '1': { id: 1, run_index: facts.index, runs: facts.runCount, last: facts.isLast ? 1 : 0, written_ms: facts.writtenMs } },
    },
  };
}

const SQLITE = Buffer.from('SQLite format 3\0');

/** True when the file is SQLite: a run's rows rebuilt into a private store, not a Markdown history. */
export async function isSqliteFile(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(SQLITE.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return bytesRead === head.length && head.equals(SQLITE);
  } finally {
    await handle.close();
  }
}

/** The run's text back from its rows, starting at its first line's number, with the facts the rows kept. */
export async function textFromRows(path: string): Promise<{ text: string; firstLine: number; facts: RunFileFacts | null }> {
  return withReadOnlyStore(path, (db) => {
    const rows = db.prepare(`SELECT line, text FROM ${LINES} ORDER BY line`).all() as Array<{ line: number; text: string }>;
    if (!rows.length) throw new UnreadableError('wrong_shape', 'The rows hold no line of an aider run.');
    const run = db.prepare(`SELECT run_index, runs, last, written_ms FROM ${RUN}`).get() as
      { run_index: number; runs: number; last: number; written_ms: number } | undefined;
    return {
      text: rows.map((r) => String(r.text)).join('\n'),
      firstLine: Number(rows[0]!.line),
      facts: run ? { index: Number(run.run_index), runCount: Number(run.runs), isLast: Number(run.last) === 1, writtenMs: Number(run.written_ms) } : null,
    };
  });
}
