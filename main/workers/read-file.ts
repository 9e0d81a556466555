// Reads one session file with the reader that claims it, turning every failure into an Unreadable reason.
import { toSummary } from '../../shared/summarize.ts';
import { findReader } from '../sources/registry.ts';
import { UnreadableError } from '../sources/types.ts';
import type { ReadMode, ReadResponse } from './read-protocol.ts';

export async function readSessionFile(id: number, path: string, mode: ReadMode = 'full'): Promise<ReadResponse> {
  const reader = findReader(path);
  if (!reader) {
    return { id, ok: false, format: null, unreadable: { code: 'wrong_shape', message: 'No reader recognises this file.' } };
  }
  try {
    const session = await reader.read(path);
    return mode === 'summary' ? { id, ok: true, summary: toSummary(session) } : { id, ok: true, session };
  } catch (err) {
    if (err instanceof UnreadableError) return { id, ok: false, format: reader.format, unreadable: err.toShape() };
    // A reader bug must not take the app down: the file is listed as unreadable with the error text.
    const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    return { id, ok: false, format: reader.format, unreadable: { code: 'wrong_shape', message: `Could not parse: ${message}` } };
  }
}
