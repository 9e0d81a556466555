// Whether the index file answers as it is: the roots' configuration and everything below them unchanged since a full run recorded what it saw (scan-snapshot.ts). The one check the read-only fast paths (usage, list, search) share.
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { appVersion } from '../env/app-version.ts';
import { READING_VERSION } from '../search-index/reading-version.ts';
import { SCHEMA_VERSION } from '../search-index/schema.ts';
import { changesSince } from './snapshot-changes.ts';

/** The index's file in the data folder (SessionIndex's INDEX_FILE_NAME: index-store.ts loads the writer, which a read does not need). */
export const INDEX_FILE = 'index.sqlite';
export const SNAPSHOT_FILE = 'scan-snapshot.json';

/** The vault's folders a scan reads: kept copies, forks, recorded sessions. */
export const vaultFolders = (dataDir: string): string[] => ['sessions', 'forks', 'recorded'].map((d) => join(dataDir, 'vault', d));

/**
 * A folder: its path, its time, and three entries for each file in it (name, size, time). Flat arrays: a snapshot of
 * 2,330 files in 899 folders is parsed and walked (the stats aside) in 15-33 ms, where objects keyed by file name took 60-75.
 */
export type Folder = [path: string, mtimeMs: number, files: Array<string | number>];

/**
 * The snapshot's layout: one of another (an older app's) is not read, and the next full run writes it anew. Also
 * raised when a full run would leave the index otherwise than an older app's did from the same files: 3, files
 * outside their tool's folders keyed by their path (outside-layout.ts), which the next full run's restore repairs.
 */
export const SNAPSHOT_LAYOUT = 3;

/**
 * What decided the tools' default folders: every environment variable the readers consulted (HOME among them) with
 * its value (null: unset), the working directory when one of them held a relative path, and the folders.
 */
export interface DefaultsSeen {
  vars: Record<string, string | null>;
  cwd: string | null;
  paths: string[];
}

export interface ScanSnapshot {
  layout: typeof SNAPSHOT_LAYOUT;
  /** What decides the roots and how files are read: a run with another answer scans again. */
  config: string;
  /** The index's files as that run left them (indexSignature): another command's scan changes it. */
  index: string;
  /** Every folder the run read (saved, --root, the default folders), as the app lists its roots. */
  roots: string[];
  /** How the default folders were found (null with --no-defaults), so a later run need not ask every reader. */
  defaults: DefaultsSeen | null;
  folders: Folder[];
}

/** A short signature of the index's files: their number, last row id, sizes and times added up. */
export function indexSignature(db: { prepare(sql: string): { get(): unknown } }): string {
  return JSON.stringify(db.prepare('SELECT count(*) AS n, max(id) AS last, total(size) AS bytes, total(mtime_ms) AS times FROM files').get());
}

const fileText = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : null);

/**
 * The roots' configuration as one string: saved roots, --root folders, the default folders that exist, the user's
 * prices (pricing.json: a start reports a bad one), app, index and reading versions.
 */
export function configKey(dataDir: string, extraRoots: readonly string[], noDefaults: boolean, defaultPaths: readonly string[]): string {
  const saved = fileText(join(dataDir, 'roots.json'));
  const pricing = fileText(join(dataDir, 'pricing.json'));
  const defaults = noDefaults ? [] : defaultPaths.map((path) => `${path}:${existsSync(path)}`);
  return JSON.stringify({ appVersion, schema: SCHEMA_VERSION, reading: READING_VERSION, saved, pricing, extra: [...extraRoots].sort(), noDefaults, defaults });
}

/**
 * The tools' default folders, asking every reader (roots/default-roots.ts, loaded only now: it loads every reader)
 * through an environment that notes which variables they read.
 */
export async function discoverDefaults(env: NodeJS.ProcessEnv): Promise<DefaultsSeen> {
  const { defaultRootCandidates } = await import('../roots/default-roots.ts');
  const vars: Record<string, string | null> = {};
  const note = (name: string | symbol) => {
    if (typeof name === 'string') vars[name] = env[name] ?? null;
  };
  const watched = new Proxy(env, {
    get: (target, name) => (note(name), Reflect.get(target, name)),
    has: (target, name) => (note(name), Reflect.has(target, name)),
    // A reader that looks through every variable depends on all of them.
    ownKeys: (target) => {
      for (const name of Reflect.ownKeys(target)) note(name);
      return Reflect.ownKeys(target);
    },
  });
  const paths = defaultRootCandidates(watched).map((r) => r.path);
  // A relative override (HERMES_HOME=sessions) names another folder from another working directory.
  const relative = Object.values(vars).some((v) => v?.split(',').some((part) => part.trim() !== '' && !isAbsolute(part.trim())));
  return { vars, cwd: relative ? process.cwd() : null, paths };
}

/** The default folders as the snapshot saw them when the variables that decided them are as they were; else asked again. */
async function defaultsNow(seen: DefaultsSeen | null | undefined, env: NodeJS.ProcessEnv): Promise<DefaultsSeen> {
  const same =
    seen &&
    typeof seen.vars === 'object' &&
    Array.isArray(seen.paths) &&
    Object.entries(seen.vars).every(([name, value]) => (env[name] ?? null) === value) &&
    (seen.cwd === null || seen.cwd === process.cwd());
  return same ? seen : discoverDefaults(env);
}

export function readSnapshot(dataDir: string): ScanSnapshot | null {
  try {
    const parsed = JSON.parse(readFileSync(join(dataDir, SNAPSHOT_FILE), 'utf8')) as ScanSnapshot;
    return parsed.layout === SNAPSHOT_LAYOUT && typeof parsed.config === 'string' && Array.isArray(parsed.roots) && Array.isArray(parsed.folders)
      ? parsed
      : null;
  } catch {
    return null;
  }
}

/**
 * What changed on disk since the last full run's snapshot (snapshot-changes.ts), when the roots' configuration is the
 * one that run recorded; null without a snapshot, with another configuration, or when only a walk can tell.
 */
export async function checkChanges(dataDir: string, options: RootsOptions, env: NodeJS.ProcessEnv): Promise<FoundChanges | null> {
  const snapshot = readSnapshot(dataDir);
  if (!snapshot) return null;
  const defaults = options.noDefaults ? [] : (await defaultsNow(snapshot.defaults, env)).paths;
  if (snapshot.config !== configKey(dataDir, options.roots, options.noDefaults, defaults)) return null;
  const checkedAt = Date.now();
  const changes = changesSince(snapshot.folders);
  return changes && { dataDir, snapshot, folders: changes.folders, changed: changes.changed, checkedAt };
}

/** What the last check found changed on disk since the snapshot it read, for the full run that follows (changesFound). */
export interface FoundChanges {
  dataDir: string;
  snapshot: ScanSnapshot;
  /** The snapshot's folders as the check found them on disk. */
  folders: Folder[];
  /** How many folders and files changed (0: none). */
  changed: number;
  /** When the check began: a file or folder whose time is this recent may change again within its clock's tick. */
  checkedAt: number;
}

let lastFound: FoundChanges | null = null;

/**
 * What openCurrentIndex found on disk, when the configuration was the snapshot's but the index could not answer as it
 * is (files changed, text waits, ...): the full run scans these files instead of walking the roots, and patches the
 * snapshot instead of walking them again (scan-snapshot.ts). Null when no check ran for this data folder.
 */
export function changesFound(dataDir: string): FoundChanges | null {
  const found = lastFound?.dataDir === dataDir ? lastFound : null;
  lastFound = null;
  return found;
}

export interface RootsOptions {
  /** --root folders, resolved against the working directory. */
  roots: readonly string[];
  noDefaults: boolean;
}

export interface CurrentIndex {
  /** The index file, opened read-only. Close it when done. */
  db: DatabaseSync;
  /** The folders the last full run read (the vault's own not among them). */
  roots: string[];
  /** Whether text a list-only run left waits for the full-text tables (a search or a usage query must scan then). */
  textPending: boolean;
}

/**
 * The index opened read-only when it is current: a snapshot exists, the configuration and every folder and file below
 * the roots are as it recorded them, the index has this schema and the files that run left. Null otherwise: the
 * caller takes the full path (services, scan), which sees every change.
 */
export async function openCurrentIndex(dataDir: string, options: RootsOptions, env: NodeJS.ProcessEnv): Promise<CurrentIndex | null> {
  lastFound = null;
  const found = await checkChanges(dataDir, options, env);
  lastFound = found;
  if (!found || found.changed) return null;
  const { snapshot } = found;
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(join(dataDir, INDEX_FILE), { readOnly: true });
  } catch {
    return null;
  }
  try {
    if ((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version !== SCHEMA_VERSION) throw new Error('another schema');
    // Another command may have scanned other folders into the index since: then the full start sorts it out.
    if (indexSignature(db) !== snapshot.index) throw new Error('other files');
    const pending = db.prepare('SELECT EXISTS (SELECT 1 FROM fts_pending) OR EXISTS (SELECT 1 FROM idents_pending) AS y').get() as { y: number };
    return { db, roots: snapshot.roots, textPending: pending.y === 1 };
  } catch {
    db.close();
    return null;
  }
}
