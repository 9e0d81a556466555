// Turns a file system error (ENAMETOOLONG, EACCES, …) into a plain sentence, and keeps internal paths out of error messages.
import type { ErrorCode } from '../../shared/result.ts';

const SENTENCES: Record<string, string> = {
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'a folder was found where a file was expected',
  EACCES: 'permission denied',
  EPERM: 'the operation is not permitted',
  ENAMETOOLONG: 'a file or folder name is too long for the file system',
  ELOOP: 'too many symbolic links in the path',
  ENOSPC: 'no space left on the disk',
  EDQUOT: 'the disk quota is used up',
  EMFILE: 'too many files are open',
  ENFILE: 'too many files are open',
  EROFS: 'the file system is read-only',
  EEXIST: 'it already exists',
  ENOTEMPTY: 'the folder is not empty',
  EBUSY: 'the file or folder is busy',
  EIO: 'the disk reported an input/output error',
};

/** The errno code of a Node file system error (`ENAMETOOLONG`), or null for anything else. */
export function fsErrorCode(err: unknown): string | null {
  if (!(err instanceof Error)) return null;
  const { code, syscall } = err as NodeJS.ErrnoException;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) && typeof syscall === 'string' ? code : null;
}

/** What went wrong, in words; no errno code, no syscall and no path. Null when `err` is not a file system error. */
export function fsErrorSentence(err: unknown): string | null {
  const code = fsErrorCode(err);
  if (code === null) return null;
  return SENTENCES[code] ?? 'the file system refused the operation';
}

/** The contract's error code for a file system error: a name too long is the caller's input, a missing file not found. */
export function fsErrorAppCode(err: unknown): ErrorCode {
  const code = fsErrorCode(err);
  if (code === 'ENAMETOOLONG') return 'INVALID_INPUT';
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'NOT_FOUND';
  return 'IO_ERROR';
}

/** Absolute paths (POSIX or Windows) that start a word or follow a quote, as Node's messages quote them. */
const ABSOLUTE_PATH = /(^|[\s'"(=])(?:[A-Za-z]:)?[\\/][^\s'"]*/g;

/** A message for someone who is not on this machine's disk: absolute paths become "(a path)". */
export function withoutPaths(message: string): string {
  return message.replace(ABSOLUTE_PATH, '$1(a path)');
}

/**
 * A message for the person at the command line: a file system error as a sentence naming the path they gave
 * (theirs to see), anything else as its own message.
 */
export function describeError(err: unknown): string {
  const sentence = fsErrorSentence(err);
  if (sentence === null) return err instanceof Error ? err.message : String(err);
  const path = (err as NodeJS.ErrnoException).path;
  const text = sentence.charAt(0).toUpperCase() + sentence.slice(1);
  return path ? `${text}: ${path}` : `${text}.`;
}
