// A typed client over any Transport: one function per contract method, Results unwrapped into values or ClientErrors.
import type { MethodInput, MethodName, MethodOutput } from './api.ts';
import { METHOD_NAMES } from './method-names.ts';
import type { ErrorCode, Result } from './result.ts';
import type { Transport } from './transport.ts';

/** Methods whose input is all-optional may be called with no argument. */
type Args<M extends MethodName> = Record<never, never> extends MethodInput<M> ? [input?: MethodInput<M>] : [input: MethodInput<M>];

export type ApiClient = { readonly [M in MethodName]: (...args: Args<M>) => Promise<MethodOutput<M>> };

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

/** A message fit for a person: never a stack trace. */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  if (typeof err === 'string') return err;
  return 'Unexpected error';
}

/** The renderer's client, the CLI's and the tests' alike: every call goes through `transport.invoke`. */
export function createApiClient(transport: Pick<Transport, 'invoke'>): ApiClient {
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
  return Object.fromEntries(METHOD_NAMES.map((method) => [method, (input?: unknown) => call(method, input)])) as unknown as ApiClient;
}
