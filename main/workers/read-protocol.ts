// Messages between the read pool and its worker threads.
import type { Session, SessionSummary, SourceFormat, Unreadable } from '../../shared/session.ts';

/** `summary`: the list needs only the light summary, so the worker never posts the whole session back. */
export type ReadMode = 'full' | 'summary';

export interface ReadRequest {
  id: number;
  path: string;
  mode: ReadMode;
}

export type ReadFailure = { id: number; ok: false; format: SourceFormat | null; unreadable: Unreadable };
export type FullResponse = { id: number; ok: true; session: Session } | ReadFailure;
export type SummaryResponse = { id: number; ok: true; summary: SessionSummary } | ReadFailure;
export type ReadResponse = FullResponse | SummaryResponse;
