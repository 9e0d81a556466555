// Messages between the read pool and its worker threads.
import type { Session, SessionSummary, SourceFormat, Unreadable } from '../../shared/session.ts';

/**
 * `summary`: the list needs only the light summary, so the worker never posts the whole session back.
 * `window`: an opened session; the worker keeps it parsed and answers one window of messages at a time.
 * `full`: the whole session (for work that needs every message at once).
 */
export type ReadMode = 'full' | 'summary' | 'window';

export interface ReadRequest {
  id: number;
  path: string;
  mode: ReadMode;
  /** For `window`: the first message and how many. */
  offset?: number;
  limit?: number;
  /** For `summary`: keep the parsed session, because it is likely to be opened next (a large new file). */
  keep?: boolean;
}

export type ReadFailure = { id: number; ok: false; format: SourceFormat | null; unreadable: Unreadable };
export type FullResponse = { id: number; ok: true; session: Session } | ReadFailure;
/** `companions`: the session's other source files (transcripts, indexes, meta), watched for changes too. */
export type SummaryResponse = { id: number; ok: true; summary: SessionSummary; companions: string[] } | ReadFailure;
/** `session.messages` holds only the requested window; `messagesTotal` counts them all. */
export type WindowResponse = { id: number; ok: true; session: Session; messagesTotal: number } | ReadFailure;
export type ReadResponse = FullResponse | SummaryResponse | WindowResponse;
