// `pushSessions`: sends sessions to a team store as Share would bundle them (normalized, with their source files, secrets redacted), only what changed, a batch per transaction.
import { createHash } from 'node:crypto';
import type { ClientBase } from 'pg';
import type { Finding } from '../bundle/finding.ts';
import { scanContext, type JsonScan, type SessionLoader } from '../bundle/prepare-session.ts';
import { appVersion } from '../env/app-version.ts';
import { envSecrets } from '../recorder/redact.ts';
import { currentAccount } from './accounts.ts';
import type { PushLedger, SeenFile } from './push-ledger.ts';
import { readyToPush, unpackReady, type PushReady, type PushSpec } from './push-prepare.ts';
import { sessionsWithoutStarts, sessionWrite, storedChunks } from './stored-chunks.ts';
import { isAccessDenied, TeamStoreError } from './team-errors.ts';
import { qualified } from './team-names.ts';
import { writeBatch, type PushBatch } from './write-batch.ts';

export interface PushOptions {
  /** A connection whose schema is current (connectTeam). */
  client: ClientBase;
  /** The machine label every pushed row carries. */
  machine: string;
  keys: string[];
  /**
   * Prepares each session as Share does (parsed, serialized and scanned; the app's is the bundles' gated loader,
   * services.bundles.openLoader(): a worker of its own, the roots check, files named by their original paths).
   */
  loader: SessionLoader;
  /** Whose environment's values count as secrets, as in Share. */
  env: NodeJS.ProcessEnv;
  /** Finding ids to leave in place: false positives, as Share's `--keep`. */
  keep?: string[];
  /** Send each session's source files too, as a bundle carries them (default true). */
  sources?: boolean;
  /** Scan and compare only: nothing is written. */
  dryRun?: boolean;
  /**
   * Sessions the store does not have yet: `push` sends them; `hold` scans them and reports them and their findings
   * in `held`, sending nothing of them (the review before a first push).
   */
  newSessions?: 'push' | 'hold';
  /** What this machine pushed before, to pass over unchanged sessions without reading them; with `listing`. */
  ledger?: PushLedger;
  /** The catalogue's listing of a session (its summary as text): part of what tells the ledger it did not change. */
  listing?: (key: string) => string | undefined;
  /** A batch closes at this many sessions or this many bytes (session.json and file parts), whichever comes first. */
  batchSessions?: number;
  batchBytes?: number;
  /** Bytes of a stored part of a source file (default FILE_PART_BYTES, 1 MiB; tests make it small). */
  partBytes?: number;
  /** Characters of JSON at which a chunk of messages closes (default MESSAGE_CHUNK_CHARS, 64 Ki; tests make it small). */
  messageChunkChars?: number;
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
  /** Sessions the store already has as they are: nothing was sent for them. */
  unchanged: string[];
  /** Sessions the store does not have yet, held back for review (`newSessions: 'hold'`): nothing was sent for them. */
  held: string[];
  /** Sessions that could not be read, with the reason. */
  skipped: Array<{ key: string; reason: string }>;
  /**
   * Bytes sent: of session.json, its head and the message chunks the store did not have (all of it for a new
   * session; for one that grew, its changed tail); and the source-file parts the store did not have.
   */
  bytes: number;
  /** Source-file bytes among them (only parts the store did not have). */
  sourceBytes: number;
  batches: number;
  /** Message and search-text chunks sent, and those of the pushed sessions the store already had as they are (not sent). */
  chunks: { sent: number; kept: number };
  /** Every secret the scan found; those not kept were redacted before anything left the machine. */
  findings: Finding[];
}

const MACHINE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/** Sessions being prepared ahead of the one handled (their session.json held until handled). */
const PREPARE_AHEAD = 3;

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

/** The push was cut off by a failure of the connection or the server, not refused: pushing again (resuming) finishes it. */
export class PushInterrupted extends TeamStoreError {
  /** What the push had stored before it stopped (`pushed`: the sessions of committed batches only). */
  report?: PushReport;
  constructor(message: string) {
    super(message);
    this.name = 'PushInterrupted';
  }
}

/** What a failed batch write means for the user: what is stored, and that pushing again finishes it. */
function batchFailure(err: unknown, pushed: number, machine: string): Error {
  if (isAccessDenied(err))
    return new TeamStoreError(
      `The team store refused the push: the account may not write the machine "${machine}"'s sessions. Nothing of the refused batch was stored.`,
    );
  const reason = (err as { message?: string } | null)?.message ?? String(err);
  return new PushInterrupted(
    `The push stopped after ${pushed} session(s) were stored: ${reason}. The batch it was writing was not stored at all; push again to send the rest (what is stored is not sent again).`,
  );
}

/** Everything that changes what a push sends for the same files: a ledger entry made under other settings does not count. */
function settingsDigest(env: NodeJS.ProcessEnv, keep: string[], sources: boolean): string {
  const hash = createHash('sha256').update(`${appVersion}\0${sources}\0${[...keep].sort().join(',')}`);
  for (const value of envSecrets(env)
    .map((e) => e.value)
    .sort())
    hash.update(`\0${value}`);
  return hash.digest('hex');
}

/**
 * Pushes `keys` as `machine`. Each session is prepared exactly as Share prepares it (the same scan, the same
 * findings and ids), and what goes out is the redacted session.json and, unless `sources: false`, the redacted
 * source files in parts. A session is sent when the SHA-256 of its session.json differs from the stored one (or
 * its files were never sent, or its search text was pushed before the store kept where messages begin); of its
 * files, only parts the store does not have. With a ledger, sessions this machine pushed before and that did not
 * change (and whose search text has its message starts) are passed over without being read at all. Changed sessions go
 * in batches, each one transaction. The loader's worker does all of a session's preparing when it can (the roots
 * check, the scans, its files' parts, its row and search text: push-worker.ts), a few sessions ahead, and hands its
 * bodies over as UTF-8 bytes in one buffer; this thread compares hashes and writes, the next batch while one is written.
 */
export async function pushSessions(options: PushOptions): Promise<PushReport> {
  const { client, machine, loader, env } = options;
  const account = await checkPusher(client, machine);
  const keys = [...new Set(options.keys)];
  const keep = options.keep ?? [];
  const withSources = options.sources !== false;
  const maxSessions = options.batchSessions ?? 200;
  const maxBytes = options.batchBytes ?? 32 * 1024 * 1024;
  const settings = settingsDigest(env, keep, withSources);
  const jsonScan: JsonScan = { env: { ...env }, keep, emit: true };
  const shared = scanContext(env, keep);
  const { rows: storedRows } = await client.query<{ key: string; content_hash: string; files: number }>(
    `SELECT s.key, s.content_hash, (SELECT count(*)::int FROM ${qualified('session_files')} f WHERE f.machine = s.machine AND f.key = s.key) AS files
       FROM ${qualified('sessions')} s WHERE s.machine = $1`,
    [machine],
  );
  const stored = new Map(storedRows.map((r) => [r.key, r]));
  const withoutStarts = await sessionsWithoutStarts(client, machine);
  const report: PushReport = {
    machine,
    account,
    dryRun: options.dryRun === true,
    pushed: [],
    unchanged: [],
    held: [],
    skipped: [],
    bytes: 0,
    sourceBytes: 0,
    batches: 0,
    chunks: { sent: 0, kept: 0 },
    findings: [],
  };
  const listing = (key: string) => options.listing?.(key) ?? '';
  const ledger = options.listing ? options.ledger : undefined;

  let committed = 0;
  let writing: Promise<unknown> | null = null;
  let batch: PushBatch = { rows: [], files: [] };
  let batchSeen: Array<{ key: string; files: Array<string | SeenFile>; hash: string }> = [];
  let batchBytes = 0;
  const committedKeys: string[] = [];
  let committedBytes = 0;
  let committedSourceBytes = 0;
  let batchSourceBytes = 0;
  const committedChunks = { sent: 0, kept: 0 };
  let batchChunks = { sent: 0, kept: 0 };
  const settle = async () => {
    const failed = writing ? await writing : null;
    writing = null;
    if (!failed) return;
    const error = batchFailure(failed, committed, machine);
    if (error instanceof PushInterrupted)
      error.report = {
        ...report,
        pushed: [...committedKeys],
        bytes: committedBytes,
        sourceBytes: committedSourceBytes,
        chunks: { ...committedChunks },
        held: [],
        findings: [],
      };
    throw error;
  };
  const send = async () => {
    if (!batch.rows.length) return;
    const rows = batch;
    const seen = batchSeen;
    const bytes = batchBytes;
    const sourceBytes = batchSourceBytes;
    const chunks = batchChunks;
    batchChunks = { sent: 0, kept: 0 };
    batch = { rows: [], files: [] };
    batchSeen = [];
    batchBytes = 0;
    batchSourceBytes = 0;
    await settle();
    report.batches++;
    if (report.dryRun) return;
    writing = writeBatch(client, machine, rows).then(
      async () => {
        committed += rows.rows.length;
        committedKeys.push(...rows.rows.map((r) => r.row.key));
        committedBytes += bytes;
        committedSourceBytes += sourceBytes;
        committedChunks.sent += chunks.sent;
        committedChunks.kept += chunks.kept;
        if (ledger) for (const s of seen) await ledger.record(s.key, listing(s.key), s.files, s.hash, settings);
        return null;
      },
      (err: unknown) => err ?? new Error('write failed'),
    );
  };

  // Sessions to read: those the ledger cannot vouch for.
  const toRead: string[] = [];
  for (const key of keys) {
    if (ledger && !withoutStarts.has(key) && (await ledger.unchanged(key, listing(key), stored.get(key)?.content_hash, settings))) report.unchanged.push(key);
    else toRead.push(key);
  }
  // What the store holds of the sessions to read, by hash: of those that changed, only new and changed chunks go.
  const storedParts = await storedChunks(
    client,
    machine,
    toRead.filter((k) => stored.has(k)),
    withSources,
  );
  // What each session needs prepared: the loader's worker does it all when it can (team/push-worker.ts), else this thread.
  const specOf = (key: string): PushSpec => {
    const before = stored.get(key);
    const parts = storedParts.get(key)?.files;
    return {
      sources: withSources,
      row: !(before === undefined && options.newSessions === 'hold'),
      ...(options.partBytes ? { partBytes: options.partBytes } : {}),
      ...(options.messageChunkChars ? { messageChunkChars: options.messageChunkChars } : {}),
      stored: before ? { contentHash: withoutStarts.has(key) ? null : before.content_hash, hasFiles: before.files > 0, parts: parts ? [...parts] : [] } : null,
    };
  };
  const prepare = (key: string): Promise<PushReady> => {
    const spec = specOf(key);
    const p = loader.preparePush
      ? loader.preparePush(key, jsonScan, spec)
      : loader.prepare(key, jsonScan).then((prepared) => readyToPush(prepared, spec, shared, (json) => loader.recycle?.(json)));
    p.catch(() => undefined); // awaited in turn; a prefetch left behind by a failure must not go unhandled
    return p;
  };
  let done = report.unchanged.length;
  options.onProgress?.({ done, total: keys.length, pushed: 0 });
  try {
    // A few sessions ahead: the loader's worker parses, scans and builds the next ones while this thread writes;
    // at most PREPARE_AHEAD are held.
    const ahead: Array<Promise<PushReady>> = [];
    let asked = 0;
    const fill = () => {
      while (ahead.length < PREPARE_AHEAD && asked < toRead.length) ahead.push(prepare(toRead[asked++] as string));
    };
    for (let i = 0; i < toRead.length; i++) {
      const key = toRead[i] as string;
      fill();
      const current = ahead.shift() as Promise<PushReady>;
      fill();
      let ready: PushReady;
      try {
        ready = await current;
      } catch (err) {
        report.skipped.push({ key, reason: (err as Error).message ?? String(err) });
        continue;
      }
      report.findings.push(...ready.findings);
      if (ready.kind === 'skipped') {
        report.skipped.push({ key, reason: ready.reason });
        continue;
      }
      // The store's key is the session's own key (its title and text may have been redacted, never its key).
      const sessionKey = ready.key;
      if (ready.kind === 'unchanged') {
        report.unchanged.push(sessionKey);
        if (ledger && !report.dryRun) await ledger.record(sessionKey, listing(key), ready.seen, ready.sha256, settings);
      } else if (!stored.has(sessionKey) && options.newSessions === 'hold') report.held.push(sessionKey);
      else {
        const { row, files } = unpackReady(ready);
        if (!row) throw new Error(`${sessionKey} was prepared without its row`);
        const write = sessionWrite(row, storedParts.get(sessionKey));
        const sourceBytes = ready.sourceBytes;
        report.pushed.push(sessionKey);
        report.bytes += write.sessionBytes + sourceBytes;
        report.sourceBytes += sourceBytes;
        const sent = write.messages.length + write.texts.length;
        const kept = write.row.messages.length - write.messages.length + write.keptTexts.length;
        report.chunks.sent += sent;
        report.chunks.kept += kept;
        batchChunks.sent += sent;
        batchChunks.kept += kept;
        batch.rows.push(write);
        batch.files.push(...files);
        batchSeen.push({ key: sessionKey, files: ready.seen, hash: ready.sha256 });
        batchBytes += write.sessionBytes + sourceBytes;
        batchSourceBytes += sourceBytes;
        if (batch.rows.length >= maxSessions || batchBytes >= maxBytes) await send();
      }
      options.onProgress?.({ done: ++done, total: keys.length, pushed: report.pushed.length });
    }
    await send();
    await settle();
  } finally {
    await ledger?.save();
  }
  return report;
}
