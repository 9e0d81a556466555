// Typed client over any Transport: one function per contract method, Results unwrapped into values or ClientErrors.
import { methodNames, type AppEvent, type MethodInput, type MethodName, type MethodOutput } from '../shared/api.ts';
import type { ErrorCode, Result } from '../shared/result.ts';
import type { Transport } from '../shared/transport.ts';

export type ConnectionStatus = 'connecting' | 'online' | 'offline';

/** A transport may also report whether its event stream is connected (HTTP does; IPC is always online). */
export interface RendererTransport extends Transport {
  onConnectionChange?(handler: (status: ConnectionStatus) => void): () => void;
  /** An absolute URL that downloads one session as a redacted bundle (for dragging a row out), where the transport has one. */
  bundleDownloadUrl?(key: string): string;
}

/** Methods whose input is all-optional may be called with no argument. */
type Args<M extends MethodName> =
  Record<never, never> extends MethodInput<M> ? [input?: MethodInput<M>] : [input: MethodInput<M>];

export type ApiClient = { readonly [M in MethodName]: (...args: Args<M>) => Promise<MethodOutput<M>> };

export interface AppClient extends ApiClient {
  subscribe(handler: (event: AppEvent) => void): () => void;
  onConnectionChange(handler: (status: ConnectionStatus) => void): () => void;
  /** Null when rows cannot be dragged out as files (inside Electron). */
  bundleDownloadUrl(key: string): string | null;
}

export class ClientError extends Error {
  readonly code: ErrorCode;
  readonly field: string | undefined;
  constructor(code: ErrorCode, message: string, field?: string) {
    super(message);
    this.name = 'ClientError';
    this.code = code;
    this.field = field;
  }
}

/** A message fit for the UI: never a stack trace. */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  if (typeof err === 'string') return err;
  return 'Unexpected error';
}

export function createClient(transport: RendererTransport): AppClient {
  const call = async (method: MethodName, input: unknown): Promise<unknown> => {
    let result: Result<unknown>;
    try {
      result = await transport.invoke(method, input ?? {});
    } catch (err) {
      // Transports should not reject, but a broken bridge must still surface as a typed error.
      throw new ClientError('INTERNAL', `Call to ${method} failed: ${describeError(err)}`);
    }
    if (result.ok) return result.value;
    throw new ClientError(result.error.code, result.error.message, result.error.field);
  };
  const methods = Object.fromEntries(
    methodNames.map((method) => [method, (input?: unknown) => call(method, input)]),
  ) as unknown as ApiClient;
  return {
    ...methods,
    subscribe: (handler) => transport.subscribe(handler),
    onConnectionChange: (handler) => {
      if (transport.onConnectionChange) return transport.onConnectionChange(handler);
      handler('online');
      return () => {};
    },
    bundleDownloadUrl: (key) => transport.bundleDownloadUrl?.(key) ?? null,
  };
}
