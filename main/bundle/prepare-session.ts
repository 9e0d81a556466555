// What a bundle needs of a parsed session (its head and session.json's bytes, scanned and redacted), made where it was parsed so the main thread never holds it.
import { createHash } from 'node:crypto';
import type { BundleRefusedFile } from '../../shared/bundle-api.ts';
import type { Session, SourceFile } from '../../shared/session.ts';
import { Redactor } from '../recorder/redact.ts';
import { safeName } from '../vault/vault-store.ts';
import { sessionJsonPath } from './bundle-paths.ts';
import type { Finding } from './finding.ts';
import type { PushGate, PushReady, PushSpec } from '../team/push-prepare.ts';
import { prefilterFor } from './secret-prefilter.ts';
import { redactedPieces, SecretScanStream, type ScanContext } from './secret-scan.ts';
import { unmap } from './read-whole.ts';
import { GrowingBuffer, sessionJsonBytes, type StoreShelf } from './session-json.ts';
import { withoutFiles, withSharedPaths } from './shared-paths.ts';
import { redactTitle } from './title-redaction.ts';

/** The fields a bundle plan reads: everything but the transcript. */
export type SessionHead = Pick<Session, 'key' | 'id' | 'format' | 'title' | 'createdAt' | 'updatedAt' | 'closedAt' | 'childKeys' | 'sourceFiles' | 'artifacts'>;

/** How session.json is scanned: with whose environment, which findings stay, and whether the (redacted) bytes are wanted or only the findings. */
export interface JsonScan {
  env: Record<string, string | undefined>;
  keep: string[];
  emit: boolean;
}

/**
 * How a session's files are named in what is shared: `vault` (the vault's folder) to name kept copies' files by
 * their original paths (shared-paths.ts), `drop` the files the roots check refused, left out of session.json.
 */
export interface ShareSpec {
  vault: string | null;
  drop?: string[];
}

export interface PreparedSession {
  head: SessionHead;
  /** session.json as it goes into the bundle (redacted when scanned); null when only findings were asked for. */
  json: Buffer | null;
  size: number;
  sha256: string;
  /** session.json's findings, in the order the scan made them. */
  findings: Finding[];
  /** Secrets found in session.json, which the session's sources are searched for next. */
  literals: Array<[string, string]>;
  /** Files the session names that the roots check left out of `head` (session-gate.ts); never read. */
  refused?: BundleRefusedFile[];
  /** The vault whose paths session.json names by their original paths; entries and the manifest are named the same way. */
  vault?: string | null;
  /**
   * Sources whose bytes come with the session instead of from disk: a session inside a store goes with its own rows
   * (workers/contained-bundle.ts), never the store; the head then names the store only for the roots check.
   */
  inline?: InlineSource[];
}

/** A source file made for the bundle: the name it goes by (its original path), its bytes and its role. */
export interface InlineSource {
  path: string;
  bytes: Uint8Array;
  mtimeMs: number;
  role: SourceFile['role'];
}

/** Gives the bundle a session, prepared for it: in a worker (the app) or on this thread from a parsed session (tests, simple callers). */
export interface SessionLoader {
  prepare(key: string, scan: JsonScan | null, share?: ShareSpec): Promise<PreparedSession>;
  /** Takes back a prepared session.json once its bytes are written (a worker writes the next one into its memory); they must not be used after. */
  recycle?(json: Buffer): void;
  /**
   * A team push's session, made ready to send where it is prepared (team/push-worker.ts; `gate`: the roots check,
   * against roots already real). Without it, a push prepares the session here and makes it ready on its own thread.
   */
  preparePush?(key: string, scan: JsonScan, spec: PushSpec, gate?: PushGate | null): Promise<PushReady>;
}

export function headOf(session: Session): SessionHead {
  const { key, id, format, title, createdAt, updatedAt, closedAt, childKeys, sourceFiles, artifacts } = session;
  return { key, id, format, title, createdAt, updatedAt, closedAt, childKeys, sourceFiles, artifacts };
}

/** A scan context for one session: the rule set with `env`'s values, and the findings the user kept. */
export function scanContext(env: NodeJS.ProcessEnv, keep: Iterable<string>): ScanContext {
  return { redactor: new Redactor(['secrets', 'env'], env), literals: new Map(), keep: new Set(keep), prefilter: prefilterFor(env) };
}

/**
 * Serializes session.json (byte-for-byte `${JSON.stringify(session, null, 2)}\n`) into one buffer and, with
 * a scan context, scans it there, window by window with no copy, then hashes what goes into the bundle: the
 * same buffer, or a redacted copy when the scan redacted something. With a `shelf` (a worker's), the buffer is
 * written into a used store when one is there, and a store not handed on goes back to it.
 */
export async function prepareSession(parsed: Session, ctx: ScanContext | null, emit = true, shelf?: StoreShelf, share?: ShareSpec): Promise<PreparedSession> {
  const own = withoutFiles(parsed, new Set(share?.drop ?? []));
  // The title goes into session.json and the manifest; cut from a prompt, it may hold part of a key (see title-redaction.ts).
  const session = ctx ? await redactTitle(own, ctx.redactor) : own;
  // The head keeps the paths on disk (the bundle reads its files there); session.json names them as shared.
  const head = headOf(session);
  const vault = share?.vault ?? null;
  const letGo = (bytes: Buffer) => (shelf ? shelf.give(bytes.buffer as ArrayBuffer) : unmap(bytes));
  let json = sessionJsonBytes(withSharedPaths(session, vault), shelf?.take());
  let findings: Finding[] = [];
  if (ctx) {
    const scan = new SecretScanStream(ctx, { file: sessionJsonPath(safeName(session.key)), clip: 'json', emit });
    const pieces = await redactedPieces(json, scan);
    findings = scan.findings;
    if (emit && pieces) {
      const redacted = new GrowingBuffer(shelf?.take());
      for (const piece of pieces) redacted.append(piece);
      letGo(json);
      json = redacted.finish();
    }
  }
  const literals = ctx ? [...ctx.literals] : [];
  if (!emit) {
    letGo(json);
    return { head, json: null, size: 0, sha256: '', findings, literals, vault };
  }
  return { head, json, size: json.length, sha256: createHash('sha256').update(json).digest('hex'), findings, literals, vault };
}

/** A loader over parsed sessions: each is prepared on this thread (what the worker does, without the worker). */
export function inThreadLoader(load: (key: string) => Promise<Session>): SessionLoader {
  return {
    prepare: async (key, scan, share) => prepareSession(await load(key), scan ? scanContext(scan.env, scan.keep) : null, scan?.emit ?? true, undefined, share),
  };
}
