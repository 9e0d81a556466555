// Where things go inside a bundle, and the rules an entry name must pass before anything is extracted.
import { posix } from 'node:path';
import { portableNameRefusal, type NameRefusal } from './portable-names.ts';

export const MANIFEST_PATH = 'manifest.json';
export const SESSIONS_DIR = 'sessions';

/** `sessions/<folder>/`: the folder is the vault's own folder name for the key (safe on every platform). */
export function sessionPrefix(folder: string): string {
  return `${SESSIONS_DIR}/${folder}/`;
}

/** A source file keeps its whole original path below `source/`, as a kept copy in the vault does. */
export function sourceEntryPath(folder: string, originalPath: string): string {
  const parts = originalPath
    .split(/[\\/]+/)
    .filter(Boolean)
    .map((p) => p.replace(/:$/, ''));
  return `${sessionPrefix(folder)}source/${parts.join('/')}`;
}

export function sessionJsonPath(folder: string): string {
  return `${sessionPrefix(folder)}session.json`;
}

/** A folder name a bundle may use: the characters `safeName` produces, nothing that walks. */
export function isSafeFolder(name: string): boolean {
  return /^[A-Za-z0-9._-]{1,200}$/.test(name) && name !== '.' && name !== '..';
}

/**
 * Why an entry name is refused, and under which rule, or null. Names must be relative, normalized, forward-slashed
 * paths (no `..`, `.` or empty segment, no leading `/`, no drive letter, no backslash, no control character:
 * `unsafe-path`) that every platform can create (`portableNameRefusal`: Windows names, depth, length).
 */
export function entryNameRefusal(name: string): NameRefusal | null {
  const unsafe = (problem: string): NameRefusal => ({ rule: 'unsafe-path', problem });
  if (name.length === 0) return unsafe('an empty name');
  if (name.includes('\\')) return unsafe('a backslash in the path (zip paths use "/"; "\\" can walk out on Windows)');
  if (name.startsWith('/')) return unsafe('an absolute path');
  if (/^[A-Za-z]:/.test(name)) return unsafe('a drive-letter path');
  if (/\p{Cc}/u.test(name)) return unsafe('a control character in the path');
  const segments = (name.endsWith('/') ? name.slice(0, -1) : name).split('/');
  if (segments.includes('..')) return unsafe('a ".." segment (zip slip)');
  if (segments.some((s) => s === '' || s === '.')) return unsafe('a path that is not normalized (empty or "." segment)');
  if (posix.normalize(name) !== name) return unsafe('a path that is not normalized');
  return portableNameRefusal(name);
}

/** Why an entry name is refused, or null (the export's check: the same rules as import). */
export function entryNameProblem(name: string): string | null {
  return entryNameRefusal(name)?.problem ?? null;
}

/** The name two entries collide under on a case-insensitive or normalizing file system (macOS, Windows). */
export function foldedName(name: string): string {
  return name.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}
