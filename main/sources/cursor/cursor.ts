// Reads Cursor agent transcripts (~/.cursor/projects/<project>/agent-transcripts/<id>/<id>.jsonl or an older <id>.txt, sub-agents) with their chat store.
import { basename, dirname, extname, join } from 'node:path';
import type { Session, Warning } from '../../../shared/session.ts';
import { WarningList, type DocumentContext } from '../coerce.ts';
import { readTextFile } from '../decode.ts';
import { listFolder, statPath } from '../file-bytes.ts';
import { readJsonLines, type JsonLine } from '../jsonl.ts';
import { shellArg } from '../shell-quote.ts';
import type { SourceReader } from '../types.ts';
import { claimsCursor, cursorRoots, isCursorCompanion, layoutOf, type CursorLayout } from './cursor-paths.ts';
import { recognizesCursor } from './cursor-recognize.ts';
import { cursorTextRecords } from './cursor-text.ts';
import { buildCursorSession } from './cursor-session.ts';
import { readCursorStore, type CursorStoreFacts } from './cursor-store.ts';
import { cannotRead } from '../read-failure.ts';

const NO_STORE: CursorStoreFacts = { workspacePath: null, meta: null, file: null, problem: null };

export interface CursorInput extends DocumentContext {
  layout?: CursorLayout | null;
  store?: CursorStoreFacts;
  children?: string[];
  now?: number;
}

/** Parses one transcript's records (pure; tests call it directly). A file outside the layout is a session named after it. */
export function parseCursor(records: readonly JsonLine[], input: CursorInput): Session {
  const warnings = new WarningList();
  warnings.addAll(input.warnings);
  const layout = input.layout ?? { kind: 'session', sessionId: basename(input.path, extname(input.path)), parentId: null, projectDir: '', cursorHome: '' };
  return buildCursorSession(
    records,
    { ...input, layout, store: input.store ?? NO_STORE, children: input.children ?? [], now: input.now ?? Date.now() },
    warnings,
  );
}

/** Sub-agent transcripts in `<id>/subagents/` (the transcript's own folder, or beside a flat one). */
async function childrenOf(absPath: string, layout: CursorLayout): Promise<string[]> {
  const own = basename(dirname(absPath)) === layout.sessionId ? dirname(absPath) : join(dirname(absPath), layout.sessionId);
  try {
    const names = await listFolder(join(own, 'subagents'));
    const ids = names.filter((n) => (n.endsWith('.jsonl') || n.endsWith('.txt')) && !n.startsWith('.')).map((n) => basename(n, extname(n)));
    return [...new Set(ids)].sort().map((id) => `cursor:${id}`);
  } catch {
    return []; // most sessions spawn no sub-agent
  }
}

/** An older plain-text transcript, as the records a JSONL one holds. */
async function readTextTranscript(absPath: string): Promise<{ records: JsonLine[]; warnings: Warning[] }> {
  const { text, warnings } = await readTextFile(absPath);
  return { records: cursorTextRecords(text), warnings };
}

export async function readCursorFile(absPath: string, now = Date.now()): Promise<Session> {
  let info;
  try {
    info = await statPath(absPath);
  } catch (err) {
    throw cannotRead(err);
  }
  const { records, warnings } = extname(absPath) === '.txt' ? await readTextTranscript(absPath) : await readJsonLines(absPath);
  const layout = layoutOf(absPath);
  const [store, children] = layout
    ? await Promise.all([readCursorStore(layout.cursorHome, layout.projectDir, layout.sessionId), layout.kind === 'session' ? childrenOf(absPath, layout) : []])
    : [NO_STORE, []];
  return parseCursor(records, { path: absPath, size: info.size, mtimeMs: info.mtimeMs, warnings, layout, store, children, now });
}

export const cursorReader: SourceReader = {
  format: 'cursor',
  capabilities: { tokens: false, recordedCost: false, subAgents: true, toolResults: true, thinking: true, images: true },
  defaultRoots: cursorRoots,
  // `cursor-agent --resume <chat id>` (coder/registry#747; the CLI's `agent` command takes the same flag).
  resumeCommand: (s) => (s.isSubAgent ? null : `cursor-agent --resume ${shellArg(s.id)}`),
  claims: claimsCursor,
  recognizes: recognizesCursor,
  companion: isCursorCompanion,
  read: (absPath) => readCursorFile(absPath),
};
