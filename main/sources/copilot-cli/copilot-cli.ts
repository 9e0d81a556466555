// Reads GitHub Copilot CLI sessions (~/.copilot/session-state/<id>/events.jsonl with workspace.yaml, and legacy <id>.jsonl).
import { basename, extname } from 'node:path';
import type { Session, Warning } from '../../../shared/session.ts';
import { WarningList, type DocumentContext } from '../coerce.ts';
import { statPath } from '../file-bytes.ts';
import { readJsonLines, type JsonLine } from '../jsonl.ts';
import { shellArg } from '../shell-quote.ts';
import type { SourceReader } from '../types.ts';
import { replayCopilotEvents } from './copilot-events.ts';
import { claimsCopilot, copilotRoots, isCopilotCompanion, layoutOf, type CopilotLayout } from './copilot-paths.ts';
import { recognizesCopilot } from './copilot-recognize.ts';
import { buildCopilotSession } from './copilot-session.ts';
import { readWorkspace, type CopilotWorkspace } from './copilot-workspace.ts';
import { cannotRead } from '../read-failure.ts';

export interface CopilotInput extends DocumentContext {
  /** Where the file sits; a file outside the layout is a flat session named after the file. */
  layout?: CopilotLayout | null;
  workspace?: CopilotWorkspace | null;
  now?: number;
}

/** Parses the records of one Copilot CLI events file (pure; tests call it directly). */
export function parseCopilot(records: readonly JsonLine[], input: CopilotInput): Session {
  const warnings = new WarningList();
  warnings.addAll(input.warnings);
  const state = replayCopilotEvents(records, warnings);
  const layout = input.layout ?? { kind: 'flat', sessionId: basename(input.path, extname(input.path)) };
  return buildCopilotSession(state, { ...input, layout, workspace: input.workspace ?? null, now: input.now ?? Date.now() }, warnings);
}

/** Reads one events file, with the workspace.yaml of its session folder. */
export async function readCopilotFile(absPath: string, now = Date.now()): Promise<Session> {
  let info;
  try {
    info = await statPath(absPath);
  } catch (err) {
    throw cannotRead(err);
  }
  const { records, warnings } = await readJsonLines(absPath);
  const layout = layoutOf(absPath);
  let workspace: CopilotWorkspace | null = null;
  const extra: Warning[] = [];
  if (layout?.kind === 'directory') {
    const result = await readWorkspace(layout.folder);
    if (result?.ok) workspace = result.workspace;
    else if (result) extra.push({ code: 'bad_meta', message: `The session's ${result.reason}; its name and summary are unknown.`, count: 1 });
  }
  return parseCopilot(records, { path: absPath, size: info.size, mtimeMs: info.mtimeMs, warnings: [...warnings, ...extra], layout, workspace, now });
}

export const copilotCliReader: SourceReader = {
  format: 'copilot-cli',
  capabilities: { tokens: true, recordedCost: true, subAgents: true, toolResults: true, thinking: true, images: true },
  // COPILOT_HOME (or COPILOT_CLI_HOME) replaces ~/.copilot; sessions live in its session-state/ folder.
  defaultRoots: copilotRoots,
  // `copilot --resume <id>` (github/copilot-cli issues #1635, #4397; agent-sessions' CopilotResumeCommandBuilder).
  resumeCommand: (s) => (s.isSubAgent ? null : `copilot --resume ${shellArg(s.id)}`),
  claims: claimsCopilot,
  recognizes: recognizesCopilot,
  companion: isCopilotCompanion,
  read: (absPath) => readCopilotFile(absPath),
};
