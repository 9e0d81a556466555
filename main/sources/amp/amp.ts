// Reads Amp threads (<data dir>/threads/T-<id>.json, one JSON document per thread; ~/.local/share/amp by default).
import { basename, dirname, join } from 'node:path';
import type { Session } from '../../../shared/session.ts';
import { readDocument } from '../coerce.ts';
import { topLevelScalars, type Head } from '../head.ts';
import { shellArg } from '../shell-quote.ts';
import type { SourceReader } from '../types.ts';
import { parseAmpThread } from './amp-session.ts';

/** `threads/T-<id>.json`; never a writer's temp file. */
export function claimsAmp(absPath: string): boolean {
  return /^T-[A-Za-z0-9-]+\.json$/.test(basename(absPath)) && basename(dirname(absPath)) === 'threads';
}

/**
 * A thread document: an `id` of the form `T-...` beside a `messages` list. Amp indents its documents with one
 * message per line, which head.document() takes for JSONL records; the top-level keys are then read from the text.
 */
export function recognizesAmp(head: Head): boolean {
  const doc = head.document() ?? topLevelScalars(head.text);
  return doc !== null && typeof doc.id === 'string' && doc.id.startsWith('T-') && Array.isArray(doc.messages);
}

/** AMP_DATA_DIR (comma-separated, as ccusage reads it) replaces the data folder; otherwise the XDG data home. */
export function ampRoots(env: NodeJS.ProcessEnv, home: string): string[] {
  const override = (env.AMP_DATA_DIR ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (override.length) return override.map((dir) => join(dir, 'threads'));
  return [join(env.XDG_DATA_HOME?.trim() || join(home, '.local', 'share'), 'amp', 'threads')];
}

export async function readAmpFile(absPath: string, now = Date.now()): Promise<Session> {
  const { value, ctx } = await readDocument(absPath);
  return parseAmpThread(value, { ...ctx, now });
}

export const ampReader: SourceReader = {
  format: 'amp',
  capabilities: { tokens: true, recordedCost: false, subAgents: false, toolResults: true, thinking: true, images: true },
  defaultRoots: ampRoots,
  // `amp threads continue <thread-id>` (Amp's CLI; the thread must still exist on ampcode.com).
  resumeCommand: (s) => `amp threads continue ${shellArg(s.id)}`,
  claims: claimsAmp,
  recognizes: recognizesAmp,
  read: (absPath) => readAmpFile(absPath),
};
