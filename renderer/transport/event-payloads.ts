// Every pushed event's name and a zod-free check of its payload, complete against the contract's events (the HTTP transport drops what fails).
import type { EventName, EventPayload, Root, UnreadableReason } from '../../shared/api.ts';
import type { IndexProgress } from '../../shared/search-api.ts';
import type { SourceFormat } from '../../shared/session.ts';
import { isSourceFormat } from '../../shared/source-formats.ts';
import { isAmount, isCount, isObject, isString, isStringArray, oneOf } from './wire-checks.ts';

type Check<E extends EventName> = (data: unknown) => EventPayload<E> | null;

const isKind = oneOf<Root['kind']>({ default: true, user: true, demo: true });
const isFormat = (v: unknown): v is SourceFormat => isSourceFormat(v);
const isIndexPhase = oneOf<IndexProgress['phase']>({ scanning: true, idle: true });
const isBundlePhase = oneOf<EventPayload<'bundleProgress'>['phase']>({ scan: true, write: true });

const isUnreadableCode = oneOf<UnreadableReason['code']>({
  io_error: true,
  empty_file: true,
  invalid_json: true,
  invalid_encoding: true,
  wrong_shape: true,
  unsupported_version: true,
  too_large: true,
});

function unreadableReason(v: unknown): UnreadableReason | null {
  if (!isObject(v) || !isUnreadableCode(v.code) || !isCount(v.count) || v.count < 1 || !isString(v.example) || !isString(v.file) || !isString(v.key))
    return null;
  return { code: v.code, count: v.count, example: v.example, file: v.file, key: v.key };
}

function root(v: unknown): Root | null {
  if (!isObject(v) || !isString(v.id) || !isString(v.path) || !isKind(v.kind) || typeof v.exists !== 'boolean') return null;
  if (!(v.format === null || isFormat(v.format)) || !(v.error === null || isString(v.error))) return null;
  if (!isCount(v.sessionCount) || !isCount(v.unreadableCount) || !Array.isArray(v.unreadableReasons)) return null;
  const unreadableReasons = v.unreadableReasons.map(unreadableReason);
  if (!unreadableReasons.every((r) => r !== null)) return null;
  const { id, path, kind, format, exists, sessionCount, unreadableCount, error } = v;
  return { id, path, kind, format, exists, sessionCount, unreadableCount, unreadableReasons: unreadableReasons as UnreadableReason[], error };
}

const checks: { [E in EventName]: Check<E> } = {
  sessionsChanged: (v) => (isObject(v) && isStringArray(v.changed) && isStringArray(v.removed) ? { changed: v.changed, removed: v.removed } : null),
  rootsChanged: (v) => {
    if (!isObject(v) || !Array.isArray(v.roots)) return null;
    const roots = v.roots.map(root);
    return roots.every((r) => r !== null) ? { roots: roots as Root[] } : null;
  },
  bundleProgress: (v) => {
    if (!isObject(v) || !isString(v.exportId) || !(v.phase === undefined || isBundlePhase(v.phase))) return null;
    const { exportId, sessionsDone, sessionsTotal, bytesDone, bytesTotal } = v;
    if (!isCount(sessionsDone) || !isCount(sessionsTotal) || !isAmount(bytesDone) || !isAmount(bytesTotal)) return null;
    // The contract's default: a progress event without a phase is the export's own.
    return { exportId, phase: v.phase ?? 'write', sessionsDone, sessionsTotal, bytesDone, bytesTotal };
  },
  bundleOpened: (v) => (isObject(v) ? {} : null),
  sessionFileOpened: (v) => (isObject(v) ? {} : null),
  indexProgress: (v) => {
    if (!isObject(v) || !isIndexPhase(v.phase) || !(v.etaMs === null || isAmount(v.etaMs))) return null;
    const { phase, filesDone, filesTotal, bytesDone, bytesTotal, etaMs, searchPending, substringPending } = v;
    if (!isCount(filesDone) || !isCount(filesTotal) || !isAmount(bytesDone) || !isAmount(bytesTotal)) return null;
    if ((searchPending !== undefined && !isCount(searchPending)) || (substringPending !== undefined && !isCount(substringPending))) return null;
    return {
      phase,
      filesDone,
      filesTotal,
      bytesDone,
      bytesTotal,
      etaMs,
      ...(searchPending !== undefined ? { searchPending } : {}),
      ...(substringPending !== undefined ? { substringPending } : {}),
    };
  },
};

export const EVENT_NAMES = Object.keys(checks) as EventName[];

/** The payload as the contract describes it (unknown keys dropped), or null when it does not match. */
export function eventPayload<E extends EventName>(name: E, data: unknown): EventPayload<E> | null {
  return (checks[name] as Check<E>)(data);
}
