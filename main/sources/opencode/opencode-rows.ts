// What both OpenCode layouts (the SQLite store and the legacy storage/ JSON tree) give for one session, before it becomes the canonical model.
import type { Origin, SourceFile } from '../../../shared/session.ts';
import { isRecord, type WarningList } from '../coerce.ts';

/** The session's own facts, from its `session` row or its storage JSON (field names differ, meaning does not). */
export interface OcSessionInfo {
  id: string;
  title: string | null;
  parentId: string | null;
  projectId: string | null;
  directory: string | null;
  slug: string | null;
  version: string | null;
  createdMs: number | null;
  updatedMs: number | null;
  archivedMs: number | null;
  compactingMs: number | null;
  agent: string | null;
  /** The session's model (later schemas: a JSON column `{id, providerID}`). */
  model: Record<string, unknown> | null;
  shareUrl: string | null;
  summary: Record<string, unknown> | null;
  origin: Origin;
}

/** A part: its JSON `data` (null when it was not JSON), its ids and times. */
export interface OcPart {
  id: string;
  messageId: string | null;
  createdMs: number | null;
  data: Record<string, unknown> | null;
}

/** A message: as a part, and where it was read (a session's messages keep it; a part's is never shown, so none is made). */
export interface OcRecord extends OcPart {
  origin: Origin;
}

export interface OcRows {
  /** Null for a usage-only store (a `message` table and nothing else): the session is known by its messages' session id. */
  session: OcSessionInfo | null;
  id: string;
  /** The project's worktree, where the session's own directory is not recorded. */
  worktree: string | null;
  /** In the order the tool wrote them. */
  messages: OcRecord[];
  /** Every part of the session, each message's in order. */
  parts: OcPart[];
  /** Sessions whose parent is this one (the store knows them; the storage tree only through task tool parts). */
  childIds: string[];
  sourceFiles: SourceFile[];
  warnings: WarningList;
}

/** A JSON pointer token (RFC 6901): `~` and `/` escaped. */
export function pointerToken(text: string): string {
  // Most ids hold neither character: checking first spares two searches that build nothing.
  if (!text.includes('~') && !text.includes('/')) return text;
  return text.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** A `data` column's JSON text as an object; null with a warning when it is not a JSON object. */
export function parseData(text: unknown, what: string, warnings: WarningList): Record<string, unknown> | null {
  if (isRecord(text)) return text;
  if (typeof text !== 'string') {
    warnings.add('missing_field', `${what} has no data; it was left out.`);
    return null;
  }
  try {
    const value: unknown = JSON.parse(text);
    if (isRecord(value)) return value;
    warnings.add('wrong_shape', `${what} holds JSON that is not an object; it was left out.`);
  } catch {
    warnings.add('invalid_json', `${what} holds data that is not valid JSON; it was left out.`);
  }
  return null;
}

/** A value that should be epoch milliseconds (a number, or digits in text), else null. */
export function epochMs(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  if (typeof value === 'string' && /^\d{10,16}$/.test(value)) return Number(value);
  return null;
}

/** Text that says something: a non-empty string, else null. */
export function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** An object column that may arrive as JSON text (`session.model`). */
export function objectOf(value: unknown): Record<string, unknown> | null {
  if (isRecord(value)) return value;
  if (typeof value !== 'string' || !value.trim().startsWith('{')) return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return isRecord(parsed) ? parsed : null;
  } catch {
    return null;
  }
}
