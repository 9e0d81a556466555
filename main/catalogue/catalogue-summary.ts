// The list row of a catalogue entry: a read result's summary, or an unreadable file's row with the reason and an id from its path.
import { createHash } from 'node:crypto';
import { basename, dirname, extname } from 'node:path';
import type { SessionSummary, SourceFormat, Unreadable } from '../../shared/session.ts';
import type { SummaryResponse } from '../workers/read-protocol.ts';
import { containedRef, storeOf } from './contained-sessions.ts';

export function pathHash(path: string): string {
  return createHash('sha256').update(path).digest('hex').slice(0, 8);
}

/** The id an unreadable file gets: its name, or its folder's for `session.json`-style layouts; a contained session's own id. */
function idFromPath(path: string): string {
  const contained = path.includes('#') ? containedRef(path) : null;
  if (contained) return contained.id;
  // A compressed Codex rollout (`X.jsonl.zst`) is named as its plain file would be.
  const name = basename(path).replace(/\.zst$/, '');
  const stem = name.slice(0, name.length - extname(name).length) || name;
  // Folder layouts give every session's file the same name (Vizier's session.json, Vibe's messages.jsonl, Grok's
  // summary.json, Copilot's events.jsonl…): the folder is what names the session, even when its file cannot be read.
  if (FOLDER_LAYOUT_NAMES.has(stem)) return basename(dirname(path));
  return stem;
}

const FOLDER_LAYOUT_NAMES = new Set(['session', 'messages', 'summary', 'chat-messages', 'chat_history', 'transcript', 'events', 'wire', 'context', 'state']);

function unreadableSummary(path: string, format: SourceFormat, reason: Unreadable, size: number, mtimeMs: number): SessionSummary {
  const id = idFromPath(path);
  const store = storeOf(path);
  // A contained session's size and mtime are its version stamp and its store's (contained-sessions.ts).
  const contained = store !== path;
  return {
    key: `${format}:${id}`,
    id,
    format,
    title: contained ? `${basename(store)}: session ${id}` : basename(path),
    projectPath: null,
    projectName: null,
    branch: null,
    createdAt: null,
    updatedAt: new Date(mtimeMs).toISOString(),
    status: 'unknown',
    outcomeStatus: null,
    outcomeSummary: null,
    model: null,
    messageCount: 0,
    toolCallCount: 0,
    totalTokens: null,
    costUsd: null,
    parentKey: null,
    childCount: 0,
    warningCount: 0,
    kept: false,
    sourceGone: false,
    starred: false,
    tags: [],
    hasNote: false,
    primaryPath: store,
    size: contained ? 0 : size,
    mtimeMs,
    unreadable: reason,
  };
}

/** The list row for a read result, under the key the catalogue gave it. */
export function summaryOf(path: string, size: number, mtimeMs: number, result: SummaryResponse, key?: string): SessionSummary {
  const base = result.ok
    ? { ...result.summary, primaryPath: storeOf(path) }
    : unreadableSummary(path, result.format ?? 'vault', result.unreadable, size, mtimeMs);
  return key === undefined ? base : { ...base, key };
}
