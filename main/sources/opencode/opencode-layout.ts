// Where OpenCode and the tools built on it (Kilo) keep sessions: the SQLite store (and channel stores) in their data folder, and the legacy storage/ JSON tree.
import { basename, dirname, join, sep } from 'node:path';
import type { SourceFormat } from '../../../shared/session.ts';
import { storeHoldsSession } from './opencode-migrated.ts';

/** What differs between OpenCode and a tool that writes OpenCode's layout under its own name. */
export interface OpenCodeApp {
  format: Extract<SourceFormat, 'opencode' | 'kilo'>;
  /** The tool's name in titles and messages ("OpenCode"). */
  label: string;
  /** The data folder's name under XDG_DATA_HOME (`opencode`), which also names the store (`opencode.db`). */
  dataDirName: string;
  /** The command line that starts the tool (`opencode`). */
  command: string;
  /** Variables naming data folders (comma-separated lists allowed), most specific first. */
  dataDirVariables: readonly string[];
}

/** The store and its channel stores (`opencode.db`, `opencode-beta.db`); never the WAL, shared-memory or a temp file. */
export function isStoreName(app: OpenCodeApp, name: string): boolean {
  if (name === `${app.dataDirName}.db`) return true;
  const channel = new RegExp(`^${app.dataDirName}-[A-Za-z0-9._]+\\.db$`);
  return channel.test(name) && !/\.tmp/i.test(name);
}

export function claimsStore(app: OpenCodeApp, absPath: string): boolean {
  return isStoreName(app, basename(absPath));
}

/** The data folder holding `storage/` when the path lies in a storage tree (`<data>/storage/...`), else null. */
function storageDataDir(absPath: string): { dataDir: string; rest: string[] } | null {
  const parts = absPath.split(sep);
  const at = parts.lastIndexOf('storage');
  if (at < 1) return null;
  return { dataDir: parts.slice(0, at).join(sep), rest: parts.slice(at + 1) };
}

/** The tree is this tool's: its data folder has the tool's name (a renamed data folder holds `ses_` files). */
function ownsTree(app: OpenCodeApp, dataDir: string, fileName: string): boolean {
  const name = basename(dataDir);
  if (name === app.dataDirName) return true;
  // Another tool's folder of the same layout is never ours; a folder named otherwise (a data-folder override) is
  // OpenCode's when its session files carry OpenCode's id prefix.
  return app.format === 'opencode' && name !== 'kilo' && fileName.startsWith('ses_');
}

/** A legacy session file's place: `<data>/storage/session/<projectID>/<sessionID>.json` in a tree of this tool. */
function storageSessionFile(app: OpenCodeApp, absPath: string): { dataDir: string; fileId: string } | null {
  const tree = storageDataDir(absPath);
  if (!tree || tree.rest.length !== 3 || tree.rest[0] !== 'session') return null;
  const name = tree.rest[2] ?? '';
  if (!name.endsWith('.json') || name.startsWith('.') || !ownsTree(app, tree.dataDir, name)) return null;
  return { dataDir: tree.dataDir, fileId: name.slice(0, -'.json'.length) };
}

/** The session of a legacy file has been migrated into the store beside the tree (`<data>/<tool>.db`), which lists it. */
function migratedToStore(app: OpenCodeApp, file: { dataDir: string; fileId: string }): boolean {
  return storeHoldsSession(join(file.dataDir, `${app.dataDirName}.db`), file.fileId);
}

/**
 * A legacy session file whose session the store does not hold. One the store holds is the pre-migration copy of
 * the same session (the store's goes on, the file is frozen): it is a companion, so the session is listed once.
 */
export function claimsStorageSession(app: OpenCodeApp, absPath: string): boolean {
  const file = storageSessionFile(app, absPath);
  return file !== null && !migratedToStore(app, file);
}

/**
 * Every other file of the tool's storage tree (messages, parts, projects, the migration marker, session files the
 * store took over): read through a session, never one itself.
 */
export function isStorageCompanion(app: OpenCodeApp, absPath: string): boolean {
  const tree = storageDataDir(absPath);
  if (!tree || !tree.rest.length) return false;
  const file = storageSessionFile(app, absPath);
  if (file) return migratedToStore(app, file);
  return basename(tree.dataDir) === app.dataDirName;
}

/**
 * The tool's data folders: those its variables name (comma-separated), else `$XDG_DATA_HOME/<tool>`, else
 * `~/.local/share/<tool>`. The scan finds the store and the storage tree below each.
 */
export function dataDirs(app: OpenCodeApp, env: NodeJS.ProcessEnv, home: string): string[] {
  for (const variable of app.dataDirVariables) {
    const named = (env[variable] ?? '')
      .split(',')
      .map((d) => d.trim())
      .filter(Boolean);
    if (named.length) return named;
  }
  const xdg = env.XDG_DATA_HOME?.trim();
  return [join(xdg || join(home, '.local', 'share'), app.dataDirName)];
}

/** The storage tree's root for a legacy session file (`<data>/storage`). */
export function storageRootOf(sessionFile: string): string {
  return dirname(dirname(dirname(sessionFile)));
}
