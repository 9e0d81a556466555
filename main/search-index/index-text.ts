// Turns a parsed Session into the text the full-text index stores (run in the scan worker, off the main thread).
import type { MessagePart, Session } from '../../shared/session.ts';
import { IdentCollector, scanIdents } from './ident-scan.ts';

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

const decoder = new TextDecoder();

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

/**
 * The session's index text built straight into UTF-8 in a reused buffer: title, body, meta, then the identifiers
 * scanned from those bytes. Building strings, joining them, encoding them and scanning them again took a third of
 * the scan worker's time (10,000 sessions, 550 MB of text).
 */
class TextBuilder {
  /** Empty until a session is built here (the main thread never builds one in a scan). */
  private static scratch = Buffer.alloc(0);
  /** The same memory as whole 32-bit words, for the identifier scan (an allocUnsafeSlow buffer starts aligned). */
  private static words = new Int32Array(0);
  /** A buffer grown past this for one huge session is let go afterwards rather than kept for the next. */
  private static readonly KEEP = 8 << 20;
  at = 0;

  get bytes(): Buffer {
    return TextBuilder.scratch;
  }

  get words(): Int32Array {
    return TextBuilder.words;
  }

  room(n: number): Buffer {
    let buf = TextBuilder.scratch;
    if (buf.length - this.at < n) {
      const grown = Buffer.allocUnsafeSlow(Math.max(buf.length * 2, this.at + n, 1 << 20));
      buf.copy(grown, 0, 0, this.at);
      buf = TextBuilder.scratch = grown;
      TextBuilder.words = new Int32Array(grown.buffer, grown.byteOffset, grown.length >> 2);
    }
    return buf;
  }

  /** Lone surrogates are written as U+FFFD, as TextEncoder does. */
  write(text: string): void {
    if (!text) return;
    this.at += this.room(text.length * 3).write(text, this.at, 'utf8');
  }

  byte(b: number): void {
    this.room(1)[this.at++] = b;
  }

  /** An exact-size copy of what was written, and the reused buffer made ready for the next session. */
  take(): Uint8Array {
    const out = new Uint8Array(this.at);
    out.set(TextBuilder.scratch.subarray(0, this.at));
    if (TextBuilder.scratch.length > TextBuilder.KEEP) {
      TextBuilder.scratch = Buffer.alloc(0);
      TextBuilder.words = new Int32Array(0);
    }
    this.at = 0;
    return out;
  }
}

/** Writes one segment per message, separated by MESSAGE_SEPARATOR, within BODY_CAP characters (separators counted). */
function writeBody(session: Session, out: TextBuilder): void {
  let used = 0;
  let first = true;
  for (const message of session.messages) {
    if (used >= BODY_CAP) break;
    if (!first) out.byte(0x1e);
    first = false;
    const room = BODY_CAP - used;
    let length = 0;
    let joined = false;
    for (const part of message.parts) {
      let piece = partText(part);
      if (!piece) continue;
      if (joined) {
        if (length >= room) break;
        out.byte(0x0a);
        length++;
      }
      joined = true;
      if (length + piece.length > room) piece = piece.slice(0, room - length);
      if (piece.includes(MESSAGE_SEPARATOR)) piece = piece.replaceAll(MESSAGE_SEPARATOR, ' ');
      out.write(piece);
      length += piece.length;
      if (length >= room) break;
    }
    used += length + 1;
  }
}

function metaOf(session: Session): string {
  const s = session.summary;
  return [
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
}

const collector = new IdentCollector();

/** The index text of a session as the scan worker hands it on: one UTF-8 buffer (see PackedIndexText). */
export function extractPackedIndexText(session: Session): PackedIndexText {
  const out = new TextBuilder();
  out.write(session.title);
  const titleEnd = out.at;
  writeBody(session, out);
  const bodyEnd = out.at;
  out.write(metaOf(session));
  const metaEnd = out.at;
  // Identifiers in the title first, then the metadata, then the body, until the budget runs out.
  const idents = collector;
  idents.reset();
  const bytes = out.bytes;
  const words = out.words;
  // The budget counts a space after every identifier.
  const budgetLeft = () => idents.bytes + 1 < IDENTS_CAP;
  const collect = (start: number, end: number): boolean => {
    idents.addToken(bytes, start, end);
    return budgetLeft();
  };
  scanIdents(bytes, words, 0, titleEnd, collect);
  if (budgetLeft()) scanIdents(bytes, words, bodyEnd, metaEnd, collect);
  if (budgetLeft()) scanIdents(bytes, words, titleEnd, bodyEnd, collect);
  // Copied after the metadata (identifiers are ASCII, so their bytes are their UTF-8); growing keeps the offsets.
  const into = out.room(idents.bytes);
  for (let n = 0; n < idents.count; n++) {
    if (n) into[out.at++] = 0x20;
    out.at += into.copy(into, out.at, idents.starts[n] as number, idents.ends[n] as number);
  }
  const identsEnd = out.at;
  return { packed: out.take(), bytes: [titleEnd, bodyEnd - titleEnd, metaEnd - bodyEnd, identsEnd - metaEnd] };
}

/** The same text as strings (tests, and callers that want to read it). */
export function extractIndexText(session: Session): IndexText {
  return unpackIndexText(extractPackedIndexText(session));
}
