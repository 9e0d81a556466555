// Reads Cline-family task folders (`globalStorage/<extension id>/tasks/<taskId>/`): one factory for Cline and Roo Code, and for Kilo Code's pre-2026 extension under the Kilo reader.
import { dirname, join } from 'node:path';
import type { Session, SourceFile } from '../../../shared/session.ts';
import { isRecord, readDocument, WarningList } from '../coerce.ts';
import { companionInside } from '../companion.ts';
import { readJsonFile } from '../decode.ts';
import { statPath } from '../file-bytes.ts';
import type { SourceReader } from '../types.ts';
import { CLINE, claimsTask, clineRoots, HISTORY_FILE, ROO_CODE, taskCompanion, taskPlace, UI_FILE, type ClineApp } from './cline-paths.ts';
import { parseClineTask, type TaskCompanions } from './cline-session.ts';

/** One optional file beside the task's own; one that exists but cannot be read is reported, never fatal. */
async function readBeside(
  taskDir: string,
  name: string,
  role: SourceFile['role'],
  warnings: WarningList,
): Promise<{ value: unknown; file: SourceFile } | null> {
  const path = join(taskDir, name);
  if (!(await companionInside(path, taskDir))) return null;
  try {
    const [info, { value }] = await Promise.all([statPath(path), readJsonFile(path)]);
    return { value, file: { path, size: info.size, mtimeMs: info.mtimeMs, role } };
  } catch (err) {
    warnings.add('bad_meta', `${name} cannot be read (${(err as Error).message}); it was ignored.`);
    return null;
  }
}

async function readCompanions(taskDir: string, withUi: boolean, warnings: WarningList): Promise<TaskCompanions> {
  const [ui, metadata, item] = await Promise.all([
    withUi ? readBeside(taskDir, UI_FILE, 'transcript', warnings) : null,
    readBeside(taskDir, 'task_metadata.json', 'meta', warnings),
    readBeside(taskDir, 'history_item.json', 'meta', warnings),
  ]);
  const object = (read: { value: unknown } | null, name: string) => {
    if (!read) return null;
    if (isRecord(read.value)) return read.value;
    warnings.add('bad_meta', `${name} does not hold a JSON object; it was ignored.`);
    return null;
  };
  let uiList: unknown[] | null = null;
  if (ui && Array.isArray(ui.value)) uiList = ui.value;
  else if (ui) warnings.add('bad_meta', `${UI_FILE} does not hold a list of messages; the task's tokens, cost and times are not read from it.`);
  return {
    ui: uiList,
    taskMetadata: object(metadata, 'task_metadata.json'),
    historyItem: object(item, 'history_item.json'),
    files: [ui?.file, metadata?.file, item?.file].filter((f): f is SourceFile => f !== undefined && f !== null),
  };
}

export async function readClineTask(app: ClineApp, absPath: string, now = Date.now()): Promise<Session> {
  const { value, ctx } = await readDocument(absPath);
  const warnings = new WarningList();
  const withUi = taskPlace(app, absPath)?.name === HISTORY_FILE;
  const companions = await readCompanions(dirname(absPath), withUi, warnings);
  return parseClineTask(app, value, { ...ctx, warnings: [...ctx.warnings, ...warnings.list()], now, companions });
}

/** A reader for one extension of the family. */
export function clineFamilyReader(app: ClineApp): SourceReader {
  return {
    format: app.format,
    capabilities: { tokens: true, recordedCost: true, subAgents: app.format === 'roo-code', toolResults: true, thinking: true, images: true },
    defaultRoots: (env, home) => clineRoots(app, env, home),
    // IDE extensions: a task is resumed from the extension's history panel, there is no command line.
    resumeCommand: () => null,
    claims: (absPath) => claimsTask(app, absPath),
    companion: (absPath) => taskCompanion(app, absPath),
    read: (absPath) => readClineTask(app, absPath),
  };
}

export const clineReader = clineFamilyReader(CLINE);
export const rooCodeReader = clineFamilyReader(ROO_CODE);
