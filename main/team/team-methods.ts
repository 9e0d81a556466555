// The app's contract over a team store: list, search, open, raw files, compare and export team sessions, and the team's shared notes and summaries; every change to a session is refused.
import type { ServiceMethods } from '../../shared/api.ts';
import { METHOD_NAMES } from '../../shared/method-names.ts';
import { compareSessions } from '../../shared/compare/compare.ts';
import { AppError } from '../../shared/result.ts';
import { emptyFacets } from '../../shared/search-api.ts';
import type { Session } from '../../shared/session.ts';
import { appVersion } from '../env/app-version.ts';
import { RAW_RECORD_LIMIT, resolvePointer } from '../raw/raw-record.ts';
import { completeUtf8Length } from '../raw/raw-source.ts';
import { ownSummaryRecord } from '../vault/summary-methods.ts';
import type { TeamBundleService } from './team-bundles.ts';
import type { StoredKey, TeamNotes } from './team-notes.ts';
import { splitTeamKey, teamSummary, type TeamReader } from './team-reader.ts';
import { withoutNul } from './without-nul.ts';

export interface TeamMethodsOptions {
  reader: TeamReader;
  bundles: TeamBundleService;
  /** The team's shared notes, tags and summaries. */
  notes: TeamNotes;
  /** The store's URL without its password, shown as where the sessions come from. */
  store: string;
}

function readOnly(method: string): () => Promise<never> {
  return async () => {
    throw new AppError(
      'CONFLICT',
      `The team store is served read-only: ${method} is not available here. Sessions are pushed from each machine's own app (session-vault team push).`,
    );
  };
}

/** The source file `fileIndex` of a session, as the store holds it (pushed with --no-sources: none). */
async function storedFile(reader: TeamReader, key: string, fileIndex: number): Promise<{ path: string; bytes: Buffer }> {
  const session = await reader.session(key);
  const file = session.sourceFiles[fileIndex];
  if (!file) throw new AppError('NOT_FOUND', `Session has no source file number ${fileIndex}.`, 'fileIndex');
  const bytes = await reader.fileBytes(key, file.path);
  if (!bytes) throw new AppError('NOT_FOUND', `The team store does not hold ${file.path}: the session was pushed without its source files.`, 'fileIndex');
  return { path: file.path, bytes };
}

function bounded(path: string, text: string) {
  return text.length > RAW_RECORD_LIMIT ? { path, text: text.slice(0, RAW_RECORD_LIMIT), truncated: true } : { path, text, truncated: false };
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** The stored session a team key names (`<machine>/<key>`). */
function storedKey(key: string): StoredKey {
  const parts = splitTeamKey(key);
  if (!parts) throw new AppError('NOT_FOUND', `"${key}" is not a team session's key (machine/key).`, 'key');
  return parts;
}

function opened(session: Session, limit: number) {
  return { ...session, messages: session.messages.slice(0, limit), messagesTotal: session.messages.length };
}

/**
 * Every method of the contract: those that read answer from the store (keys are `<machine>/<key>`, rows carry
 * their machine); a session's note, tags and summary are the team's, shared, written by members and admins
 * (`TeamNotes`); those that change anything else are refused with a sentence saying why, and the local-only ones
 * (roots, trash, settings, usage) answer as for an empty vault.
 */
export function teamMethods(options: TeamMethodsOptions): ServiceMethods {
  const { reader, bundles, notes, store } = options;
  /** The team's summary, else the one the pushed session carries. */
  const summaryOf = async (key: string) => (await notes.summary(storedKey(key))) ?? ownSummaryRecord(await reader.session(key));
  const refused = Object.fromEntries(METHOD_NAMES.map((name) => [name, readOnly(name)])) as unknown as ServiceMethods;
  const bundleMethods = bundles.methods();
  const implemented: Partial<ServiceMethods> = {
    getAppInfo: async () => ({ version: appVersion, dataDir: store, shell: 'web', demoRootPath: null }),
    listSessions: async ({ text, format, limit, offset, starred, kept, tag, keys }) => {
      if (starred || kept === false) return { sessions: [], total: 0 };
      const only = keys?.flatMap((k) => splitTeamKey(k) ?? []);
      // A tag with a double quote in it cannot be written as a tag: filter (nor typed in the search box): it lists nothing.
      if (tag?.includes('"')) return { sessions: [], total: 0 };
      const query = [text ? JSON.stringify(text) : '', format ? `source:${format}` : '', tag ? `tag:"${tag}"` : ''].filter(Boolean).join(' ');
      // A list's total is exact: it pages through every session.
      const found = await reader.search(query, { limit: limit ?? 100_000, offset: offset ?? 0, countUpTo: null, ...(only ? { only } : {}) });
      return { sessions: found.hits.map(teamSummary), total: found.total };
    },
    searchSessions: async ({ query, limit, offset, sort, facets }) => {
      const t0 = performance.now();
      const found = await reader.search(query, { limit, offset, snippets: true, ...(facets ? { facets: true } : {}), ...(sort ? { sort } : {}) });
      return {
        results: found.hits.map((h) => ({ summary: teamSummary(h), snippet: h.snippet ?? [], messageIndex: h.messageIndex, score: h.score })),
        total: found.total,
        ...(found.totalCapped ? { totalCapped: true } : {}),
        problems: found.problems,
        tookMs: performance.now() - t0,
        ...(facets ? { facets: found.facets ?? emptyFacets() } : {}),
      };
    },
    getSession: async ({ key, messageLimit }) => opened(await reader.session(key), messageLimit),
    getMessages: async ({ key, offset, limit }) => {
      const session = await reader.session(key);
      return { offset, messages: session.messages.slice(offset, offset + limit), total: session.messages.length };
    },
    getRawSource: async ({ key, fileIndex, offset, length }) => {
      const { path, bytes } = await storedFile(reader, key, fileIndex);
      const window = bytes.subarray(Math.min(offset, bytes.length), Math.min(bytes.length, offset + length));
      const more = offset + window.length < bytes.length;
      const keep = more ? completeUtf8Length(window) : window.length;
      return { path, size: bytes.length, offset, nextOffset: offset + keep, text: window.subarray(0, keep).toString('utf8'), truncated: more };
    },
    getRawRecord: async ({ key, fileIndex, line, pointer }) => {
      const { path, bytes } = await storedFile(reader, key, fileIndex);
      const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
      if (line !== undefined) {
        const found = text.split('\n')[line - 1];
        if (found === undefined) throw new AppError('NOT_FOUND', `${path} has no line ${line}.`, 'line');
        return bounded(path, pretty(found.replace(/\r$/, '')));
      }
      let doc: unknown;
      try {
        doc = JSON.parse(text);
      } catch {
        throw new AppError('UNREADABLE', `${path} is not a JSON document, so a pointer cannot be resolved in it.`);
      }
      return bounded(path, JSON.stringify(resolvePointer(doc, pointer ?? ''), null, 2));
    },
    compareSessions: async ({ a, b }) => compareSessions(await reader.session(a), await reader.session(b)),
    listRoots: async () => [],
    getIndexProgress: async () => ({ phase: 'idle', filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0, etaMs: null }),
    getVaultStatus: async ({ key }) => {
      await reader.session(key);
      return { annotations: await notes.notes(storedKey(key)), keptPath: null, keptAt: null, liveSourcePath: null };
    },
    setAnnotations: async ({ key, ...change }) => notes.setNotes(storedKey(key), change),
    getVaultSettings: async () => ({ autoKeep: false }),
    getResumeInfo: async () => ({ command: null, cwd: null, available: false, reason: 'A team session is resumed on the machine it came from.' }),
    listTrash: async () => [],
    getSummary: async ({ key }) => ({ summary: await summaryOf(key) }),
    // Written as the signed-in account, whatever author the window names: the store records who wrote it.
    setSummary: async ({ key, summary }) => ({ summary: (await notes.setSummary(storedKey(key), summary)) ?? ownSummaryRecord(await reader.session(key)) }),
    summaryStates: async ({ keys }) => {
      const stored = keys.map((key) => splitTeamKey(key));
      const states = await notes.summaryStates(stored.filter((k) => k !== null));
      return {
        states: keys.map((key, i) => {
          const at = stored[i];
          return { key, ...((at ? states.get(`${at.machine}\n${at.key}`) : undefined) ?? { source: null, author: null, updatedAt: null }) };
        }),
      };
    },
    takeOpenedBundles: async () => [],
    // The account signed in as and its role: the window offers a viewer no writing, rather than refusing it after.
    getTeamStatus: async () => {
      const account = await notes.account();
      return {
        store,
        machine: '',
        autoPush: false,
        hasToken: false,
        account: account?.name ?? null,
        role: account && !account.revoked ? account.role : null,
        error: account ? null : 'This database user has no account in the team store; ask its owner to add one.',
        lastPush: null,
        served: true,
      };
    },
    scanBundle: bundleMethods.scanBundle,
    exportBundle: bundleMethods.exportBundle,
    cancelExport: bundleMethods.cancelExport,
    readExport: bundleMethods.readExport,
  };
  return withoutNul({ ...refused, ...implemented } as ServiceMethods);
}
