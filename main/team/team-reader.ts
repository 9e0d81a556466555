// Reads a team store for browsing: pages of sessions (the app's search syntax), one session's redacted session.json, its source files; keys say the machine.
import type pg from 'pg';
import type { ClientBase } from 'pg';
import type { Session, SessionSummary } from '../../shared/session.ts';
import { AppError } from '../../shared/result.ts';
import { splitTeamKey, teamKey } from '../../shared/team-keys.ts';
import { assembleSession } from './session-chunks.ts';
import { qualified } from './team-names.ts';
export { splitTeamKey, teamKey } from '../../shared/team-keys.ts';
import { searchTeam, type TeamHit, type TeamSearchPage, type TeamSearchResult } from './team-search.ts';
import { withPoolClient } from './pool-client.ts';

/** A team hit as a row of the app's list: marked with its machine, kept (it is in the store), with the team's note mark and no local marks. */
export function teamSummary(hit: TeamHit): SessionSummary {
  const updated = hit.updatedAt ?? hit.createdAt;
  return {
    key: teamKey(hit.machine, hit.key),
    id: hit.key.slice(hit.key.indexOf(':') + 1),
    format: hit.format as SessionSummary['format'],
    title: hit.title,
    projectPath: hit.projectPath,
    projectName: hit.projectName,
    branch: hit.branch,
    createdAt: hit.createdAt,
    updatedAt: hit.updatedAt,
    status: (hit.status ?? 'unknown') as SessionSummary['status'],
    outcomeStatus: hit.outcome,
    outcomeSummary: null,
    model: hit.model,
    messageCount: hit.messageCount,
    toolCallCount: 0,
    totalTokens: hit.totalTokens,
    costUsd: hit.costUsd,
    parentKey: hit.parentKey === null ? null : teamKey(hit.machine, hit.parentKey),
    childCount: 0,
    warningCount: 0,
    kept: true,
    sourceGone: false,
    starred: false,
    tags: [],
    hasNote: hit.hasNote,
    primaryPath: `${hit.machine}:${hit.projectPath ?? hit.key}`,
    size: hit.sizeBytes,
    mtimeMs: updated ? Date.parse(updated) : 0,
    unreadable: null,
    machine: hit.machine,
  };
}

/** A stored session as the app opens it: the redacted session.json, its own keys and its relatives' made team keys. */
function asTeamSession(session: Session, machine: string): Session {
  return {
    ...session,
    key: teamKey(machine, session.key),
    parentKey: session.parentKey === null ? null : teamKey(machine, session.parentKey),
    childKeys: session.childKeys.map((k) => teamKey(machine, k)),
  };
}

/**
 * A stored session as it was pushed (its own keys), from its head and message chunks, read in one repeatable-read
 * snapshot so a push committing meanwhile cannot mix two versions; null when the store does not have it.
 */
export async function storedSession(client: ClientBase, machine: string, key: string): Promise<Session | null> {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    const head = (
      await client.query<{ session_head: string }>(`SELECT session_head FROM ${qualified('sessions')} WHERE machine = $1 AND key = $2`, [machine, key])
    ).rows[0];
    if (!head) return null;
    const { rows } = await client.query<{ body: string }>(`SELECT body FROM ${qualified('session_messages')} WHERE machine = $1 AND key = $2 ORDER BY chunk`, [
      machine,
      key,
    ]);
    return assembleSession(
      head.session_head,
      rows.map((r) => r.body),
    );
  } finally {
    await client.query('COMMIT').catch(() => undefined);
  }
}

export interface TeamFile {
  path: string;
  role: string;
  size: number;
  mtimeMs: number | null;
}

/** How many parsed sessions stay in memory, for the message windows that follow an open. */
const KEEP_PARSED = 4;

export class TeamReader {
  private readonly pool: pg.Pool;
  private readonly parsed = new Map<string, Promise<Session>>();

  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  private withClient<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return withPoolClient(this.pool, work);
  }

  search(query: string, page: TeamSearchPage): Promise<TeamSearchResult> {
    return this.withClient((client) => searchTeam(client, query, page));
  }

  private where(key: string): { machine: string; key: string } {
    const parts = splitTeamKey(key);
    if (!parts) throw new AppError('NOT_FOUND', `"${key}" is not a team session's key (machine/key).`, 'key');
    return parts;
  }

  /** The whole session (every message), read once and kept for a few more calls. */
  session(key: string): Promise<Session> {
    const cached = this.parsed.get(key);
    if (cached) {
      this.parsed.delete(key);
      this.parsed.set(key, cached);
      return cached;
    }
    const { machine, key: stored } = this.where(key);
    const loading = this.withClient(async (client) => {
      const session = await storedSession(client, machine, stored);
      if (!session) throw new AppError('NOT_FOUND', `The team store has no session ${stored} from ${machine}.`, 'key');
      return asTeamSession(session, machine);
    });
    this.parsed.set(key, loading);
    loading.catch(() => this.parsed.delete(key));
    while (this.parsed.size > KEEP_PARSED) this.parsed.delete(this.parsed.keys().next().value as string);
    return loading;
  }

  /** The session's source files the store holds (none when it was pushed with --no-sources). */
  files(key: string): Promise<TeamFile[]> {
    const { machine, key: stored } = this.where(key);
    return this.withClient(async (client) => {
      const { rows } = await client.query<{ path: string; role: string; size: string; mtime_ms: number | null }>(
        `SELECT path, role, size, mtime_ms FROM ${qualified('session_files')} WHERE machine = $1 AND key = $2 ORDER BY (role <> 'primary'), path`,
        [machine, stored],
      );
      return rows.map((r) => ({ path: r.path, role: r.role, size: Number(r.size), mtimeMs: r.mtime_ms }));
    });
  }

  /** A stored source file's bytes (its redacted parts, joined), or null when the store does not have it. */
  fileBytes(key: string, path: string): Promise<Buffer | null> {
    const { machine, key: stored } = this.where(key);
    return this.withClient(async (client) => {
      const { rows } = await client.query<{ bytes: Buffer }>(
        `SELECT bytes FROM ${qualified('file_parts')} WHERE machine = $1 AND key = $2 AND path = $3 ORDER BY part`,
        [machine, stored, path],
      );
      return rows.length ? Buffer.concat(rows.map((r) => r.bytes)) : null;
    });
  }
}
