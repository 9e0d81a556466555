// Transport-neutral dispatch: look the method up, validate its input, wait for a start in progress, call the service, wrap a Result.
import type { z } from 'zod';
import { api, isMethodName, type MethodName, type ServiceMethods } from '../../shared/api.ts';
import { AppError, type Result } from '../../shared/result.ts';
import { fsErrorAppCode, fsErrorSentence, withoutPaths } from '../fs/fs-error-text.ts';

export type Dispatch = (method: string, input: unknown) => Promise<Result<unknown>>;

export interface DispatchOptions {
  /** Where an error that is not an AppError is reported (default: console.error). */
  log?: (err: unknown) => void;
  /**
   * A start in progress, or null: a call whose input is valid waits for it before its service runs (a server
   * listens while the services restore the catalogue). A start that fails fails the calls that waited for it.
   */
  ready?: () => Promise<void> | null;
  /** Methods answered without waiting for `ready` (the list reads the index alone meanwhile). */
  exempt?: readonly MethodName[];
}

function describeIssue(issue: z.core.$ZodIssue): { field: string; message: string } {
  const field = issue.path.length ? issue.path.map(String).join('.') : '(input)';
  return { field, message: `${field}: ${issue.message}` };
}

export function createDispatch(services: ServiceMethods, options: DispatchOptions = {}): Dispatch {
  const log = options.log ?? console.error;
  const exempt = new Set<string>(options.exempt ?? []);
  return async (method, input) => {
    if (!isMethodName(method)) {
      return { ok: false, error: { code: 'UNKNOWN_METHOD', message: `Unknown method "${method}".` } };
    }
    const parsed = api[method].input.safeParse(input ?? {});
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      const { field, message } = first ? describeIssue(first) : { field: '(input)', message: 'invalid input' };
      return { ok: false, error: { code: 'INVALID_INPUT', message: `Invalid input for ${method}: ${message}`, field } };
    }
    try {
      const starting = exempt.has(method) ? null : (options.ready?.() ?? null);
      if (starting) await starting;
      const call = services[method] as (i: unknown) => Promise<unknown>;
      const value = await call(parsed.data);
      return { ok: true, value };
    } catch (err) {
      if (err instanceof AppError) return { ok: false, error: err.toShape() };
      log(err);
      // The answer may leave this machine's process (HTTP): no errno text, no paths into the data folder.
      const sentence = fsErrorSentence(err);
      if (sentence !== null) return { ok: false, error: { code: fsErrorAppCode(err), message: `${method} failed: ${sentence}.` } };
      const message = withoutPaths(err instanceof Error ? err.message : String(err));
      return { ok: false, error: { code: 'INTERNAL', message: `Internal error in ${method}: ${message}` } };
    }
  };
}
