// Share's exports over a team store: the same bundle, Markdown and HTML exports (scanned again on the way), each session read from the store with its stored source files.
import type { AppEvent } from '../../shared/api.ts';
import { AppError } from '../../shared/result.ts';
import type { Session } from '../../shared/session.ts';
import { BundleService } from '../bundle/bundle-service.ts';
import { prepareSession, scanContext, type InlineSource } from '../bundle/prepare-session.ts';
import type { ClosableLoader } from '../bundle/worker-loader.ts';
import { SessionFileCheck } from '../roots/session-files.ts';
import { splitTeamKey, teamKey, type TeamReader } from './team-reader.ts';

/** A team session as it was pushed: its own key and its relatives' (a bundle made from it imports like one made on its machine). */
function asPushed(session: Session, machine: string): Session {
  const strip = (k: string) => (k.startsWith(`${machine}/`) ? k.slice(machine.length + 1) : k);
  return {
    ...session,
    key: strip(session.key),
    parentKey: session.parentKey === null ? null : strip(session.parentKey),
    childKeys: session.childKeys.map(strip),
  };
}

/**
 * Prepares team sessions for a bundle as the app's loader prepares local ones: session.json serialized and scanned
 * (the store's copy was redacted when pushed; the export scans it again, with this user's kept findings), and the
 * stored source files as the session's files (never a path on this machine). A sub-agent named by a session's
 * childKeys is looked up on the same machine.
 */
export function teamLoader(reader: TeamReader): ClosableLoader {
  const machineOf = new Map<string, string>();
  return {
    prepare: async (key, scan) => {
      const where = splitTeamKey(key) ?? (machineOf.has(key) ? { machine: machineOf.get(key) as string, key } : null);
      if (!where) throw new AppError('NOT_FOUND', `"${key}" is not a team session's key (machine/key).`, 'keys');
      const full = teamKey(where.machine, where.key);
      const session = asPushed(await reader.session(full), where.machine);
      for (const child of session.childKeys) machineOf.set(child, where.machine);
      const inline: InlineSource[] = [];
      for (const file of await reader.files(full)) {
        const bytes = await reader.fileBytes(full, file.path);
        if (bytes) inline.push({ path: file.path, bytes, mtimeMs: file.mtimeMs ?? 0, role: file.role as InlineSource['role'] });
      }
      const prepared = await prepareSession(session, scan ? scanContext(scan.env, scan.keep) : null, scan?.emit ?? true);
      return inline.length ? { ...prepared, inline } : prepared;
    },
    close: async () => undefined,
  };
}

/** The bundle methods (review scan, export, reading an export) over a team store; imports are refused by the caller. */
export class TeamBundleService extends BundleService {
  private readonly reader: TeamReader;

  constructor(reader: TeamReader, dataDir: string, env: NodeJS.ProcessEnv, emit: (event: AppEvent) => void) {
    super({
      dataDir,
      env,
      load: (key) => reader.session(key),
      locate: () => {
        throw new AppError('NOT_FOUND', 'A team session has no file on this machine.');
      },
      known: () => false,
      // No folder of this machine is a team session's: its files come from the store (openLoader below).
      files: new SessionFileCheck(() => []),
      rescanVault: async () => undefined,
      emit,
    });
    this.reader = reader;
  }

  override openLoader(): ClosableLoader {
    return teamLoader(this.reader);
  }
}
