// Reads aider's repository-local .aider.chat.history.md: each `# aider chat started at` run in it is a session of its own.
import { basename } from 'node:path';
import type { Session, Warning } from '../../../shared/session.ts';
import { readTextFile } from '../decode.ts';
import { statPath } from '../file-bytes.ts';
import { UnreadableError, type ContainedSession, type SourceReader, type StoreRows } from '../types.ts';
import { isSqliteFile, runRows, textFromRows, type RunFileFacts } from './aider-rows.ts';
import { buildAiderSession } from './aider-session.ts';
import { runIds, runPart, runVersion, splitRuns, type AiderRun } from './aider-runs.ts';
import { readRunTurns, type RunFacts } from './aider-turns.ts';
import { cannotRead } from '../read-failure.ts';

export const HISTORY_FILE = '.aider.chat.history.md';

export function claimsAider(absPath: string): boolean {
  return basename(absPath) === HISTORY_FILE;
}

interface ParsedRun {
  id: string;
  run: AiderRun;
  facts: RunFacts;
  file: RunFileFacts;
}

interface HistoryFile {
  /** The runs that hold a conversation: a header with nothing after it (aider started and quit) is not a session. */
  runs: ParsedRun[];
  size: number;
  mtimeMs: number;
  warnings: Warning[];
}

/**
 * The history's runs. The file is Markdown, or (for a kept copy or a bundle of one run) that run's own rows rebuilt
 * into a private SQLite file, which says where the run stood in its history.
 */
async function readHistory(absPath: string): Promise<HistoryFile> {
  let info;
  try {
    info = await statPath(absPath);
  } catch (err) {
    throw cannotRead(err);
  }
  if (info.size === 0) throw new UnreadableError('empty_file', 'File is empty (0 bytes).');
  let text: string;
  let firstLine = 1;
  let kept: RunFileFacts | null = null;
  let warnings: Warning[] = [];
  if (await isSqliteFile(absPath)) {
    ({ text, firstLine, facts: kept } = await textFromRows(absPath));
  } else {
    ({ text, warnings } = await readTextFile(absPath));
  }
  const { runs } = splitRuns(text, firstLine);
  if (runs.length === 0) throw new UnreadableError('wrong_shape', 'Not an aider chat history: no line starts with "# aider chat started at".');
  const ids = runIds(absPath, runs);
  const parsed = runs.map((run, i) => ({
    id: ids[i]!,
    run,
    facts: readRunTurns(run.lines, ''),
    file: kept ?? { index: run.index, runCount: runs.length, isLast: run.index === runs.length - 1, writtenMs: info.mtimeMs },
  }));
  return { runs: parsed.filter((r) => r.facts.messages.length > 0), size: info.size, mtimeMs: kept?.writtenMs ?? info.mtimeMs, warnings };
}

function sessionOf(absPath: string, file: HistoryFile, chosen: ParsedRun, now: number): Session {
  return buildAiderSession({
    path: absPath,
    size: file.size,
    mtimeMs: file.mtimeMs,
    now,
    id: chosen.id,
    run: { ...chosen.run, index: chosen.file.index },
    facts: chosen.facts,
    isLast: chosen.file.isLast,
    runCount: chosen.file.runCount,
    warnings: file.warnings,
  });
}

/**
 * One run by id. A kept copy lies elsewhere (its path hash differs), so an id not found as it is is looked for by
 * its run part (start time and repeat count).
 */
function findRun(file: HistoryFile, id: string): ParsedRun {
  const found = file.runs.find((r) => r.id === id) ?? file.runs.find((r) => runPart(r.id) === runPart(id));
  if (!found) throw new UnreadableError('wrong_shape', `The aider history holds no run ${runPart(id)} (it may have been rewritten).`);
  return found;
}

/** Every run with a conversation, each with a version that changes with its text. */
export async function listAiderRuns(absPath: string): Promise<ContainedSession[]> {
  const file = await readHistory(absPath);
  return file.runs.map((r) => ({ id: r.id, version: runVersion(r.run, r.file.isLast) }));
}

export async function readAiderRun(absPath: string, id: string, now = Date.now()): Promise<Session> {
  const file = await readHistory(absPath);
  return sessionOf(absPath, file, findRun(file, id), now);
}

/** The run's own lines (and where it stood in the history): never another run's words. */
export async function aiderRunRows(absPath: string, id: string): Promise<StoreRows> {
  const file = await readHistory(absPath);
  const run = findRun(file, id);
  return runRows(run.run, run.file);
}

/** The file's only conversation; a file with several runs lists each on its own. */
export async function readAiderFile(absPath: string, now = Date.now()): Promise<Session> {
  const file = await readHistory(absPath);
  if (file.runs.length === 0) throw new UnreadableError('empty_file', 'The aider history holds only run headers, no conversation.');
  if (file.runs.length > 1) throw new UnreadableError('wrong_shape', `This store holds ${file.runs.length} sessions; each is listed on its own.`);
  return sessionOf(absPath, file, file.runs[0]!, now);
}

export const aiderReader: SourceReader = {
  format: 'aider',
  capabilities: { tokens: true, recordedCost: true, subAgents: false, toolResults: false, thinking: false, images: false },
  // Aider keeps its history in each repository, with no folder of its own: the user adds the repository folders.
  defaultRoots: () => [],
  // Aider has no resume by id: `aider --restore-chat-history` reloads the whole file, not one run.
  resumeCommand: () => null,
  claims: claimsAider,
  read: (absPath) => readAiderFile(absPath),
  container: {
    list: (absPath) => listAiderRuns(absPath),
    readOne: (absPath, id) => readAiderRun(absPath, id),
    rows: (absPath, id) => aiderRunRows(absPath, id),
  },
};
