// Messages between the read pool and its worker threads.
import type { Comparison } from '../../shared/compare/comparison.ts';
import type { SessionSummaryText } from '../../shared/session.ts';
import type { Session, SessionSummary, SourceFormat, Unreadable } from '../../shared/session.ts';
import type { IndexText, PackedIndexText } from '../search-index/index-text.ts';
import type { UsageFacts } from '../search-index/usage-facts.ts';
import type { JsonScan, PreparedSession, ShareSpec } from '../bundle/prepare-session.ts';
import type { ContainedSession } from '../sources/types.ts';
import type { Paging } from '../library/paged-sessions.ts';
import type { PushGate, PushReady, PushSpec } from '../team/push-prepare.ts';

/**
 * `summary`: the list needs only the light summary, so the worker never posts the whole session back.
 * `window`: an opened session; the worker keeps it parsed and answers one window of messages at a time.
 * `full`: the whole session (for work that needs every message at once).
 * `compare`: two sessions (`path` and `otherPath`) opened through the cache; only their Comparison comes back.
 * `bundle`: a session for a bundle: parsed uncached, its session.json serialized (and scanned) here; only
 * its head, findings and the bytes (a transferred buffer) come back.
 */
interface RequestBase {
  id: number;
  path: string;
}

/** The whole session. */
export interface FullRequest extends RequestBase {
  mode: 'full';
}

/**
 * The list's summary; `keep`: keep the parsed session, because it is likely to be opened next (a large new file).
 * `textLater`: no index text (a one-shot command that only lists); the answer says so, and a later scan that reads
 * text reads the file again.
 */
export interface SummaryRequest extends RequestBase {
  mode: 'summary';
  keep?: boolean;
  textLater?: boolean;
}

/** One window of an opened session's messages: the first message and how many; `paging`: a big session's page tables. */
export interface WindowRequest extends RequestBase {
  mode: 'window';
  offset: number;
  limit: number;
  paging?: Paging;
}

/** Two sessions compared: session B's file, and the catalogue's keys of A and B (they may carry a path hash). */
export interface CompareRequest extends RequestBase {
  mode: 'compare';
  otherPath: string;
  keyA?: string;
  keyB?: string;
}

/** A session for a bundle: the catalogue's key and the children it knows of (session.json carries both), and how to scan it. */
export interface BundleRequest extends RequestBase {
  mode: 'bundle';
  key: string;
  childKeys: string[];
  scan: JsonScan | null;
  /** How its files are named in session.json (kept copies by their original paths) and which are left out. */
  share?: ShareSpec;
  /** The vault's summary of the session: session.json carries it in place of the session's own. */
  summary?: SessionSummaryText;
}

/** A store's sessions (`path` is the store): its reader's one listing query, run here so the main thread never blocks on it. */
export interface ListRequest extends RequestBase {
  mode: 'list';
}

/** A contained session's own rows, rendered as the JSON document the raw view shows and bundles carry (rows-document.ts). */
export interface RowsRequest extends RequestBase {
  mode: 'rows';
}

/** Several sessions of one store (`path` is the store), each answered as its summary would be: one task, one read of the store, one message back. */
export interface SummariesRequest extends RequestBase {
  mode: 'summaries';
  ids: string[];
}

/**
 * A session for a team push (team/push-worker.ts): prepared as for a bundle (`scan` always given), past the roots
 * check against `gate`'s real roots when there is one, then made ready to send (its row and source parts, packed).
 */
export interface PushRequest extends Omit<BundleRequest, 'mode' | 'scan'> {
  mode: 'push';
  scan: JsonScan;
  spec: PushSpec;
  gate: PushGate | null;
}

export type ReadRequest =
  FullRequest | SummaryRequest | WindowRequest | CompareRequest | BundleRequest | ListRequest | RowsRequest | SummariesRequest | PushRequest;
export type ReadMode = ReadRequest['mode'];

/** A request before the pool gives it an id (Omit over each member keeps the union discriminated). */
export type UnsentRequest = ReadRequest extends infer R ? (R extends ReadRequest ? Omit<R, 'id'> : never) : never;

/** Not a request: a session.json store the main thread is done with, moved back for the worker to write the next one into. */
export interface RecycleMessage {
  recycle: ArrayBuffer;
}

export type ReadFailure = { id: number; ok: false; format: SourceFormat | null; unreadable: Unreadable };
export type FullResponse = { id: number; ok: true; session: Session } | ReadFailure;
/** `companions`: the session's other source files (transcripts, indexes, meta), watched for changes too. */
/** `text`: what the full-text index stores, extracted here so the main thread never walks the transcript (the scan worker sends it packed, a transferred buffer). */
/** `usage`: the session's usage per hour and model, tools, turns and rate limits, for the usage reports and the dashboard. */
/** `textLater`: asked without its index text (SummaryRequest), so the index marks the file's text as not read yet. */
export type SummaryResponse =
  | { id: number; ok: true; summary: SessionSummary; companions: string[]; text?: IndexText | PackedIndexText; usage?: UsageFacts; textLater?: true }
  | ReadFailure;
/** `session.messages` holds only the requested window; `messagesTotal` counts them all. */
export type WindowResponse = { id: number; ok: true; session: Session; messagesTotal: number } | ReadFailure;
/** A failure names the file (A's or B's) that could not be read. */
export type CompareResponse = { id: number; ok: true; comparison: Comparison } | (ReadFailure & { path: string });
export type PrepareResponse = { id: number; ok: true; prepared: PreparedSession } | ReadFailure;
/** `ready.packed` (a changed session's bodies and parts) is a moved buffer. */
export type PushResponse = { id: number; ok: true; ready: PushReady } | ReadFailure;
export type ListResponse = { id: number; ok: true; sessions: ContainedSession[] } | ReadFailure;
/**
 * `results`: each asked session's summary (or why it could not be read), in the order of the request's `ids`; null for
 * one the batch left unread once its index text reached its budget (contained-summaries.ts), to be asked again.
 */
export type SummariesResponse = { id: number; ok: true; results: Array<SummaryResponse | null> } | ReadFailure;
/** `text`: the rows document; `path`: the name it goes by beside the store (`<store>.<id>.session-rows.json`). */
export type RowsResponse = { id: number; ok: true; text: string; path: string; mtimeMs: number } | ReadFailure;
export type ReadResponse =
  FullResponse | SummaryResponse | WindowResponse | CompareResponse | PrepareResponse | ListResponse | RowsResponse | SummariesResponse | PushResponse;
