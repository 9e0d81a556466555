// Messages between the read pool and its worker threads.
import type { Session, SourceFormat, Unreadable } from '../../shared/session.ts';

export interface ReadRequest {
  id: number;
  path: string;
}

export type ReadResponse =
  | { id: number; ok: true; session: Session }
  | { id: number; ok: false; format: SourceFormat | null; unreadable: Unreadable };
