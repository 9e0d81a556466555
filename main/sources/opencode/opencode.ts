// Reads OpenCode sessions: the SQLite store opencode.db (and channel stores opencode-<channel>.db), each session listed on its own, and the legacy storage/ JSON tree.
import type { Session } from '../../../shared/session.ts';
import { shellArg } from '../shell-quote.ts';
import { UnreadableError, type ContainedRead, type ContainerReader, type SourceReader } from '../types.ts';
import { claimsStorageSession, claimsStore, dataDirs, isStorageCompanion, type OpenCodeApp } from './opencode-layout.ts';
import { buildOpenCodeSession } from './opencode-session.ts';
import { listStore, loadStoreSession, storeRows } from './opencode-store.ts';
import { loadStoreSessions } from './opencode-store-many.ts';
import { loadStorageSession } from './opencode-storage.ts';

export const OPENCODE: OpenCodeApp = {
  format: 'opencode',
  label: 'OpenCode',
  dataDirName: 'opencode',
  command: 'opencode',
  // ccusage reads OPENCODE_DATA_DIR (a comma-separated list of data folders); claude-code-history-viewer OPENCODE_HOME.
  dataDirVariables: ['OPENCODE_DATA_DIR', 'OPENCODE_HOME'],
};

/** The store's sessions, each read on its own: the scan and the watcher list the store and read only what changed. */
export function storeContainer(app: OpenCodeApp): ContainerReader {
  return {
    isStore: (absPath) => claimsStore(app, absPath),
    list: (absPath) => listStore(absPath, app.label),
    readOne: async (absPath, id) => buildOpenCodeSession(await loadStoreSession(absPath, id, app.label), app),
    // A scan's batch: one query per table for all of them, each session built as soon as its rows are in.
    readMany: (absPath, ids, each) =>
      loadStoreSessions(absPath, ids, app.label, (id, rows) => {
        if (rows instanceof Error) return each({ id, error: rows });
        let read: ContainedRead;
        try {
          read = { id, session: buildOpenCodeSession(rows, app) };
        } catch (err) {
          read = { id, error: err };
        }
        return each(read);
      }),
    rows: (absPath, id) => storeRows(absPath, id, app.label),
  };
}

/** A store read as one file: its only session, or why it cannot be (each of several is listed on its own). */
export async function readOnlySession(container: ContainerReader, absPath: string): Promise<Session> {
  const sessions = await container.list(absPath);
  const only = sessions[0];
  if (sessions.length === 1 && only) return container.readOne(absPath, only.id);
  if (!sessions.length) throw new UnreadableError('empty_file', 'This store holds no sessions.');
  throw new UnreadableError('wrong_shape', `This store holds ${sessions.length} sessions; each is listed on its own.`);
}

/** A reader for OpenCode's layouts under a tool's own name (OpenCode itself, Kilo). */
export function openCodeFamilyReader(app: OpenCodeApp): SourceReader {
  const container = storeContainer(app);
  return {
    format: app.format,
    capabilities: { tokens: true, recordedCost: true, subAgents: true, toolResults: true, thinking: true, images: true },
    defaultRoots: (env, home) => dataDirs(app, env, home),
    // `opencode --session <id>` (opencode.ai/docs/cli: "-s, --session: session ID to continue"); a sub-session resumes on its own id.
    resumeCommand: (s) => `${app.command} --session ${shellArg(s.id)}`,
    claims: (absPath) => claimsStore(app, absPath) || claimsStorageSession(app, absPath),
    companion: (absPath) => isStorageCompanion(app, absPath),
    read: (absPath) => (claimsStore(app, absPath) ? readOnlySession(container, absPath) : readStorageFile(absPath, app)),
    container,
  };
}

async function readStorageFile(absPath: string, app: OpenCodeApp): Promise<Session> {
  return buildOpenCodeSession(await loadStorageSession(absPath, app.label), app);
}

export const openCodeReader = openCodeFamilyReader(OPENCODE);
