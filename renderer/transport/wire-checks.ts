// Hand-written checks of what the HTTP server sends (an error, an event's payload), so the renderer needs no zod to trust it.
import type { AppErrorShape, ErrorCode } from '../../shared/result.ts';

export type Fields = Record<string, unknown>;

/** A JSON object (zod's z.object refuses arrays and null too). */
export const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isString = (v: unknown): v is string => typeof v === 'string';
/** z.number().nonnegative(): finite, at least 0. */
export const isAmount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
/** z.number().int().nonnegative(). */
export const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
export const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

/** One of an enum's values; the record's keys are checked complete against the contract's type by the compiler. */
export const oneOf =
  <T extends string>(values: Record<T, true>) =>
  (v: unknown): v is T =>
    typeof v === 'string' && Object.hasOwn(values, v);

const isErrorCode = oneOf<ErrorCode>({
  INVALID_INPUT: true,
  UNKNOWN_METHOD: true,
  NOT_FOUND: true,
  OUTSIDE_ROOTS: true,
  UNREADABLE: true,
  IO_ERROR: true,
  CONFLICT: true,
  CANCELLED: true,
  INTERNAL: true,
});

/** The error of a failed Result as the contract's AppErrorShape describes it (unknown keys dropped), or null. */
export function appError(v: unknown): AppErrorShape | null {
  if (!isObject(v) || !isErrorCode(v.code) || !isString(v.message)) return null;
  if (v.field === undefined) return { code: v.code, message: v.message };
  return isString(v.field) ? { code: v.code, message: v.message, field: v.field } : null;
}
