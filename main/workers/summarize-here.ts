// A scan's read of one file on the calling thread, as a read worker answers it: for a one-shot command with a few small files to read, where starting a worker (~300-400 ms) costs more than the parse.
import type { SummaryResponse } from './read-protocol.ts';

/** The file's summary (its index text too, unless `textLater`), or its failure, as read-pool.ts' summarize answers. */
export async function summarizeHere(path: string, textLater: boolean): Promise<SummaryResponse> {
  // Loaded only now: the readers' parsers, which a run that reads no file here never needs on this thread.
  const { readSessionFile } = await import('./read-file.ts');
  return (await readSessionFile({ id: 0, path, mode: 'summary', ...(textLater ? { textLater } : {}) })) as SummaryResponse;
}
