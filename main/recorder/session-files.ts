// Where a session lives (`<sessions dir>/<id>/session.json`) and loading one back, validated.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseJsonText } from '../sources/decode.ts';
import { schemaProblems, SessionDocument, SessionId } from './session-schema.ts';
import { StoreError } from './store-error.ts';

export const SESSION_FILE = 'session.json';
/** The checkpoint's temp file: readers skip it, the next checkpoint overwrites it. */
export const SESSION_TMP_FILE = 'session.json.tmp';

export interface SessionPaths {
  dir: string;
  file: string;
  tmp: string;
}

export function checkSessionId(id: string): string {
  if (!SessionId.safeParse(id).success) {
    throw new StoreError('invalid_input', `"${id}" is not a session id (a UUID version 7 such as 0195c2d4-7a10-7c3e-9f21-5b8e0d4a6c13).`, 'id');
  }
  return id;
}

export function sessionPaths(sessionsDir: string, id: string): SessionPaths {
  const dir = join(sessionsDir, checkSessionId(id));
  return { dir, file: join(dir, SESSION_FILE), tmp: join(dir, SESSION_TMP_FILE) };
}

/** Parses and validates session.json bytes; the message lists the first problems with their paths. */
export function parseSessionBytes(bytes: Buffer | string, where: string): SessionDocument {
  let value: unknown;
  try {
    value = parseJsonText(typeof bytes === 'string' ? bytes : bytes.toString('utf8'));
  } catch (err) {
    throw new StoreError('invalid_session', `${where}: ${(err as Error).message}`);
  }
  const parsed = SessionDocument.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = schemaProblems(value);
  const shown = problems
    .slice(0, 5)
    .map((p) => `${p.path} ${p.message}`)
    .join('; ');
  throw new StoreError(
    'invalid_session',
    `${where} does not match the session schema: ${shown}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}.`,
  );
}

/** `load(id)`: the session as last checkpointed, or a clear error when it is missing or invalid. */
export async function loadSession(sessionsDir: string, id: string): Promise<SessionDocument> {
  const paths = sessionPaths(sessionsDir, id);
  let bytes: Buffer;
  try {
    bytes = await readFile(paths.file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    const folder = await stat(paths.dir).catch(() => null);
    const why = folder ? `its folder ${paths.dir} has no ${SESSION_FILE} (the writer stopped before its first checkpoint)` : `there is no ${paths.dir}`;
    throw new StoreError('session_not_found', `No session ${id} in ${sessionsDir}: ${why}.`);
  }
  return parseSessionBytes(bytes, paths.file);
}
