// The Result envelope every API call returns, so typed errors survive IPC and HTTP alike.
import { z } from 'zod';

export const ErrorCode = z.enum([
  'INVALID_INPUT',
  'UNKNOWN_METHOD',
  'NOT_FOUND',
  'OUTSIDE_ROOTS',
  'UNREADABLE',
  'IO_ERROR',
  'CONFLICT',
  /** The user stopped the operation (an export); nothing was written. */
  'CANCELLED',
  'INTERNAL',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const AppErrorShape = z.object({
  code: ErrorCode,
  message: z.string(),
  /** For INVALID_INPUT: the dotted path of the offending field ("key", "path", "offset"). */
  field: z.string().optional(),
});
export type AppErrorShape = z.infer<typeof AppErrorShape>;

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppErrorShape };

/** Thrown by services; dispatch turns it into `{ ok: false, error }`. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly field: string | undefined;
  constructor(code: ErrorCode, message: string, field?: string) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.field = field;
  }
  toShape(): AppErrorShape {
    return this.field === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, field: this.field };
  }
}
