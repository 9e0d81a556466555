// Finds the identifiers and paths worth substring search in UTF-8 text, four bytes at a time where the text is plain words.

/** Byte classes: 0 ends a token (anything else, every byte of a non-ASCII character too), then digit, upper, lower, joiner. */
const DIGIT = 1;
const UPPER = 2;
const LOWER = 3;
const JOINER = 4;
const CLASS = new Uint8Array(256);
for (let c = 48; c <= 57; c++) CLASS[c] = DIGIT;
for (let c = 65; c <= 90; c++) CLASS[c] = UPPER;
for (let c = 97; c <= 122; c++) CLASS[c] = LOWER;
for (const ch of '_$./:\\-') CLASS[ch.charCodeAt(0)] = JOINER;
const TRIM_START = new Uint8Array(256);
for (const ch of '.:-') TRIM_START[ch.charCodeAt(0)] = 1;
const TRIM_END = new Uint8Array(256);
for (const ch of '.:/\\-') TRIM_END[ch.charCodeAt(0)] = 1;
/** Whether class `cur` after class `prev` inside a token makes it structured: a joiner, a hump, or a digit next to a letter. */
const HUMP = new Uint8Array(25);
for (let prev = 1; prev <= 4; prev++) {
  for (let cur = 1; cur <= 4; cur++) {
    HUMP[prev * 5 + cur] = Number(
      cur === JOINER ||
        (prev === LOWER && cur === UPPER) ||
        (prev !== DIGIT && prev !== JOINER && cur === DIGIT) ||
        (prev === DIGIT && (cur === UPPER || cur === LOWER)),
    );
  }
}

/** Identifiers kept are 5 to 200 bytes long (after trimming). */
const MIN_IDENT = 5;
const MAX_IDENT = 200;

/**
 * Whether all four bytes of `x` (little-endian) are ASCII lower-case letters or spaces: such a word holds no
 * identifier byte pattern, so the scan steps over it whole. (SWAR: per-byte comparisons by adding constants that
 * carry into each byte's high bit, which cannot overflow into the next byte for ASCII.)
 */
function plainWord(x: number): boolean {
  if ((x & 0x80808080) !== 0) return false;
  const lower = ((x + 0x1f1f1f1f) | 0) & ~((x + 0x05050505) | 0); // high bit: 0x61 <= byte < 0x7b
  const y = x ^ 0x20202020;
  const space = ~(((y & 0x7f7f7f7f) + 0x7f7f7f7f) | 0 | y); // high bit: byte == 0x20
  return ((lower | space) & 0x80808080) === (0x80808080 | 0);
}

/** Whether bytes[start, end) (one token: no class-0 bytes) has inner structure. */
function isStructured(bytes: Uint8Array, start: number, end: number): boolean {
  let prev = CLASS[bytes[start] as number] as number;
  if (prev === JOINER) return true;
  for (let i = start + 1; i < end; i++) {
    const cls = CLASS[bytes[i] as number] as number;
    if (HUMP[prev * 5 + cls] === 1) return true;
    prev = cls;
  }
  return false;
}

/**
 * Calls `found` with the start and end of every token of 5+ identifier bytes with inner structure in bytes[from, to),
 * until it returns false. `words` is an Int32Array over the same memory as `bytes` (which must start 4-byte aligned).
 * It reads UTF-8 bytes: identifiers are ASCII, and a non-ASCII character ends a token as it does in a string.
 */
export function scanIdents(bytes: Uint8Array, words: Int32Array, from: number, to: number, found: (start: number, end: number) => boolean): void {
  let i = from; // always at a token's start or between tokens
  const wordsEnd = to >> 2;
  while (i < to) {
    let w = i >> 2;
    if (w < wordsEnd && plainWord(words[w] as number)) {
      do w++;
      while (w < wordsEnd && plainWord(words[w] as number));
      // The token running into the next word may have started among the plain letters: back up to its start.
      let p = w << 2;
      while (p > i && CLASS[bytes[p - 1] as number] !== 0) p--;
      i = p;
    }
    while (i < to && CLASS[bytes[i] as number] === 0) i++;
    if (i === to) return;
    const start = i;
    let prev = CLASS[bytes[i] as number] as number;
    let structured = prev === JOINER;
    for (i++; i < to; i++) {
      const cls = CLASS[bytes[i] as number] as number;
      if (cls === 0) break;
      if (!structured && HUMP[prev * 5 + cls] === 1) structured = true;
      prev = cls;
    }
    if (structured && i - start >= MIN_IDENT && !found(start, i)) return;
  }
}

/**
 * The distinct identifiers of one text, as byte ranges of it, in the order first seen. An open-addressing table of
 * ranges (compared byte by byte), so no string is made for a token seen before; reused from session to session.
 */
export class IdentCollector {
  private slots = new Int32Array(1 << 12);
  /** A slot is taken when its stamp is the current generation, so a reset clears nothing. */
  private stamps = new Int32Array(1 << 12);
  private generation = 0;
  starts = new Int32Array(1 << 11);
  ends = new Int32Array(1 << 11);
  private hashes = new Int32Array(1 << 11);
  count = 0;
  /** Bytes the identifiers take written out, one space between them. */
  bytes = 0;

  reset(): void {
    this.generation++;
    this.count = 0;
    this.bytes = 0;
  }

  /**
   * Trims a token found by scanIdents of leading . : - and trailing . : / \ - (a sentence's full stop, a folder's
   * slash) and adds it when it is still 5-200 bytes with inner structure and not seen yet. True when added.
   */
  addToken(bytes: Uint8Array, start: number, end: number): boolean {
    while (start < end && TRIM_START[bytes[start] as number] === 1) start++;
    while (end > start && TRIM_END[bytes[end - 1] as number] === 1) end--;
    const length = end - start;
    if (length < MIN_IDENT || length > MAX_IDENT) return false;
    let hash = -2128831035; // FNV-1a
    for (let k = start; k < end; k++) hash = Math.imul(hash ^ (bytes[k] as number), 16777619);
    const { stamps, slots, starts, ends, hashes, generation } = this;
    const mask = slots.length - 1;
    let slot = hash & mask;
    while (stamps[slot] === generation) {
      const n = slots[slot] as number;
      if (hashes[n] === hash && (ends[n] as number) - (starts[n] as number) === length) {
        const other = (starts[n] as number) - start;
        let k = start;
        while (k < end && bytes[k + other] === bytes[k]) k++;
        if (k === end) return false;
      }
      slot = (slot + 1) & mask;
    }
    if (!isStructured(bytes, start, end)) return false;
    const n = this.count++;
    if (n === this.starts.length) this.growList();
    this.starts[n] = start;
    this.ends[n] = end;
    this.hashes[n] = hash;
    stamps[slot] = generation;
    slots[slot] = n;
    this.bytes += (n ? 1 : 0) + length;
    if (this.count * 2 > slots.length) this.rehash();
    return true;
  }

  private growList(): void {
    const grow = (a: Int32Array) => {
      const b = new Int32Array(a.length * 2);
      b.set(a);
      return b;
    };
    this.starts = grow(this.starts);
    this.ends = grow(this.ends);
    this.hashes = grow(this.hashes);
  }

  private rehash(): void {
    const size = this.slots.length * 2;
    this.slots = new Int32Array(size);
    this.stamps = new Int32Array(size);
    const mask = size - 1;
    const generation = this.generation;
    for (let n = 0; n < this.count; n++) {
      let slot = (this.hashes[n] as number) & mask;
      while (this.stamps[slot] === generation) slot = (slot + 1) & mask;
      this.stamps[slot] = generation;
      this.slots[slot] = n;
    }
  }
}
