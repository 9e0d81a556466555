// The reason a reader gives for a file the disk would not hand over: the file system's error in words, without its errno code or path (the caller names the file).
import { fsErrorSentence } from '../fs/fs-error-text.ts';
import { UnreadableError } from './types.ts';

/** "Cannot read file: permission denied." Before, readers said "Cannot read file: EACCES EACCES: permission denied, open '…'". */
export function cannotRead(err: unknown): UnreadableError {
  const said = fsErrorSentence(err) ?? (err instanceof Error ? err.message : String(err));
  return new UnreadableError('io_error', `Cannot read file: ${said}.`);
}
