// Turns a parsed Session into the text the full-text index stores (run in the scan worker, off the main thread).
import type { MessagePart, Session } from '../../shared/session.ts';

/** What the index keeps per session: weighted columns plus the identifiers for substring search. */
export interface IndexText {
  title: string;
  /** One segment per message, in order, joined by MESSAGE_SEPARATOR, so a match maps back to its message. */
  body: string;
  /** Project, branch, ids, paths, summaries and outcomes. */
  meta: string;
  /** Distinct identifiers and paths (camelCase names, snake_case, tool-use ids, file paths). */
  idents: string;
}

/**
 * The index text as one UTF-8 buffer and the byte length of each of its four parts: the scan worker transfers
 * the buffer, and the writer binds the parts' bytes to SQLite as they are (FTS5 tokenizes a blob's bytes as
 * UTF-8 text), so the text is never decoded into a string and encoded again on the writer thread.
 */
export interface PackedIndexText {
  packed: Uint8Array;
  bytes: [number, number, number, number];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Lone surrogates are written as U+FFFD, as TextEncoder does anywhere. */
export function packIndexText(text: IndexText): PackedIndexText {
  const parts = [text.title, text.body, text.meta, text.idents];
  const packed = new Uint8Array(parts.reduce((n, part) => n + Buffer.byteLength(part, 'utf8'), 0));
  const bytes: PackedIndexText['bytes'] = [0, 0, 0, 0];
  let at = 0;
  parts.forEach((part, i) => {
    const { written } = encoder.encodeInto(part, packed.subarray(at));
    bytes[i] = written;
    at += written;
  });
  return { packed, bytes };
}

/** The four parts as views of the packed bytes (no copy). */
export function packedParts(text: PackedIndexText): { title: Uint8Array; body: Uint8Array; meta: Uint8Array; idents: Uint8Array } {
  const [a, b, c, d] = text.bytes;
  const p = text.packed;
  return { title: p.subarray(0, a), body: p.subarray(a, a + b), meta: p.subarray(a + b, a + b + c), idents: p.subarray(a + b + c, a + b + c + d) };
}

export function unpackIndexText(text: PackedIndexText): IndexText {
  const parts = packedParts(text);
  return { title: decoder.decode(parts.title), body: decoder.decode(parts.body), meta: decoder.decode(parts.meta), idents: decoder.decode(parts.idents) };
}

/** A stored text column: a string, or the UTF-8 bytes the writer bound (a blob). */
export function storedString(value: string | Uint8Array | null | undefined): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : decoder.decode(value);
}

export const isPacked = (text: IndexText | PackedIndexText): text is PackedIndexText => 'packed' in text;

/** Record separator: the tokenizer skips it, and no message text legitimately holds it. */
export const MESSAGE_SEPARATOR = '\u001e';

/** Caps keep a 50 MB transcript's index entry bounded; the first part of long outputs is what people search. */
export const TOOL_INPUT_CAP = 4 * 1024;
export const TOOL_OUTPUT_CAP = 8 * 1024;
export const BODY_CAP = 2 * 1024 * 1024;
const IDENTS_CAP = 256 * 1024;

const cap = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

function json(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

function partText(part: MessagePart): string {
  switch (part.type) {
    case 'text':
    case 'thinking':
      return part.text;
    case 'tool_call':
      return `${part.name} ${part.callId ?? ''} ${cap(json(part.input), TOOL_INPUT_CAP)}`;
    case 'tool_result':
      return `${part.callId ?? ''} ${cap(part.output, TOOL_OUTPUT_CAP)}`;
    case 'compaction':
      return part.summary ?? '';
    case 'image':
      return '';
  }
}

/** A token is an identifier worth substring search when it has inner structure: case humps, _ . / : - $ or digits. */
const STRUCTURED = /[_$./:\\-]|[a-z][A-Z]|[A-Za-z][0-9]|[0-9][A-Za-z]/;

// A character loop instead of a regular expression: over megabytes of transcript it is several times faster.
/** Identifier characters: letters, digits, _ $ . / : \ - (ASCII). */
const CLASS = new Uint8Array(128);
for (let c = 48; c <= 57; c++) CLASS[c] = 1; // digit
for (let c = 65; c <= 90; c++) CLASS[c] = 2; // upper
for (let c = 97; c <= 122; c++) CLASS[c] = 3; // lower
for (const ch of '_$./:\\-') CLASS[ch.charCodeAt(0)] = 4; // joiner
function scanIdents(text: string, found: (token: string) => boolean): void {
  const n = text.length;
  let start = -1;
  let structured = false;
  let prev = 0;
  for (let i = 0; i <= n; i++) {
    const code = i < n ? text.charCodeAt(i) : 0;
    const cls = code < 128 ? (CLASS[code] as number) : 0;
    if (cls === 0) {
      if (start >= 0 && structured && i - start >= 5) {
        if (!found(text.slice(start, i))) return;
      }
      start = -1;
      structured = false;
      prev = 0;
      continue;
    }
    if (start < 0) start = i;
    else if (!structured && (cls === 4 || (prev === 3 && cls === 2) || (prev !== 1 && prev !== 4 && cls === 1) || (prev === 1 && cls >= 2 && cls <= 3))) structured = true;
    if (cls === 4 && start === i) structured = true;
    prev = cls;
  }
}

export function identifiersOf(text: string, into: Set<string>, budget: { left: number }): void {
  scanIdents(text, (candidate) => {
    const token = candidate.replace(/^[.:-]+|[.:/\\-]+$/g, '');
    if (token.length >= 5 && token.length <= 200 && !into.has(token) && STRUCTURED.test(token)) {
      into.add(token);
      budget.left -= token.length + 1;
    }
    return budget.left > 0;
  });
}

export function extractIndexText(session: Session): IndexText {
  const segments: string[] = [];
  let used = 0;
  for (const message of session.messages) {
    if (used >= BODY_CAP) break;
    const text = message.parts.map(partText).filter(Boolean).join('\n').replaceAll(MESSAGE_SEPARATOR, ' ');
    const kept = cap(text, BODY_CAP - used);
    segments.push(kept);
    used += kept.length + 1;
  }
  const s = session.summary;
  const meta = [
    session.id,
    session.key,
    session.project.path,
    session.project.name,
    session.project.branch,
    session.project.headCommit,
    session.model?.name,
    session.outcome?.status,
    session.outcome?.summary,
    session.outcome?.commitSha,
    s?.overview,
    ...(s?.decisions ?? []),
    ...(s?.outcomes ?? []),
    ...(s?.openItems ?? []),
    ...(s?.tags ?? []),
    ...session.todos.map((t) => t.content),
    ...session.artifacts.map((a) => a.path),
    ...session.operations.map((o) => o.name),
    ...session.sourceFiles.map((f) => f.path),
  ]
    .filter((v): v is string => typeof v === 'string' && v.length > 0)
    .join('\n');
  const body = segments.join(MESSAGE_SEPARATOR);
  const idents = new Set<string>();
  const budget = { left: IDENTS_CAP };
  identifiersOf(session.title, idents, budget);
  identifiersOf(meta, idents, budget);
  identifiersOf(body, idents, budget);
  return { title: session.title, body, meta, idents: [...idents].join(' ') };
}
