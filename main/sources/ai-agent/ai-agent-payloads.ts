// ai-agent payload references ({path, sha256, ...} into payloads/<id>/turn-NNNN/): described, checked for presence, never followed outside the sessions root.
import { join } from 'node:path';
import { Fields, isRecord, type WarningList } from '../coerce.ts';
import { statPath } from '../file-bytes.ts';

/** not_captured: the producer did not write it; refused: the path leaves the sessions root; unchecked until probed. */
export type PayloadState = 'not_captured' | 'refused' | 'unchecked' | 'present' | 'missing';

export interface PayloadRef {
  kind: string | null;
  path: string | null;
  format: string | null;
  compression: string | null;
  originalBytes: number | null;
  storedBytes: number | null;
  sha256: string | null;
  captured: boolean | null;
  truncated: boolean | null;
  redacted: boolean | null;
  state: PayloadState;
  /** Bytes on disk, once probed and found. */
  size?: number;
}

export function bool(f: Fields, key: string): boolean | null {
  if (!f.present(key)) return null;
  const value = f.raw[key];
  if (typeof value === 'boolean') {
    f.used.add(key);
    return value;
  }
  f.warnings.wrongType(f.name(key), 'true or false', value);
  return null;
}

/**
 * The absolute path a producer-relative ref names inside `root`, or null when it would leave it:
 * absolute paths, drive letters, UNC paths, `..` climbing above the root and NUL bytes are refused.
 */
export function resolveInside(root: string, refPath: string): string | null {
  if (refPath.includes('\0') || /^(?:[a-zA-Z]:|[\\/])/.test(refPath)) return null;
  const stack: string[] = [];
  for (const segment of refPath.split(/[\\/]+/)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (stack.length === 0) return null;
      stack.pop();
    } else stack.push(segment);
  }
  return stack.length ? join(root, ...stack) : null;
}

/** Collects the refs of one session so their files can be looked for once, after parsing. */
export class PayloadRefs {
  readonly root: string;
  readonly warnings: WarningList;
  readonly all: PayloadRef[] = [];
  #pending: Array<{ ref: PayloadRef; abs: string }> = [];

  constructor(root: string, warnings: WarningList) {
    this.root = root;
    this.warnings = warnings;
  }

  /** Reads one ref object (`{kind, path, format, ..., captured}`); null when it is not an object with a path or capture flag. */
  read(value: unknown, field: string): PayloadRef | null {
    if (!isRecord(value)) {
      this.warnings.wrongType(field, 'a payload reference object', value);
      return null;
    }
    const f = new Fields(value, field, this.warnings);
    const ref: PayloadRef = {
      kind: f.string('kind'),
      path: f.string('path'),
      format: f.string('format'),
      compression: f.string('compression'),
      originalBytes: f.number('originalBytes'),
      storedBytes: f.number('compressedBytes') ?? f.number('storedBytes'),
      sha256: f.string('sha256'),
      captured: bool(f, 'captured'),
      truncated: bool(f, 'truncated'),
      redacted: bool(f, 'redacted'),
      state: 'not_captured',
    };
    if (ref.path === null && ref.captured === null) return null;
    this.all.push(ref);
    if (ref.path === null) return ref;
    const abs = resolveInside(this.root, ref.path);
    if (abs === null) {
      ref.state = 'refused';
      this.warnings.add('unsafe_payload_path', `A payload reference points outside the sessions folder (${JSON.stringify(ref.path)}); it was not opened.`);
    } else if (ref.captured !== false) {
      ref.state = 'unchecked';
      this.#pending.push({ ref, abs });
    }
    return ref;
  }

  /** Looks each captured ref's file up (stat only: bodies are never read here) and warns once about missing ones. */
  async probe(): Promise<void> {
    const missing: string[] = [];
    for (const { ref, abs } of this.#pending) {
      try {
        const info = await statPath(abs);
        if (info.isFile()) {
          ref.state = 'present';
          ref.size = info.size;
          continue;
        }
      } catch {
        // Absent or unreadable: reported below as missing.
      }
      ref.state = 'missing';
      missing.push(ref.path ?? '');
    }
    this.#pending = [];
    const first = missing[0];
    if (first === undefined) return;
    const message = `Payload files referenced by the session are not on disk (first: ${first}); only their recorded size and checksum are shown.`;
    for (let i = 0; i < missing.length; i++) this.warnings.add('missing_payload', message);
  }
}
