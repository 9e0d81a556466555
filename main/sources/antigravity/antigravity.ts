// Reads Antigravity CLI (agy) conversations: ~/.gemini/antigravity-cli/brain/<id>/.system_generated/logs/transcript.jsonl, with the brain's Markdown artifacts.
import { basename, dirname, join } from 'node:path';
import type { Session, SourceFile } from '../../../shared/session.ts';
import { statPath } from '../file-bytes.ts';
import type { Head } from '../head.ts';
import { readJsonLines } from '../jsonl.ts';
import { shellArg } from '../shell-quote.ts';
import type { SourceReader } from '../types.ts';
import { brainArtifacts } from './antigravity-artifacts.ts';
import { promptLogOf } from './antigravity-history.ts';
import { antigravityCompanion, antigravityRoots, claimsAntigravity, conversationDirOf } from './antigravity-layout.ts';
import { parseAntigravity } from './antigravity-session.ts';
import { cannotRead } from '../read-failure.ts';

/** Every step carries a numeric `step_index` beside string `type` and `source`: no other agent's records do. */
export function recognizesAntigravity(head: Head): boolean {
  const first = head.records(1)[0];
  return first !== undefined && typeof first.step_index === 'number' && typeof first.type === 'string' && typeof first.source === 'string';
}

/** transcript_full.jsonl beside a transcript, read, when it exists and holds steps; null otherwise (the transcript is read). */
async function fullTranscript(absPath: string): Promise<{ file: SourceFile; read: Awaited<ReturnType<typeof readJsonLines>> } | null> {
  const path = join(dirname(absPath), 'transcript_full.jsonl');
  try {
    const info = await statPath(path);
    const read = await readJsonLines(path);
    if (!read.records.length) return null;
    return { file: { path, size: info.size, mtimeMs: info.mtimeMs, role: 'transcript' }, read };
  } catch {
    return null;
  }
}

export async function readAntigravityFile(absPath: string, now = Date.now()): Promise<Session> {
  let info;
  try {
    info = await statPath(absPath);
  } catch (err) {
    throw cannotRead(err);
  }
  const conversationDir = conversationDirOf(absPath);
  // agy clips long fields in transcript.jsonl (naming them in truncated_fields) and writes the same steps whole to
  // transcript_full.jsonl beside it: the conversation is read from that one when it is there and readable.
  const full = conversationDir && basename(absPath) !== 'transcript_full.jsonl' ? await fullTranscript(absPath) : null;
  const { records, warnings } = full?.read ?? (await readJsonLines(absPath));
  const brain = conversationDir ? await brainArtifacts(conversationDir) : { artifacts: [], files: [] };
  const promptLog = conversationDir ? await promptLogOf(conversationDir) : null;
  return parseAntigravity(records, {
    path: absPath,
    size: info.size,
    mtimeMs: info.mtimeMs,
    warnings,
    now,
    brain,
    conversationId: conversationDir ? basename(conversationDir) : null,
    full: full?.file ?? null,
    promptLog,
  });
}

export const antigravityReader: SourceReader = {
  format: 'antigravity',
  capabilities: { tokens: false, recordedCost: false, subAgents: false, toolResults: true, thinking: true, images: false },
  defaultRoots: antigravityRoots,
  // `agy --conversation <id>` (agent-sessions' AntigravityResumeCommandBuilder, herdr's agy integration).
  resumeCommand: (s) => `agy --conversation ${shellArg(s.id)}`,
  claims: claimsAntigravity,
  recognizes: recognizesAntigravity,
  companion: antigravityCompanion,
  read: (absPath) => readAntigravityFile(absPath),
};
