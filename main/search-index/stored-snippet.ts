// Finds a file's best match for its snippet in the stored text: title and metadata, then the transcript piece by piece.
import type { StatementSync } from 'node:sqlite';
import { firstChunkRowid } from './body-chunks.ts';
import { storedString } from './index-text.ts';
import type { Term } from './query-parser.ts';
import { bestInPart, locateMatch, settledInPart, type MatchLocation } from './snippet.ts';

/** What reading the stored text needs of the index: its cached statements. */
export interface StatementSource {
  statement(sql: string): StatementSync;
}

/**
 * A body larger than this is read for a snippet only when the title and metadata do not match: reading megabytes
 * of transcript costs more than the rest of a search, and a title hit is a fine snippet.
 */
export const BIG_BODY_BYTES = 256 * 1024;

/**
 * Pieces read for one snippet at most (128 KB). When no message of them holds every term, the best message among
 * them is shown: with words that meet in no message, reading a 2 MB body to the end for each of 20 results took a
 * search of two words 300 ms on the realistic corpus, and reading 8 pieces (windows of 2, 4 and 8 pieces joined, 448
 * KB for each result, most of it in V8's large-object space, fresh pages each time) still 80-150 ms.
 */
export const SNIPPET_READ_PIECES = 4;

const HEAD = 'SELECT title, meta, body_bytes AS bytes, body_chunks AS chunks FROM texts WHERE id = ?';
// LIKE folds ASCII case as lower() does, without copying each piece: 2 MB of pieces scanned in 1.1 ms instead of 4-5.
const FIRST_WITH = "SELECT rowid - ? AS n FROM body_chunks WHERE rowid >= ? AND rowid < ? AND text LIKE ? ESCAPE '\\' ORDER BY rowid LIMIT 1";
const PIECES = 'SELECT rowid - ? AS n, first_message AS firstMessage, text FROM body_chunks WHERE rowid >= ? AND rowid < ? ORDER BY rowid';

type Stored = string | Uint8Array | null;

/**
 * What SQLite can look for to find the first piece that may hold each positive term, as LIKE patterns, best
 * first: a phrase as written with single spaces (when no piece has it so, its first word), any other term as it
 * is. A term whose words are not plain ASCII is left out (LIKE folds ASCII only, the snippet's pattern all of
 * Unicode), and so bounds nothing.
 */
function sqlNeedles(terms: Term[]): string[][] {
  const needles: string[][] = [];
  const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const ascii = (text: string) => /^[\x20-\x7e]+$/.test(text);
  for (const t of terms) {
    if (t.negated) continue;
    const words = t.kind === 'phrase' ? t.text.split(/[^\p{L}\p{N}]+/u).filter(Boolean) : [t.text];
    const tries = [...(words.length > 1 ? [words.join(' ')] : []), words[0] ?? ''].filter((w) => w && ascii(w));
    if (tries.length) needles.push(tries.map(likePattern));
  }
  return needles;
}

/** A file's pieces as read so far: always one run [lo, hi), grown at either end. */
class Pieces {
  private readonly texts: string[] = [];
  private readonly firsts: number[] = [];
  private lo = 0;
  private hi = 0;
  private readonly index: StatementSource;
  private readonly base: number;
  constructor(index: StatementSource, base: number) {
    this.index = index;
    this.base = base;
  }

  /** The text of pieces [from, to) and the message the first starts in, reading only what is missing. */
  read(from: number, to: number): { text: string; firstMessage: number } {
    if (this.hi === this.lo) {
      this.lo = this.hi = from;
    }
    if (from < this.lo) this.load(from, this.lo, true);
    if (to > this.hi) this.load(this.hi, to, false);
    const text = this.texts.slice(from - this.lo, to - this.lo).join('');
    return { text, firstMessage: this.firsts[from - this.lo] ?? 0 };
  }

  private load(from: number, to: number, before: boolean): void {
    const rows = this.index.statement(PIECES).all(this.base, this.base + from, this.base + to) as Array<{ n: number; firstMessage: number; text: Stored }>;
    const texts = rows.map((r) => storedString(r.text));
    const firsts = rows.map((r) => r.firstMessage);
    if (before) {
      this.texts.unshift(...texts);
      this.firsts.unshift(...firsts);
      this.lo = from;
    } else {
      this.texts.push(...texts);
      this.firsts.push(...firsts);
      this.hi = to;
    }
  }
}

/**
 * The match locateMatch would find in the file's whole stored text, reading as little of the transcript as
 * settles it. SQLite finds the first piece holding each term (in C, without handing megabytes to
 * JavaScript; a phrase by its spaced form, so one written with other punctuation between its words may be passed
 * over for a later one); the scan starts a piece before it and doubles its reach until settledInPart says the rest cannot
 * change the answer. When it never does, the whole body is read and scanned as one. (A term cut in two by a piece
 * boundary, or 500 matches before the best message, are the rare cases where a later match is named.)
 */
export function locateStored(index: StatementSource, id: number, terms: Term[]): MatchLocation {
  const head = index.statement(HEAD).get(id) as { title: Stored; meta: Stored; bytes: number; chunks: number } | undefined;
  if (!head) return { messageIndex: null, snippet: [] };
  const fields = { title: storedString(head.title), meta: storedString(head.meta) };
  if (head.bytes > BIG_BODY_BYTES) {
    const outside = locateMatch({ ...fields, body: '' }, terms);
    if (outside.snippet.some((p) => p.hit)) return outside;
  }
  const base = firstChunkRowid(id);
  const pieces = new Pieces(index, base);
  // A message holding every term comes no sooner than the first piece holding each: start a piece before the latest.
  let from = 0;
  if (head.chunks > 2) {
    for (const tries of sqlNeedles(terms)) {
      let inBody = false;
      for (const needle of tries) {
        const found = index.statement(FIRST_WITH).get(base, base, base + head.chunks, needle) as { n: number } | undefined;
        if (!found) continue;
        from = Math.max(from, found.n - 1);
        inBody = true;
        break;
      }
      // A term no stored piece holds was found in the text only indexed (what the caps cut, tool payloads): no
      // message of the stored body holds every term, and reading it all (megabytes) would not change that.
      if (!inBody) return locateMatch({ ...fields, body: '' }, terms);
    }
  }
  let to = Math.min(head.chunks, from + 2);
  for (;;) {
    const { text, firstMessage } = pieces.read(from, to);
    const atStart = from === 0;
    const atEnd = to >= head.chunks;
    if (atStart && atEnd) return locateMatch({ ...fields, body: text }, terms);
    const part = { text, firstMessage, atStart, atEnd };
    const settled = settledInPart(part, terms);
    if (settled) return settled;
    if (to - from >= SNIPPET_READ_PIECES) return bestInPart(part, terms) ?? locateMatch({ ...fields, body: '' }, terms);
    if (atEnd) from = Math.max(0, to - SNIPPET_READ_PIECES);
    else to = Math.min(head.chunks, to + (to - from));
  }
}

/** The whole text stored for one file (by its row id); undefined when the file has none. */
export function storedText(index: StatementSource, id: number): { title: string; body: string; meta: string } | undefined {
  const head = index.statement(HEAD).get(id) as { title: Stored; meta: Stored; chunks: number } | undefined;
  if (!head) return undefined;
  const body = head.chunks ? new Pieces(index, firstChunkRowid(id)).read(0, head.chunks).text : '';
  return { title: storedString(head.title), body, meta: storedString(head.meta) };
}
