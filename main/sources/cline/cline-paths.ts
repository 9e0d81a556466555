// Where Cline, Roo Code and Kilo Code's pre-2026 extension keep their tasks: `<VS Code user data>/User/globalStorage/<extension id>/tasks/<taskId>/`.
import { basename, dirname, join } from 'node:path';

/** One VS Code extension of the Cline family and the session format it is listed under. */
export interface ClineApp {
  format: 'cline' | 'roo-code' | 'kilo';
  /** The name people know it by, for titles and warnings. */
  label: string;
  /** The extension ids (lower case, as VS Code names the globalStorage folder). */
  extensionIds: readonly string[];
}

export const CLINE: ClineApp = { format: 'cline', label: 'Cline', extensionIds: ['saoudrizwan.claude-dev'] };
export const ROO_CODE: ClineApp = { format: 'roo-code', label: 'Roo Code', extensionIds: ['rooveterinaryinc.roo-cline'] };
/** Kilo Code's VS Code extension before its OpenCode-based rebuild (2026): Cline-shaped task folders, read under the Kilo format. */
export const KILO_LEGACY: ClineApp = { format: 'kilo', label: 'Kilo Code', extensionIds: ['kilocode.kilo-code'] };

/** The conversation as the model saw it: the session's file while it exists. */
export const HISTORY_FILE = 'api_conversation_history.json';
/** What the extension showed (and the per-request tokens and cost): the session's file when it lies alone. */
export const UI_FILE = 'ui_messages.json';
/** Cline's and Kilo's files in context and model usage; Roo Code's per-task history item. */
export const META_FILES = ['task_metadata.json', 'history_item.json'] as const;

/** The VS Code builds whose user data folders hold extension storage. */
const VSCODE_APPS = ['Code', 'Code - Insiders', 'VSCodium', 'Cursor', 'Windsurf'];

export interface TaskPlace {
  extensionId: string;
  taskId: string;
  taskDir: string;
  /** The file's name inside the task folder. */
  name: string;
}

/** `<extension id>/tasks/<taskId>/<name>` for one of the app's extension ids; null for any other path. */
export function taskPlace(app: ClineApp, absPath: string): TaskPlace | null {
  const taskDir = dirname(absPath);
  const tasks = dirname(taskDir);
  if (basename(tasks) !== 'tasks') return null;
  const extensionId = basename(dirname(tasks)).toLowerCase();
  if (!app.extensionIds.includes(extensionId)) return null;
  const taskId = basename(taskDir);
  // Roo Code keeps its own index beside the tasks (`tasks/_index.json`); a folder named so is none of them.
  if (taskId === '' || taskId.startsWith('_') || taskId.startsWith('.')) return null;
  return { extensionId, taskId, taskDir, name: basename(absPath) };
}

/** The task's conversation history, or its UI messages (a task whose history is gone still shows what it did). */
export function claimsTask(app: ClineApp, absPath: string): boolean {
  const name = taskPlace(app, absPath)?.name;
  return name === HISTORY_FILE || name === UI_FILE;
}

/** task_metadata.json and history_item.json are read with the task beside them. */
export function taskCompanion(app: ClineApp, absPath: string): boolean {
  const name = taskPlace(app, absPath)?.name;
  return name !== undefined && (META_FILES as readonly string[]).includes(name);
}

/** `User/globalStorage/<ext id>/tasks` under each VS Code build's user data folder: Linux (XDG), macOS and Windows. */
export function clineRoots(app: ClineApp, env: NodeJS.ProcessEnv, home: string): string[] {
  const xdg = env.XDG_CONFIG_HOME?.trim() || join(home, '.config');
  const appData = env.APPDATA?.trim() || join(home, 'AppData', 'Roaming');
  const bases = [xdg, join(home, 'Library', 'Application Support'), appData];
  return bases.flatMap((base) => VSCODE_APPS.flatMap((vscode) => app.extensionIds.map((id) => join(base, vscode, 'User', 'globalStorage', id, 'tasks'))));
}
