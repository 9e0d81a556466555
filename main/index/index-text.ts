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
 * The index text as one UTF-8 buffer and the lengths of its four parts (in UTF-16 units): the scan worker
 * transfers the buffer, so the text crosses to the writer thread without a copy in the main thread's heap.
 */
export interface PackedIndexText {
  packed: Uint8Array;
  lengths: [number, number, number, number];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function packIndexText(text: IndexText): PackedIndexText {
  const { title, body, meta, idents } = text;
  return { packed: encoder.encode(title + body + meta + idents), lengths: [title.length, body.length, meta.length, idents.length] };
}

/** Lone surrogates come back as U+FFFD, one unit each, so the lengths still cut the parts apart. */
export function unpackIndexText(text: PackedIndexText): IndexText {
  const all = decoder.decode(text.packed);
  const [a, b, c] = text.lengths;
  return { title: all.slice(0, a), body: all.slice(a, a + b), meta: all.slice(a + b, a + b + c), idents: all.slice(a + b + c) };
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
