// The Transport the renderer talks to: Electron IPC and HTTP+SSE both implement this and nothing more.
import type { AppEvent, MethodName } from './api.ts';
import type { Result } from './result.ts';

export interface Transport {
  invoke(method: MethodName, input: unknown): Promise<Result<unknown>>;
  /** Receives every pushed event; returns the unsubscribe function. */
  subscribe(handler: (event: AppEvent) => void): () => void;
}
