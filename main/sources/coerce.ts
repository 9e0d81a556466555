// Turns untrusted JSON into canonical pieces: typed getters that warn instead of throwing, timestamps, titles.
import type { ConfigEntry, Provenance, SourceFile, TokenUsage, Warning } from '../../shared/session.ts';
import { readJsonFile } from './decode.ts';
import { UnreadableError } from './types.ts';
import { statPath } from './file-bytes.ts';
import { cannotRead } from './read-failure.ts';
import { heldSum } from '../../shared/held-sum.ts';

/** Free-form values deeper than this are cut: deeper nesting overflows JSON.stringify and structured clone. */
export const MAX_DEPTH = 32;
/** Session documents are meant to stay small (seed 000: < 10 MB); far bigger ones are not sessions. */
export const MAX_DOCUMENT_BYTES = 200 * 1024 * 1024;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a JSON value is, in words a person reads in a warning ("a number (42)", "an array"). */
export function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 1 ? 'an array (1 item)' : `an array (${value.length} items)`;
  if (typeof value === 'string') {
    const shown = value.length > 30 ? `${value.slice(0, 29)}…` : value;
    return `a string (${JSON.stringify(shown)})`;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? `a number (${value})` : 'a number too large to represent';
  if (typeof value === 'boolean') return `a boolean (${value})`;
  return 'an object';
}

/** The bare JSON type, for compact lists ("conversation is a string"). */
export function kindOfJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number') return Number.isFinite(value) ? 'a number' : 'a number too large to represent';
  if (typeof value === 'boolean') return 'a boolean';
  return `a ${typeof value}`;
}

/** Collects warnings, merging repeats of the same message into one entry with a count. */
export class WarningList {
  #entries = new Map<string, Warning>();
  /** "field is a <type>" for every wrong type seen, so an unusable file can be explained in one line. */
  readonly wrongTypes: string[] = [];

  add(code: string, message: string): void {
    const key = `${code}\u0000${message}`;
    const existing = this.#entries.get(key);
    if (existing) existing.count++;
    else this.#entries.set(key, { code, message, count: 1 });
  }

  addAll(warnings: readonly Warning[]): void {
    for (const w of warnings) {
      for (let i = 0; i < w.count; i++) this.add(w.code, w.message);
    }
  }

  wrongType(field: string, expected: string, found: unknown): void {
    this.wrongTypes.push(`${field} is ${kindOfJson(found)}`);
    this.add('wrong_type', `Field "${field}" should be ${expected} but is ${describeJson(found)}; it was skipped.`);
  }

  list(): Warning[] {
    return [...this.#entries.values()].map((w) => ({ ...w }));
  }
}

/** Typed access to one JSON object: a wrong type yields null plus a wrong_type warning naming the field. */
export class Fields {
  readonly raw: Record<string, unknown>;
  readonly path: string;
  readonly warnings: WarningList;
  /** Keys that produced a usable value; an object with none is not a session at all. */
  readonly used = new Set<string>();

  constructor(raw: Record<string, unknown>, path: string, warnings: WarningList) {
    this.raw = raw;
    this.path = path;
    this.warnings = warnings;
  }

  name(key: string): string {
    return this.path ? `${this.path}.${key}` : key;
  }

  /** True when the key holds anything but null (null is how most writers say "absent"). */
  present(key: string): boolean {
    return Object.hasOwn(this.raw, key) && this.raw[key] !== null && this.raw[key] !== undefined;
  }

  #get<T>(key: string, expected: string, ok: (v: unknown) => v is T): T | null {
    if (!this.present(key)) return null;
    const value = this.raw[key];
    if (ok(value)) {
      this.used.add(key);
      return value;
    }
    this.warnings.wrongType(this.name(key), expected, value);
    return null;
  }

  string(key: string): string | null {
    return this.#get(key, 'a string', (v): v is string => typeof v === 'string');
  }

  number(key: string): number | null {
    return this.#get(key, 'a number', (v): v is number => typeof v === 'number' && Number.isFinite(v));
  }

  array(key: string): unknown[] | null {
    return this.#get(key, 'a list', (v): v is unknown[] => Array.isArray(v));
  }

  object(key: string): Fields | null {
    const value = this.#get(key, 'an object', isRecord);
    return value ? new Fields(value, this.name(key), this.warnings) : null;
  }

  /** ISO-8601 (UTC, milliseconds) from any timestamp text we recognise; otherwise null and a warning. */
  timestamp(key: string): string | null {
    const text = this.string(key);
    if (text === null) return null;
    const iso = toIsoTimestamp(text);
    if (iso === null) {
      this.used.delete(key);
      this.warnings.add('bad_timestamp', `Field "${this.name(key)}" is not a date and time this app understands (${JSON.stringify(text)}); it was skipped.`);
    }
    return iso;
  }

  /** A free-form value kept verbatim, cut at MAX_DEPTH so it can always be serialised. */
  value(key: string): unknown {
    if (!Object.hasOwn(this.raw, key)) return undefined;
    this.used.add(key);
    return limitDepth(this.raw[key], this.warnings, this.name(key));
  }

  unknownKeys(known: readonly string[]): string[] {
    return Object.keys(this.raw).filter((k) => !known.includes(k));
  }
}

/** The i-th element of a list as Fields, or null with a warning when it is not an object. */
export function elementFields(value: unknown, listName: string, warnings: WarningList): Fields | null {
  if (isRecord(value)) return new Fields(value, `${listName}[]`, warnings);
  warnings.wrongType(`${listName}[]`, 'an object', value);
  return null;
}

/** Warns once about top-level keys the format does not define (they stay visible in the raw view). */
export function warnUnknownFields(fields: Fields, known: readonly string[]): void {
  const unknown = fields.unknownKeys(known);
  if (unknown.length === 0) return;
  const label = unknown.length === 1 ? 'field' : 'fields';
  fields.warnings.add('unknown_field', `Unknown top-level ${label} ignored: ${unknown.join(', ')}.`);
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|UTC|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Already UTC ISO with milliseconds, as toISOString writes it. */
const CANONICAL = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

/** Rejects 2026-02-31 and the like, which the pattern alone lets through. */
function validDay(text: string): boolean {
  const day = Number(text.slice(8, 10));
  return day <= 28 || new Date(Date.UTC(Number(text.slice(0, 4)), Number(text.slice(5, 7)) - 1, day)).getUTCDate() === day;
}

/** How far from 1970 a Date reaches (100,000,000 days either way): past it `toISOString` throws a RangeError. */
const MAX_DATE_MS = 8.64e15;

/**
 * Epoch milliseconds as ISO-8601, or null for a number no date can hold (NaN, Infinity, 1e308, a year past
 * 275,760): one odd time in a record must not make its whole session unreadable.
 */
export function isoFromEpochMs(ms: number): string | null {
  return Number.isFinite(ms) && Math.abs(ms) <= MAX_DATE_MS ? new Date(ms).toISOString() : null;
}

/**
 * Accepts RFC 3339 / ISO-8601 and chrono's Display form (`2025-12-09 21:47:03.004518227 UTC`) with any
 * number of fractional digits (Date.parse rejects more than three). A missing zone is read as UTC.
 */
export function toIsoTimestamp(text: string): string | null {
  // Most tools already write exactly what we return; a transcript holds one per record, so skip the work.
  if (CANONICAL.test(text) && validDay(text)) return text;
  const m = TIMESTAMP.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Math.min(Number(s ?? '0'), 59);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return null;
  const ms = Math.floor(Number(`0.${frac ?? '0'}`) * 1000);
  let offsetMinutes = 0;
  if (zone && !/^(z|utc)$/i.test(zone)) {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0'));
  }
  const local = Date.UTC(Number(y), month - 1, day, hour, minute, second, ms);
  // Date.UTC rolls 31 February over into March; a day that does not exist is not a timestamp.
  if (new Date(local).getUTCDate() !== day) return null;
  return new Date(local - offsetMinutes * 60_000).toISOString();
}

/**
 * A JSON value with anything nested deeper than `max` replaced by a marker string: the value itself when it is not
 * that deep (a copy of every tool input and output cost a 1 GB cold list 370 ms of CPU and its garbage), else a copy.
 */
export function limitDepth(value: unknown, warnings: WarningList, field: string, max = MAX_DEPTH): unknown {
  if (!deeperThan(value, max)) return value;
  let cut = false;
  const copy = (v: unknown, depth: number): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    if (depth >= max) {
      cut = true;
      return `[omitted: nested more than ${max} levels deep]`;
    }
    if (Array.isArray(v)) return v.map((item) => copy(item, depth + 1));
    // fromEntries defines own properties, so a "__proto__" key stays data and never reaches the prototype.
    return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, copy(item, depth + 1)]));
  };
  const result = copy(value, 0);
  if (cut) warnings.add('too_deep', `Field "${field}" is nested more than ${max} levels deep; the deeper part was left out.`);
  return result;
}

/** Whether a JSON value nests objects or arrays `max` levels deep or more (limitDepth cuts there). Allocates nothing. */
function deeperThan(value: unknown, max: number, depth = 0): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (depth >= max) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (deeperThan(item, max, depth + 1)) return true;
    return false;
  }
  for (const key in value) if (Object.hasOwn(value, key) && deeperThan((value as Record<string, unknown>)[key], max, depth + 1)) return true;
  return false;
}

/**
 * Plain configuration objects become one entry per leaf with dotted keys ("agent.label"); lists and
 * scalars are values. Nesting past MAX_DEPTH is kept as one cut value.
 */
export function flattenConfig(config: Fields, provenance: Provenance | null, depth = 0, prefix = ''): ConfigEntry[] {
  const entries: ConfigEntry[] = [];
  for (const [key, value] of Object.entries(config.raw)) {
    const dotted = prefix ? `${prefix}.${key}` : key;
    if (isRecord(value) && Object.keys(value).length > 0 && depth < MAX_DEPTH) {
      entries.push(...flattenConfig(new Fields(value, config.name(key), config.warnings), provenance, depth + 1, dotted));
    } else {
      entries.push({ key: dotted, value: limitDepth(value, config.warnings, config.name(key)), provenance });
    }
  }
  return entries;
}

/** The first non-empty line, trimmed and cut to `max` characters, for list titles. */
export function titleFromText(text: string | null | undefined, max = 80): string | null {
  if (!text) return null;
  const line = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  if (!line) return null;
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

/** Last segment of a POSIX or Windows path, ignoring trailing separators. */
export function lastSegment(path: string): string | null {
  const parts = path.split(/[\\/]+/).filter((p) => p.length > 0);
  return parts.at(-1) ?? null;
}

export function emptyUsage(): TokenUsage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 };
}

/**
 * Two token counts added, held at the largest number there is: two damaged counts (1e308 each) made an Infinity that
 * failed the session's schema, and the session with it.
 */
export const sumCounts = heldSum;

export function addUsage(into: TokenUsage, add: TokenUsage): void {
  into.input = sumCounts(into.input, add.input);
  into.output = sumCounts(into.output, add.output);
  into.cacheRead = sumCounts(into.cacheRead, add.cacheRead);
  into.cacheWrite = sumCounts(into.cacheWrite, add.cacheWrite);
  into.reasoning = sumCounts(into.reasoning, add.reasoning);
}

/** What a parser needs to know about the file it is given; tests build this by hand. */
export interface DocumentContext {
  path: string;
  size: number;
  mtimeMs: number;
  /** Decoding warnings (BOM, UTF-16, invalid UTF-8) to carry into the session. */
  warnings: Warning[];
}

export function primarySourceFile(ctx: DocumentContext): SourceFile {
  return { path: ctx.path, size: ctx.size, mtimeMs: ctx.mtimeMs, role: 'primary' };
}

/** Stats and parses one JSON session document, with exact reasons for every failure. */
export async function readDocument(absPath: string): Promise<{ value: unknown; ctx: DocumentContext }> {
  let info;
  try {
    info = await statPath(absPath);
  } catch (err) {
    throw cannotRead(err);
  }
  if (!info.isFile()) throw new UnreadableError('io_error', 'Not a regular file.');
  if (info.size > MAX_DOCUMENT_BYTES) {
    const mib = Math.round(info.size / (1024 * 1024));
    throw new UnreadableError('too_large', `File is ${mib} MiB; session documents over ${MAX_DOCUMENT_BYTES / (1024 * 1024)} MiB are not read.`);
  }
  const { value, warnings } = await readJsonFile(absPath);
  return { value, ctx: { path: absPath, size: info.size, mtimeMs: info.mtimeMs, warnings } };
}

/** The error for an object in which no known field holds a usable value, saying what was there instead. */
export function noUsableField(value: Record<string, unknown>, warnings: WarningList, what: string, known: readonly string[]): UnreadableError {
  const unknown = Object.keys(value).filter((k) => !known.includes(k));
  const found: string[] = [];
  if (warnings.wrongTypes.length) found.push(warnings.wrongTypes.join(', '));
  if (unknown.length) found.push(`unknown field${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}`);
  const detail = found.length ? `no known field has a usable value (${found.join('; ')})` : 'the object is empty';
  return new UnreadableError('wrong_shape', `Not a usable ${what} session: ${detail}.`);
}

/** The error for a document whose top level is not a JSON object. */
export function notAnObject(value: unknown, what: string): UnreadableError {
  return new UnreadableError('wrong_shape', `Not a ${what}: the file holds ${describeJson(value)} where a JSON object is expected.`);
}
