// Each word of a text once: what the word index needs of text it only has to find (no snippet, no phrase), at a fraction of its tokens.

/** ASCII letters and digits are word bytes, and every byte of a non-ASCII character (the tokenizer splits those runs itself). */
const WORD = new Uint8Array(256);
for (let c = 48; c <= 57; c++) WORD[c] = 1;
for (let c = 65; c <= 90; c++) WORD[c] = 1;
for (let c = 97; c <= 122; c++) WORD[c] = 1;
for (let c = 128; c < 256; c++) WORD[c] = 1;

/** ASCII upper case folded to lower case; every other byte as it is. */
const FOLD = new Uint8Array(256);
for (let c = 0; c < 256; c++) FOLD[c] = c >= 65 && c <= 90 ? c | 0x20 : c;

const BASE_SLOTS = 1 << 14;

/** Open addressing over the words kept so far: where each starts in the buffer (+1; 0 is empty), its length, its hash. */
class WordTable {
  starts: Int32Array;
  lengths: Int32Array;
  hashes: Int32Array;
  private used = 0;

  constructor(size = BASE_SLOTS) {
    this.starts = new Int32Array(size);
    this.lengths = new Int32Array(size);
    this.hashes = new Int32Array(size);
  }

  /** Empty again for the next text: cleared in place, or made anew at its first size after a huge text grew it. */
  reset(): void {
    if (this.starts.length > BASE_SLOTS) {
      this.starts = new Int32Array(BASE_SLOTS);
      this.lengths = new Int32Array(BASE_SLOTS);
      this.hashes = new Int32Array(BASE_SLOTS);
    } else this.starts.fill(0);
    this.used = 0;
  }

  /** Whether the word at [start, start + length) of `buf` (hash `hash`) was kept before; if not, records it at `at`. */
  seenElseAdd(buf: Uint8Array, start: number, length: number, hash: number, at: number): boolean {
    const mask = this.starts.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const kept = this.starts[slot] as number;
      if (kept === 0) {
        this.starts[slot] = at + 1;
        this.lengths[slot] = length;
        this.hashes[slot] = hash;
        if (++this.used * 2 > this.starts.length) this.grow();
        return false;
      }
      if (this.hashes[slot] === hash && this.lengths[slot] === length && sameFolded(buf, kept - 1, start, length)) return true;
    }
  }

  private grow(): void {
    const { starts, lengths, hashes } = this;
    const size = starts.length * 2;
    const mask = size - 1;
    this.starts = new Int32Array(size);
    this.lengths = new Int32Array(size);
    this.hashes = new Int32Array(size);
    for (let i = 0; i < starts.length; i++) {
      if (!starts[i]) continue;
      let slot = (hashes[i] as number) & mask;
      while (this.starts[slot]) slot = (slot + 1) & mask;
      this.starts[slot] = starts[i] as number;
      this.lengths[slot] = lengths[i] as number;
      this.hashes[slot] = hashes[i] as number;
    }
  }
}

function sameFolded(buf: Uint8Array, a: number, b: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (FOLD[buf[a + i] as number] !== FOLD[buf[b + i] as number]) return false;
  return true;
}

/**
 * One table for every text this thread works on: a table of its own per session was 192 KB of zeroed typed arrays
 * outside V8's heap each time, and that memory's pressure alone made each scan worker run a full collection every
 * ~70 sessions (3,000 OpenCode sessions: 56 -> 10 full collections, first-scan CPU 5.5 -> 4.3 s).
 */
const shared = new WordTable();

/**
 * Keeps each run of word bytes of buf[start, end) once (ASCII case folded when comparing), space-separated, moved to
 * the front of that range; returns where the kept words end. FTS5's unicode61 tokenizer splits on every ASCII byte
 * that is no letter or digit (so on these spaces too), and splits a run holding a non-ASCII separator itself: the
 * words it finds in the result are exactly the words it finds in the text, each once. Typed arrays only, no string
 * per word: a realistic 14 MB of tool payloads in ~50 ms.
 */
export function keepDistinctWords(buf: Uint8Array, start: number, end: number): number {
  const table = shared;
  table.reset();
  let out = start;
  let i = start;
  while (i < end) {
    while (i < end && !WORD[buf[i] as number]) i++;
    if (i >= end) break;
    const from = i;
    let hash = 0x811c9dc5;
    for (; i < end && WORD[buf[i] as number]; i++) hash = Math.imul(hash ^ (FOLD[buf[i] as number] as number), 0x01000193);
    const length = i - from;
    // The kept words only ever move forward (a separator came before every word but the first).
    const at = out === start ? out : out + 1;
    if (table.seenElseAdd(buf, from, length, hash, at)) continue;
    if (out !== start) buf[out] = 0x20;
    if (at !== from) buf.copyWithin(at, from, from + length);
    out = at + length;
  }
  return out;
}

/** The same for strings (pieces of text, joined by newlines before keeping their words): tests and small callers. */
export function distinctWords(pieces: readonly string[]): string {
  const buf = Buffer.from(pieces.join('\n'));
  return buf.toString('utf8', 0, keepDistinctWords(buf, 0, buf.length));
}
