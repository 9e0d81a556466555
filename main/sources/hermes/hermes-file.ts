// Reads a Hermes transcript, with the figures state.db beside it keeps for the same session (tokens, billing, cost, links).
import { basename, extname, join } from 'node:path';
import type { Session, SourceFile } from '../../../shared/session.ts';
import { readDocument, WarningList } from '../coerce.ts';
import { companionInside } from '../companion.ts';
import { statPath } from '../file-bytes.ts';
import { readJsonLines } from '../jsonl.ts';
import { withReadOnlyStore } from '../sqlite-file.ts';
import { UnreadableError } from '../types.ts';
import { claimsHermes, homeOfTranscript, isLineTranscript, isTranscriptPath, transcriptId } from './hermes-paths.ts';
import { buildHermesSession, type HermesPieces } from './hermes-session.ts';
import { storePart } from './hermes-store-session.ts';
import { HermesStore } from './hermes-store.ts';
import { readHermesTranscript, type HermesTranscript } from './hermes-transcript.ts';

/**
 * The store's part of the session, when state.db lies in the transcript's own Hermes home and holds it. The store is
 * not one of the session's files: it holds every other session too, and a shared or kept transcript must not carry
 * them. Its figures are read in each time the transcript is read (Hermes rewrites the transcript every turn).
 */
async function storeBeside(absPath: string, id: string, warnings: WarningList): Promise<HermesPieces['store']> {
  const home = homeOfTranscript(absPath);
  const storePath = join(home, 'state.db');
  if (!(await companionInside(storePath, home))) return null;
  try {
    return await withReadOnlyStore(storePath, (db) => storePart(new HermesStore(db), id, false, warnings));
  } catch (err) {
    if (!(err instanceof UnreadableError)) throw err;
    warnings.add('companion_unreadable', `The state.db beside this transcript cannot be read (${err.message}); the session's tokens and cost are missing.`);
    return null;
  }
}

async function transcriptFile(absPath: string, size?: number, mtimeMs?: number): Promise<SourceFile> {
  if (size !== undefined && mtimeMs !== undefined) return { path: absPath, size, mtimeMs, role: 'primary' };
  const info = await statPath(absPath);
  return { path: absPath, size: info.size, mtimeMs: info.mtimeMs, role: 'primary' };
}

/**
 * One transcript as its session, keyed by the id in its file name (the store's name for it) or, for a transcript
 * lying outside a Hermes home under another name, by its session_id. When the transcript itself cannot be read but the store holds the session, the
 * store's copy is shown with a warning saying why, so nothing is lost; with no store copy, the transcript's reason.
 */
export async function readHermesTranscriptFile(absPath: string, now = Date.now()): Promise<Session> {
  const named = isTranscriptPath(absPath) ? transcriptId(absPath) : null;
  const warnings = new WarningList();
  let transcript: HermesTranscript | null = null;
  let failure: UnreadableError | null = null;
  let size: number | undefined;
  let mtimeMs: number | undefined;
  try {
    if (isLineTranscript(absPath)) {
      // The gateway's transcript: a session_meta line, then a message per line (the session log's `messages`).
      const info = await statPath(absPath);
      const { records, warnings: lineWarnings } = await readJsonLines(absPath);
      ({ size, mtimeMs } = info);
      warnings.addAll(lineWarnings);
      const lines = records.map((r) => r.line);
      transcript = readHermesTranscript({ messages: records.map((r) => r.value) }, warnings, lines);
    } else {
      const { value, ctx } = await readDocument(absPath);
      ({ size, mtimeMs } = ctx);
      warnings.addAll(ctx.warnings);
      transcript = readHermesTranscript(value, warnings);
    }
  } catch (err) {
    if (!(err instanceof UnreadableError)) throw err;
    failure = err;
  }
  const id = named ?? transcript?.sessionId ?? basename(absPath, extname(absPath));
  // Only a transcript in a Hermes home has a store beside it; a loose copy is read on its own.
  const store = claimsHermes(absPath) ? await storeBeside(absPath, id, warnings) : null;
  if (failure) {
    if (!store) throw failure;
    warnings.add('unreadable_transcript', `The transcript cannot be read (${failure.message}); the session is shown from state.db.`);
  }
  const sourceFiles = [await transcriptFile(absPath, size, mtimeMs)];
  const formatVersion = store ? 'transcript+state.db' : 'transcript';
  return buildHermesSession({ id, formatVersion, sourceFiles, transcript, store, warnings, now });
}
