// The team's shared notes, tags and summaries of its sessions: read by everyone, written by members and admins as themselves, refused plainly to viewers.
import type pg from 'pg';
import type { ClientBase } from 'pg';
import { AppError } from '../../shared/result.ts';
import type { SummaryFields, SummaryRecord, SummaryState } from '../../shared/summary-api.ts';
import type { Annotations } from '../../shared/vault-api.ts';
import { currentAccount, type TeamAccount } from './accounts.ts';
import { isAccessDenied, sqlState } from './team-errors.ts';
import { qualified } from './team-names.ts';
import { withPoolClient } from './pool-client.ts';

/** A session of the store, by its machine and its own key (as pushed). */
export interface StoredKey {
  machine: string;
  key: string;
}

/** What a change of a team session's note or tags may carry (stars are each person's own, never shared). */
export interface NotesChange {
  starred?: boolean;
  tags?: string[];
  note?: string;
}

const NO_NOTES: Annotations = { starred: false, tags: [], note: '', updatedAt: null };

/** A note's tags as the vault keeps them: trimmed, empty ones dropped, each once, sorted. */
const noteTags = (tags: readonly string[]) => [...new Set(tags.map((t) => t.trim()).filter(Boolean))].sort();

/** A summary's tags as the vault keeps them: a tag repeated in another case is one tag (its last spelling), in the order given. */
const summaryTags = (tags: readonly string[]) => [...new Map(tags.map((t) => [t.toLowerCase(), t] as const)).values()];

interface NotesRow {
  note: string;
  tags: string[];
  written_at: Date;
}

interface SummaryRow {
  overview: string;
  decisions: string[];
  outcomes: string[];
  open_items: string[];
  tags: string[];
  written_by: string;
  written_at: Date;
}

/** A session's shared note and tags, or none (never starred: stars stay on each machine). */
export async function readNotes(client: ClientBase, at: StoredKey): Promise<Annotations> {
  const row = (
    await client.query<NotesRow>(`SELECT note, tags, written_at FROM ${qualified('session_annotations')} WHERE machine = $1 AND key = $2`, [at.machine, at.key])
  ).rows[0];
  return row ? { starred: false, tags: row.tags, note: row.note, updatedAt: row.written_at.toISOString() } : NO_NOTES;
}

/** The team's summary of a session, by whom and when; null when nobody wrote one. */
export async function readSummary(client: ClientBase, at: StoredKey): Promise<SummaryRecord | null> {
  const row = (
    await client.query<SummaryRow>(
      `SELECT overview, decisions, outcomes, open_items, tags, written_by, written_at FROM ${qualified('session_summaries')} WHERE machine = $1 AND key = $2`,
      [at.machine, at.key],
    )
  ).rows[0];
  if (!row) return null;
  return {
    overview: row.overview,
    decisions: row.decisions,
    outcomes: row.outcomes,
    openItems: row.open_items,
    tags: row.tags,
    source: 'vault',
    author: row.written_by,
    updatedAt: row.written_at.toISOString(),
  };
}

/**
 * Whether each of these sessions has a summary, and whose: the team's (who wrote it, when), else the one its pushed
 * session carries; keyed `machine\nkey`, sessions the store does not have left out.
 */
export async function readSummaryStates(client: ClientBase, keys: readonly StoredKey[]): Promise<Map<string, Omit<SummaryState, 'key'>>> {
  const { rows } = await client.query<{ machine: string; key: string; has_summary: boolean; written_by: string | null; written_at: Date | null }>(
    `SELECT s.machine, s.key, s.has_summary, m.written_by, m.written_at
       FROM ${qualified('sessions')} s LEFT JOIN ${qualified('session_summaries')} m ON m.machine = s.machine AND m.key = s.key
      WHERE (s.machine, s.key) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
    [keys.map((k) => k.machine), keys.map((k) => k.key)],
  );
  return new Map(
    rows.map((r) => [
      `${r.machine}\n${r.key}`,
      r.written_by
        ? { source: 'vault' as const, author: r.written_by, updatedAt: r.written_at?.toISOString() ?? null }
        : { source: r.has_summary ? ('session' as const) : null, author: null, updatedAt: null },
    ]),
  );
}

/**
 * Writes a session's note and tags as the signed-in account, in one statement (what the change leaves out stays as
 * the row has it, whoever wrote it meanwhile); a row left with neither is removed.
 */
export async function writeNotes(client: ClientBase, at: StoredKey, change: NotesChange): Promise<Annotations> {
  const table = qualified('session_annotations');
  const { rows } = await client.query<NotesRow>(
    `INSERT INTO ${table} AS a (machine, key, note, tags, written_by) VALUES ($1, $2, coalesce($3, ''), coalesce($4::text[], '{}'), current_user)
     ON CONFLICT (machine, key) DO UPDATE SET note = coalesce($3, a.note), tags = coalesce($4::text[], a.tags), written_by = current_user, written_at = now()
     RETURNING note, tags, written_at`,
    [at.machine, at.key, change.note ?? null, change.tags ? noteTags(change.tags) : null],
  );
  const row = rows[0] as NotesRow;
  if (!row.note && !row.tags.length) {
    await client.query(`DELETE FROM ${table} WHERE machine = $1 AND key = $2 AND note = '' AND tags = '{}'`, [at.machine, at.key]);
    return { ...NO_NOTES, updatedAt: row.written_at.toISOString() };
  }
  return { starred: false, tags: row.tags, note: row.note, updatedAt: row.written_at.toISOString() };
}

/** Writes (or with null removes) a session's summary as the signed-in account. */
export async function writeSummary(client: ClientBase, at: StoredKey, summary: SummaryFields | null): Promise<SummaryRecord | null> {
  const table = qualified('session_summaries');
  if (summary === null) {
    await client.query(`DELETE FROM ${table} WHERE machine = $1 AND key = $2`, [at.machine, at.key]);
    return null;
  }
  await client.query(
    `INSERT INTO ${table} (machine, key, overview, decisions, outcomes, open_items, tags, written_by) VALUES ($1, $2, $3, $4, $5, $6, $7, current_user)
     ON CONFLICT (machine, key) DO UPDATE SET overview = EXCLUDED.overview, decisions = EXCLUDED.decisions, outcomes = EXCLUDED.outcomes,
       open_items = EXCLUDED.open_items, tags = EXCLUDED.tags, written_by = current_user, written_at = now()`,
    [at.machine, at.key, summary.overview, summary.decisions, summary.outcomes, summary.openItems, summaryTags(summary.tags)],
  );
  return readSummary(client, at);
}

/** Foreign-key violation: the session is not (or no longer) in the store. */
const FOREIGN_KEY = '23503';

/**
 * Notes and summaries over a pool whose connections are read-only by default (`serve --team`, the app's Team
 * source): a write runs in a transaction opened READ WRITE, after checking the signed-in account may write, and
 * the database's own policies refuse whatever slips past (a viewer, a revoked account, another's name).
 */
export class TeamNotes {
  private readonly pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  private withClient<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return withPoolClient(this.pool, work);
  }

  /** The account this store's connections sign in as (its name and role), or null when that database user has none. */
  account(): Promise<TeamAccount | null> {
    return this.withClient((client) => currentAccount(client));
  }

  notes(at: StoredKey): Promise<Annotations> {
    return this.withClient((client) => readNotes(client, at));
  }

  summary(at: StoredKey): Promise<SummaryRecord | null> {
    return this.withClient((client) => readSummary(client, at));
  }

  summaryStates(keys: readonly StoredKey[]): Promise<Map<string, Omit<SummaryState, 'key'>>> {
    return keys.length ? this.withClient((client) => readSummaryStates(client, keys)) : Promise.resolve(new Map());
  }

  setNotes(at: StoredKey, change: NotesChange): Promise<Annotations> {
    if (change.starred)
      throw new AppError('CONFLICT', "A team session cannot be starred: stars are each machine's own. Its note and tags are shared with the team.", 'starred');
    return this.write(at, 'notes', (client) => writeNotes(client, at, change));
  }

  setSummary(at: StoredKey, summary: SummaryFields | null): Promise<SummaryRecord | null> {
    return this.write(at, 'summaries', (client) => writeSummary(client, at, summary));
  }

  private write<T>(at: StoredKey, what: 'notes' | 'summaries', work: (client: ClientBase) => Promise<T>): Promise<T> {
    return this.withClient(async (client) => {
      await client.query('BEGIN READ WRITE');
      try {
        const account = await currentAccount(client);
        const refusal = !account
          ? 'This database user has no account in the team store; ask its owner to add one.'
          : account.revoked
            ? `The account "${account.name}" was revoked: it can no longer write to the team store.`
            : account.role === 'viewer'
              ? `The account "${account.name}" is a viewer: it may read the team's notes and summaries, not write them. Ask an admin for the member role.`
              : null;
        if (refusal) throw new AppError('CONFLICT', refusal);
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        if (err instanceof AppError) throw err;
        if (isAccessDenied(err)) throw new AppError('CONFLICT', `The team store refused this account's write to its ${what}: it may only read them.`);
        if (sqlState(err) === FOREIGN_KEY) throw new AppError('NOT_FOUND', `The team store has no session ${at.key} from ${at.machine}.`, 'key');
        throw new AppError('IO_ERROR', `The team store could not save the ${what}: ${(err as Error).message}`);
      }
    });
  }
}
