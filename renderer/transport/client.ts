// Typed client over any Transport: one function per contract method, Results unwrapped into values or ClientErrors.
import type { AppEvent } from '../../shared/api.ts';
import { createApiClient, type ApiClient } from '../../shared/api-client.ts';
import type { Transport } from '../../shared/transport.ts';

export { ClientError, describeError, type ApiClient } from '../../shared/api-client.ts';

export type ConnectionStatus = 'connecting' | 'online' | 'offline';

/** A transport may also report whether its event stream is connected (HTTP does; IPC is always online). */
export interface RendererTransport extends Transport {
  onConnectionChange?(handler: (status: ConnectionStatus) => void): () => void;
  /** An absolute URL that downloads one session as a redacted bundle (for dragging a row out), where the transport has one. */
  bundleDownloadUrl?(key: string): string;
}

export interface AppClient extends ApiClient {
  subscribe(handler: (event: AppEvent) => void): () => void;
  onConnectionChange(handler: (status: ConnectionStatus) => void): () => void;
  /** Null when rows cannot be dragged out as files (inside Electron). */
  bundleDownloadUrl(key: string): string | null;
}

export function createClient(transport: RendererTransport): AppClient {
  return {
    ...createApiClient(transport),
    subscribe: (handler) => transport.subscribe(handler),
    onConnectionChange: (handler) => {
      if (transport.onConnectionChange) return transport.onConnectionChange(handler);
      handler('online');
      return () => {};
    },
    bundleDownloadUrl: (key) => transport.bundleDownloadUrl?.(key) ?? null,
  };
}
