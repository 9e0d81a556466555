// `pushSessions`: sends sessions to a team store as Share would bundle them (normalized, secrets redacted), only those that changed, a batch per transaction.
import type { ClientBase } from 'pg';
import type { Session } from '../../shared/session.ts';
import type { Finding } from '../bundle/finding.ts';
import { prepareSession, scanContext } from '../bundle/prepare-session.ts';
import { currentAccount } from './accounts.ts';
import { sessionRow, type SessionRow } from './session-row.ts';
import { isAccessDenied, TeamStoreError } from './team-errors.ts';
import { qualified } from './team-names.ts';
import { writeBatch } from './write-batch.ts';

export interface PushOptions {
  /** A connection whose schema is current (connectTeam). */
  client: ClientBase;
  /** The machine label every pushed row carries. */
  machine: string;
  keys: string[];
  /** Reads a session by key (the vault's or a root's; the services' `bundles.load`). */
  load: (key: string) => Promise<Session>;
  /** Whose environment's values count as secrets, as in Share. */
  env: NodeJS.ProcessEnv;
  /** Finding ids to leave in place: false positives, as Share's `--keep`. */
  keep?: string[];
  /** Scan and compare only: nothing is written. */
  dryRun?: boolean;
  /** A batch closes at this many sessions or this many bytes of session.json, whichever comes first. */
  batchSessions?: number;
  batchBytes?: number;
  onProgress?: (progress: PushProgress) => void;
}

export interface PushProgress {
  done: number;
  total: number;
  pushed: number;
}

export interface PushReport {
  machine: string;
  /** The account (database user) the rows carry as `pushed_by`. */
  account: string;
  dryRun: boolean;
  /** Sessions sent (or, in a dry run, that would be). */
  pushed: string[];
  /** Sessions the store already has byte-for-byte: nothing was sent for them. */
  unchanged: string[];
  /** Sessions that could not be read, with the reason. */
  skipped: Array<{ key: string; reason: string }>;
  /** Bytes of session.json sent. */
  bytes: number;
  batches: number;
  /** Every secret the scan found; those not kept were redacted before anything left the machine. */
  findings: Finding[];
}

const MACHINE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/** Checks, before anything is read, that this connection's account may push as `machine`: refused by the app here, and by the database's policies anyway. */
async function checkPusher(client: ClientBase, machine: string): Promise<string> {
  if (!MACHINE.test(machine)) throw new TeamStoreError(`"${machine}" cannot be a machine label: use up to 63 letters, digits, ".", "_" or "-".`);
  const user = (await client.query<{ user: string }>('SELECT current_user AS user')).rows[0]?.user ?? '';
  const account = await currentAccount(client);
  if (!account) throw new TeamStoreError(`The database user "${user}" has no account in this team store; ask its owner to add one.`);
  if (account.revoked) throw new TeamStoreError(`The account "${account.name}" was revoked; ask the team store's owner for a new one.`);
  if (account.role === 'viewer') throw new TeamStoreError(`The account "${account.name}" is a viewer: it may read the team store, not push to it.`);
  const owner = (await client.query<{ account: string }>(`SELECT account FROM ${qualified('machines')} WHERE label = $1`, [machine])).rows[0]?.account;
  if (owner !== undefined && owner !== account.name) {
    throw new TeamStoreError(`The machine "${machine}" belongs to ${owner}: push as a machine of your own (--machine NAME).`);
  }
  return account.name;
}

/** What a failed batch write means for the user: what is stored, and that pushing again finishes it. */
function batchFailure(err: unknown, pushed: number, machine: string): Error {
  if (isAccessDenied(err))
    return new TeamStoreError(
      `The team store refused the push: the account may not write the machine "${machine}"'s sessions. Nothing of the refused batch was stored.`,
    );
  const reason = (err as { message?: string } | null)?.message ?? String(err);
  return new TeamStoreError(
    `The push stopped after ${pushed} session(s) were stored: ${reason}. The batch it was writing was not stored at all; push again to send the rest (what is stored is not sent again).`,
  );
}

/**
 * Pushes `keys` as `machine`. Each session is serialized and scanned exactly as Share does (prepareSession with
 * the same scan context, so the same findings and ids), and what goes out is the redacted session.json; its
 * SHA-256 is compared with the stored one and an unchanged session sends nothing. Changed ones go in batches,
 * each one transaction; the next batch is prepared while one is being written.
 */
export async function pushSessions(options: PushOptions): Promise<PushReport> {
  const { client, machine, load, env } = options;
  const account = await checkPusher(client, machine);
  const keys = [...new Set(options.keys)];
  const maxSessions = options.batchSessions ?? 200;
  const maxBytes = options.batchBytes ?? 32 * 1024 * 1024;
  const stored = new Map(
    (
      await client.query<{ key: string; content_hash: string }>(`SELECT key, content_hash FROM ${qualified('sessions')} WHERE machine = $1`, [machine])
    ).rows.map((r) => [r.key, r.content_hash]),
  );
  const report: PushReport = { machine, account, dryRun: options.dryRun === true, pushed: [], unchanged: [], skipped: [], bytes: 0, batches: 0, findings: [] };
  let committed = 0;
  let writing: Promise<unknown> | null = null;
  let batch: SessionRow[] = [];
  let batchBytes = 0;
  const settle = async () => {
    const failed = writing ? await writing : null;
    writing = null;
    if (failed) throw batchFailure(failed, committed, machine);
  };
  const send = async () => {
    if (!batch.length) return;
    const rows = batch;
    batch = [];
    batchBytes = 0;
    await settle();
    report.batches++;
    if (report.dryRun) return;
    writing = writeBatch(client, machine, rows).then(
      () => {
        committed += rows.length;
        return null;
      },
      (err: unknown) => err ?? new Error('write failed'),
    );
  };
  for (const [i, key] of keys.entries()) {
    let session: Session;
    try {
      session = await load(key);
    } catch (err) {
      report.skipped.push({ key, reason: (err as Error).message ?? String(err) });
      continue;
    }
    const prepared = await prepareSession(session, scanContext(env, options.keep ?? []), true);
    report.findings.push(...prepared.findings);
    const json = (prepared.json as Buffer).toString('utf8');
    // The store's key is the session's own key (its title and text may have been redacted, never its key).
    if (stored.get(session.key) === prepared.sha256) report.unchanged.push(session.key);
    else {
      const row = sessionRow(json, prepared.sha256, prepared.size);
      report.pushed.push(row.key);
      report.bytes += prepared.size;
      batch.push(row);
      batchBytes += prepared.size;
      if (batch.length >= maxSessions || batchBytes >= maxBytes) await send();
    }
    options.onProgress?.({ done: i + 1, total: keys.length, pushed: report.pushed.length });
  }
  await send();
  await settle();
  return report;
}
