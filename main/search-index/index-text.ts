// Turns a parsed Session into the text the full-text index stores (run in the scan worker, off the main thread).
import type { MessagePart, Session } from '../../shared/session.ts';
import { IdentCollector, scanIdents } from './ident-scan.ts';
import { keepDistinctWords } from './distinct-words.ts';
import { MoreText } from './more-text.ts';

/** What the index keeps per session: weighted columns plus the identifiers for substring search. */
export interface IndexText {
  title: string;
  /** One segment per message, in order, joined by MESSAGE_SEPARATOR, so a match maps back to its message. */
  body: string;
  /** Project, branch, ids, paths, summaries and outcomes. */
  meta: string;
  /** Distinct identifiers and paths (camelCase names, snake_case, tool-use ids, file paths). */
  idents: string;
  /**
   * Every other word of the session, each once (space-separated): what the caps cut from the body (long tool inputs
   * and outputs, a body past BODY_CAP), tool payloads kept beside a message (Claude Code's toolUseResult: an edited
   * file's whole text), format extras, the system prompt, operations' details and todos' in-progress wording. Indexed with the body, never stored: a match there has
   * no snippet, and phrases are matched in the stored body only.
   */
  more: string;
}

/**
 * The index text as one UTF-8 buffer and the byte length of each of its five parts: the scan worker transfers
 * the buffer, and the writer binds the parts' bytes to SQLite as they are (FTS5 tokenizes a blob's bytes as
 * UTF-8 text), so the text is never decoded into a string and encoded again on the writer thread.
 */
export interface PackedIndexText {
  packed: Uint8Array;
  bytes: [number, number, number, number, number];
}

const decoder = new TextDecoder();

export interface IndexTextParts {
  title: Uint8Array;
  body: Uint8Array;
  meta: Uint8Array;
  idents: Uint8Array;
  more: Uint8Array;
}

/** The five parts as views of the packed bytes (no copy). */
export function packedParts(text: PackedIndexText): IndexTextParts {
  const [a, b, c, d, e] = text.bytes;
  const p = text.packed;
  return {
    title: p.subarray(0, a),
    body: p.subarray(a, a + b),
    meta: p.subarray(a + b, a + b + c),
    idents: p.subarray(a + b + c, a + b + c + d),
    more: p.subarray(a + b + c + d, a + b + c + d + e),
  };
}

export function unpackIndexText(text: PackedIndexText): IndexText {
  const parts = packedParts(text);
  return {
    title: decoder.decode(parts.title),
    body: decoder.decode(parts.body),
    meta: decoder.decode(parts.meta),
    idents: decoder.decode(parts.idents),
    more: decoder.decode(parts.more),
  };
}

/** A stored text column: a string, or the UTF-8 bytes the writer bound (a blob). */
export function storedString(value: string | Uint8Array | null | undefined): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : decoder.decode(value);
}

export const isPacked = (text: IndexText | PackedIndexText): text is PackedIndexText => 'packed' in text;

/** Record separator: the tokenizer skips it, and no message text legitimately holds it. */
export const MESSAGE_SEPARATOR = '\u001e';

/**
 * Caps on the stored body (what snippets are cut from): a 50 MB transcript's stored text stays bounded. What they cut
 * is not lost: it goes to `more`, indexed but not stored.
 */
export const TOOL_INPUT_CAP = 4 * 1024;
export const TOOL_OUTPUT_CAP = 8 * 1024;
export const BODY_CAP = 2 * 1024 * 1024;
const IDENTS_CAP = 256 * 1024;

/** A JSON escape of a line break or tab (`\\n`, `\\r`, `\\t`), or an escaped backslash, which stays as it is. */
const WHITESPACE_ESCAPE = /\\(?:([nrt])|\\)/g;
const WHITESPACE: Record<string, string> = { n: '\n', r: '\r', t: '\t' };

/**
 * A tool's input as its JSON, with line breaks and tabs as the characters they stand for: written as `\\n`, the
 * tokenizer read the word after a line break glued to the `n` (a Write whose content had "first\nsecond" was found
 * by "nsecond", never by "second"). Escaped backslashes stay escaped, so `C:\\new` keeps its backslash.
 */
function json(value: unknown): string {
  if (typeof value === 'string') return value;
  let text: string;
  try {
    text = JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
  return text.includes('\\') ? text.replace(WHITESPACE_ESCAPE, (escape, letter?: string) => (letter ? (WHITESPACE[letter] as string) : escape)) : text;
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;

/** Where the word holding character `at` starts (at most 100 characters back): a cut there splits no word in two. */
function wordStart(text: string, at: number): number {
  let i = at;
  while (i > 0 && at - i < 100 && WORD_CHAR.test(text[i - 1] as string)) i--;
  return i;
}

/** Cuts `text` at `max` characters; the rest, from the start of the word cut, goes to `more`. */
function capInto(text: string, max: number, more: MoreText): string {
  if (text.length <= max) return text;
  more.add(text.slice(wordStart(text, max)));
  return text.slice(0, max);
}

/** A part's stored text (capped; what the caps cut goes to `more`). */
function partText(part: MessagePart, more: MoreText): string {
  switch (part.type) {
    case 'text':
    case 'thinking':
      return part.text;
    case 'tool_call':
      return `${part.name} ${part.callId ?? ''} ${capInto(json(part.input), TOOL_INPUT_CAP, more)}`;
    case 'tool_result':
      return `${part.callId ?? ''} ${capInto(part.output, TOOL_OUTPUT_CAP, more)}`;
    case 'compaction':
      return part.summary ?? '';
    case 'image':
      return '';
  }
}

/**
 * The session's index text built straight into UTF-8 in a reused buffer: title, body, meta, then the rest of its
 * words. Building strings, joining them, encoding them and scanning them again took a third of the scan worker's
 * time (10,000 sessions, 550 MB of text).
 */
class TextBuilder {
  /** Empty until a session is built here (the main thread never builds one in a scan). */
  private static scratch = Buffer.alloc(0);
  /** A buffer grown past this for one huge session is let go afterwards rather than kept for the next. */
  private static readonly KEEP = 8 << 20;
  at = 0;

  room(n: number): Buffer {
    let buf = TextBuilder.scratch;
    if (buf.length - this.at < n) {
      const grown = Buffer.allocUnsafeSlow(Math.max(buf.length * 2, this.at + n, 1 << 20));
      buf.copy(grown, 0, 0, this.at);
      buf = TextBuilder.scratch = grown;
    }
    return buf;
  }

  /**
   * Lone surrogates are written as U+FFFD, as TextEncoder does. A long text goes a million characters at a time, so
   * the buffer grows to what the text takes, not three bytes for every character of it (a cut between the two
   * halves of a surrogate pair is never made).
   */
  write(text: string): void {
    const STEP = 1 << 20;
    for (let from = 0; from < text.length;) {
      let to = Math.min(text.length, from + STEP);
      if (to < text.length && (text.charCodeAt(to - 1) & 0xfc00) === 0xd800) to--;
      const piece = from === 0 && to === text.length ? text : text.slice(from, to);
      this.at += this.room(piece.length * 3).write(piece, this.at, 'utf8');
      from = to;
    }
  }

  byte(b: number): void {
    this.room(1)[this.at++] = b;
  }

  /** Keeps each word written since `from` once (distinct-words.ts). */
  keepDistinctWordsFrom(from: number): void {
    this.at = keepDistinctWords(TextBuilder.scratch, from, this.at);
  }

  /**
   * What was written, in memory of its own (to be moved to another thread), and the reused buffer made ready for the
   * next session: an exact-size copy, or, after a huge session, the grown buffer itself (not kept for the next).
   */
  take(): Uint8Array {
    let out: Uint8Array;
    if (TextBuilder.scratch.length > TextBuilder.KEEP) {
      out = new Uint8Array(TextBuilder.scratch.buffer, TextBuilder.scratch.byteOffset, this.at);
      TextBuilder.scratch = Buffer.alloc(0);
    } else {
      out = new Uint8Array(this.at);
      out.set(TextBuilder.scratch.subarray(0, this.at));
    }
    this.at = 0;
    return out;
  }
}

/**
 * Writes one segment per message, separated by MESSAGE_SEPARATOR, within BODY_CAP characters (separators counted);
 * what does not fit goes to `more`, and so do the messages' tool payloads (annotations).
 */
function writeBody(session: Session, out: TextBuilder, more: MoreText): void {
  let used = 0;
  let first = true;
  for (const message of session.messages) {
    more.knowParts(message.parts, message.annotations !== undefined);
    if (used >= BODY_CAP) {
      for (const part of message.parts) more.add(partText(part, more));
    } else {
      if (!first) out.byte(0x1e);
      first = false;
      const room = BODY_CAP - used;
      let length = 0;
      let joined = false;
      for (const part of message.parts) {
        let piece = partText(part, more);
        if (!piece) continue;
        if (length >= room) {
          more.add(piece);
          continue;
        }
        if (joined) {
          out.byte(0x0a);
          length++;
        }
        joined = true;
        if (length + piece.length > room) {
          more.add(piece.slice(wordStart(piece, room - length)));
          piece = piece.slice(0, room - length);
        }
        if (piece.includes(MESSAGE_SEPARATOR)) piece = piece.replaceAll(MESSAGE_SEPARATOR, ' ');
        out.write(piece);
        length += piece.length;
      }
      used += length + 1;
    }
    if (message.annotations !== undefined) more.addStrings(message.annotations);
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
    session.model?.provider,
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

/**
 * The identifiers and paths worth substring search in a session's text, space-separated: the title's first, then the
 * metadata's, then the body's, until IDENTS_CAP. `bytes` holds title | body | meta as UTF-8 and starts 4-byte
 * aligned, with at least 4 bytes after `metaEnd`; `words` views the same memory as 32-bit words.
 */
function collectIdents(bytes: Uint8Array, words: Int32Array, titleEnd: number, bodyEnd: number, metaEnd: number): Uint8Array {
  const idents = collector;
  idents.reset();
  // The budget counts a space after every identifier.
  const budgetLeft = () => idents.bytes + 1 < IDENTS_CAP;
  const collect = (start: number, end: number): boolean => {
    idents.addToken(bytes, start, end);
    return budgetLeft();
  };
  scanIdents(bytes, words, 0, titleEnd, collect);
  if (budgetLeft()) scanIdents(bytes, words, bodyEnd, metaEnd, collect);
  if (budgetLeft()) scanIdents(bytes, words, titleEnd, bodyEnd, collect);
  // Identifiers are ASCII: their bytes are their UTF-8.
  const out = new Uint8Array(Math.max(0, idents.bytes));
  let at = 0;
  for (let n = 0; n < idents.count; n++) {
    if (n) out[at++] = 0x20;
    const start = idents.starts[n] as number;
    const end = idents.ends[n] as number;
    out.set(bytes.subarray(start, end), at);
    at += end - start;
  }
  return out.subarray(0, at);
}

/**
 * The identifiers of a session's stored text: what the writer indexes for substring search, off the scan's path
 * (finding them took two thirds of the scan worker's index-text time). `body`: its stored pieces, in order.
 */
export function identsOf(title: Uint8Array, body: readonly Uint8Array[], meta: Uint8Array): Uint8Array {
  const bodyBytes = body.reduce((n, b) => n + b.length, 0);
  const total = title.length + bodyBytes + meta.length;
  // Its own memory starts aligned; zeroed, so the word-at-a-time scan reads nothing stale past the end.
  const buf = new Uint8Array(total + 8);
  buf.set(title, 0);
  let at = title.length;
  for (const piece of body) {
    buf.set(piece, at);
    at += piece.length;
  }
  buf.set(meta, at);
  const words = new Int32Array(buf.buffer, buf.byteOffset, buf.length >> 2);
  return collectIdents(buf, words, title.length, title.length + bodyBytes, total);
}

/**
 * The index text of a session as the scan worker hands it on: one UTF-8 buffer (see PackedIndexText). Its
 * identifiers are left out (`idents` empty): the writer finds them in the stored text when it indexes them (identsOf).
 */
export function extractPackedIndexText(session: Session): PackedIndexText {
  const out = new TextBuilder();
  const more = new MoreText();
  out.write(session.title);
  more.know(session.title);
  const titleEnd = out.at;
  writeBody(session, out, more);
  const bodyEnd = out.at;
  const meta = metaOf(session);
  out.write(meta);
  for (const line of meta.split('\n')) more.know(line);
  const metaEnd = out.at;
  const identsEnd = metaEnd;
  // The rest of the session's words: its extras (titles, summaries), the model's parameters, the system prompt and
  // where it came from, the configuration, operations.
  more.addStrings(session.extra);
  if (session.model) more.addStrings(session.model.parameters);
  if (session.systemPrompt) more.addStrings([session.systemPrompt.path, session.systemPrompt.text]);
  for (const entry of session.config) more.addStrings(entry.value);
  // What each operation's detail holds (a gate's note, a command run) and the files it staged, shown in its operation
  // tree; a todo's in-progress wording.
  for (const op of session.operations) {
    more.addStrings(op.detail);
    if (op.vcs) more.addStrings(op.vcs.staged);
  }
  for (const todo of session.todos) if (todo.activeForm) more.addStrings(todo.activeForm);
  // Only found, never shown: each of its words once (distinct-words.ts). A sixth of the bytes on the realistic
  // corpus, so the catch-up indexes it sooner, and a common word's list of positions stays short for ranking.
  more.pieces.forEach((piece, i) => {
    if (i) out.byte(0x0a);
    out.write(piece);
  });
  out.keepDistinctWordsFrom(identsEnd);
  const moreEnd = out.at;
  return { packed: out.take(), bytes: [titleEnd, bodyEnd - titleEnd, metaEnd - bodyEnd, identsEnd - metaEnd, moreEnd - identsEnd] };
}

/** The same text as strings, identifiers included (the team store, tests, and callers that want to read it). */
export function extractIndexText(session: Session): IndexText {
  const packed = extractPackedIndexText(session);
  const parts = packedParts(packed);
  return { ...unpackIndexText(packed), idents: decoder.decode(identsOf(parts.title, [parts.body], parts.meta)) };
}
