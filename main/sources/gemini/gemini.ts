// Reads Gemini CLI chats (~/.gemini/tmp/<project>/chats/session-*.json|.jsonl and nested sub-agent chats).
import { recognizesGemini } from './gemini-recognize.ts';
import { shellArg } from '../shell-quote.ts';
import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import type { Session } from '../../../shared/session.ts';
import { isRecord, notAnObject, readDocument, WarningList, type DocumentContext } from '../coerce.ts';
import { replayDocument, replayJsonLines } from './gemini-replay.ts';
import { buildGeminiSession, placementOf, type GeminiSurroundings } from './gemini-session.ts';
import { readJsonLines, type JsonLine } from '../jsonl.ts';
import type { SourceReader } from '../types.ts';
import { statPath } from '../file-bytes.ts';
import { companionInside } from '../companion.ts';
import { cannotRead } from '../read-failure.ts';

const NOTHING_AROUND: GeminiSurroundings = { projectRoot: null, projectRootFile: null };

function isProjectFolder(dir: string): boolean {
  return basename(dirname(dir)) === 'tmp';
}

/**
 * `tmp/<project>/chats/session-*.json|.jsonl`, and sub-agent chats, which the CLI writes as
 * `tmp/<project>/chats/<parent session id>/<session id>.jsonl`. Never logs.json, checkpoints or temp files.
 */
export function claimsGemini(absPath: string): boolean {
  const name = basename(absPath);
  if (!/\.jsonl?$/.test(name) || name.startsWith('.')) return false;
  const dir = dirname(absPath);
  if (basename(dir) === 'chats') return name.startsWith('session-') && isProjectFolder(dirname(dir));
  const chats = dirname(dir);
  return basename(chats) === 'chats' && isProjectFolder(dirname(chats));
}

/** A whole-document chat (`.json`): current `messages[]` or legacy `history[]`. */
export function parseGeminiDocument(value: unknown, ctx: DocumentContext, around: GeminiSurroundings = NOTHING_AROUND, now = Date.now()): Session {
  if (!isRecord(value)) throw notAnObject(value, 'Gemini chat');
  const warnings = new WarningList();
  warnings.addAll(ctx.warnings);
  return buildGeminiSession(replayDocument(value, warnings), ctx, around, now, warnings);
}

/** An append-only chat (`.jsonl`, Gemini CLI 0.40+), given its parsed lines. */
export function parseGeminiJsonLines(
  records: readonly JsonLine[],
  ctx: DocumentContext,
  around: GeminiSurroundings = NOTHING_AROUND,
  now = Date.now(),
): Session {
  const warnings = new WarningList();
  warnings.addAll(ctx.warnings);
  return buildGeminiSession(replayJsonLines(records, warnings), ctx, around, now, warnings);
}

/**
 * Newer CLIs name project folders by slug and leave the project's path in `<slug>/.project_root`. Only a marker
 * whose real path stays in that folder is read: one linked to a file elsewhere is not the project's.
 */
async function surroundings(absPath: string): Promise<GeminiSurroundings> {
  const { projectDir } = placementOf(absPath);
  if (projectDir === null) return NOTHING_AROUND;
  const chats = basename(dirname(absPath)) === 'chats' ? dirname(absPath) : dirname(dirname(absPath));
  const marker = join(dirname(chats), '.project_root');
  if (!(await companionInside(marker, dirname(chats)))) return NOTHING_AROUND;
  try {
    const [text, info] = await Promise.all([readFile(marker, 'utf8'), statPath(marker)]);
    const root = text.trim();
    if (!root) return NOTHING_AROUND;
    return { projectRoot: root, projectRootFile: { path: marker, size: info.size, mtimeMs: info.mtimeMs, role: 'meta' } };
  } catch {
    return NOTHING_AROUND; // hash-named folders of older CLIs have no marker
  }
}

/** Reads one chat file (the project marker beside it too) into the canonical model. */
export async function readGeminiFile(absPath: string, now: number = Date.now()): Promise<Session> {
  const around = await surroundings(absPath);
  if (extname(absPath) === '.jsonl') {
    let info;
    try {
      info = await statPath(absPath);
    } catch (err) {
      throw cannotRead(err);
    }
    const { records, warnings } = await readJsonLines(absPath);
    return parseGeminiJsonLines(records, { path: absPath, size: info.size, mtimeMs: info.mtimeMs, warnings }, around, now);
  }
  const { value, ctx } = await readDocument(absPath);
  return parseGeminiDocument(value, ctx, around, now);
}

export const geminiReader: SourceReader = {
  format: 'gemini',
  capabilities: { tokens: true, recordedCost: false, subAgents: true, toolResults: true, thinking: true, images: true },
  // GEMINI_CLI_HOME replaces the home directory; chats live in .gemini/tmp/<project>/chats.
  defaultRoots: (env, home) => [join(env.GEMINI_CLI_HOME?.trim() || home, '.gemini', 'tmp')],
  resumeCommand: (s) => `gemini --resume ${shellArg(s.id)}`,
  claims: claimsGemini,
  recognizes: recognizesGemini,
  read: (absPath) => readGeminiFile(absPath),
};
