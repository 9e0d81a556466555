// What a tool records into: the inputs, and the session that writes nothing when session logging is off.
import { DEFAULT_INLINE_LIMIT_BYTES } from './artifacts.ts';
import {
  MAX_SESSION_FILE_BYTES,
  type ChatRole,
  type OperationType,
  type OutcomeStatus,
  type ProvenanceName,
  type SessionDocument,
  type Staged,
} from './session-schema.ts';

export interface MessageInput {
  role: ChatRole;
  content: string;
  /** Default: now. */
  ts?: string;
  annotations?: Record<string, unknown>;
}

export interface OperationInput {
  type: OperationType;
  detail?: string | Record<string, unknown>;
  vcs?: { staged?: Partial<Staged>; applied_sha?: string; restored_sha?: string };
  ts?: string;
}

export interface OutcomeInput {
  status: Exclude<OutcomeStatus, 'open'>;
  summary?: string;
  commit_sha?: string;
}

export interface WriterLimits {
  /** A chat content, detail or annotations object larger than this goes to an artifact file. */
  inlineBytes: number;
  /** session.json stays strictly below this; the largest inline payloads move out until it fits. */
  fileBytes: number;
}

export const DEFAULT_LIMITS: WriterLimits = { inlineBytes: DEFAULT_INLINE_LIMIT_BYTES, fileBytes: MAX_SESSION_FILE_BYTES };

/** What callers record into; a session with logging off implements it by writing nothing. */
export interface RecordingSession {
  readonly id: string;
  readonly enabled: boolean;
  /** The session.json path, null when session logging is off. */
  readonly path: string | null;
  readonly resumed: boolean;
  snapshot(): SessionDocument | null;
  append(message: MessageInput): Promise<void>;
  recordOperation(op: OperationInput): Promise<void>;
  attach(name: string, content: string): Promise<string | null>;
  setConfig(key: string, value: unknown, provenance?: ProvenanceName): Promise<void>;
  checkpoint(): Promise<void>;
  close(outcome: OutcomeInput): Promise<void>;
  /** Lets go of the lock and leaves the session open, to be resumed later. */
  release(): Promise<void>;
}

/** session_logging: off — every call succeeds and nothing touches the disk, not even the sessions folder. */
export class DisabledSession implements RecordingSession {
  readonly id: string;
  readonly enabled = false;
  readonly path = null;
  readonly resumed: boolean;

  constructor(id: string, resumed: boolean) {
    this.id = id;
    this.resumed = resumed;
  }

  snapshot(): null {
    return null;
  }
  async append(): Promise<void> {}
  async recordOperation(): Promise<void> {}
  async attach(): Promise<null> {
    return null;
  }
  async setConfig(): Promise<void> {}
  async checkpoint(): Promise<void> {}
  async close(): Promise<void> {}
  async release(): Promise<void> {}
}
