// Each file's dashboard facts (its source, project, buckets, tools and day rows) packed into one compact binary value (usage_file_packs), so a scan of thousands of files reads one value per file instead of fourteen per day row and a session row.

/** A day row as the pack holds it: its usage_file_days row's values, the hours JSON as triples `[local hour, calls, tokens]`. */
export interface PackedDay {
  day: string;
  model: string;
  /** input, output, cache_read, cache_write, reasoning, cost, unpriced, calls (usage_file_days' order). */
  sums: readonly number[];
  hours: ReadonlyArray<readonly [number, number, number]>;
}

/** A file's facts as its usage_sessions row (and usage_file_days rows) hold them. */
export interface PackedFile {
  format: string;
  project: string;
  topLevel: number;
  lengthBucket: number;
  turns: number;
  /** `[name, calls, failures]`, in the order of its tools JSON. */
  tools: ReadonlyArray<readonly [string, number, number]>;
  days: readonly PackedDay[];
}

/** The layout's version, the pack's first byte: a pack of another version is not read (the caller reads the rows instead). */
const VERSION = 1;
const SUMS = 8;
/** Whole numbers below this are written as varints (twice the value, so the low bit says "a float64 follows" when set). */
const WHOLE_LIMIT = 2 ** 52;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Whether every character is ASCII (its UTF-8 is its char codes, and JS order is byte order). */
function ascii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 127) return false;
  return true;
}

/** Byte order of SQLite's BINARY collation (the rows' primary key order), so a pack lists its rows as usage_file_days does. */
export function byBytes(a: string, b: string): number {
  if (a === b) return 0;
  if (ascii(a) && ascii(b)) return a < b ? -1 : 1;
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return x.length - y.length;
}

/** The bytes of the pack being written (one at a time: packing is synchronous), grown as needed. */
class Bytes {
  private out = new Uint8Array(1024);
  private at = 0;
  private readonly f64 = new DataView(new ArrayBuffer(8));

  reset(): void {
    this.at = 0;
  }

  private room(n: number): void {
    if (this.at + n <= this.out.length) return;
    const grown = new Uint8Array(Math.max(this.out.length * 2, this.at + n));
    grown.set(this.out.subarray(0, this.at));
    this.out = grown;
  }

  varint(x: number): void {
    this.room(8);
    while (x >= 128) {
      this.out[this.at++] = (x % 128) | 128;
      x = Math.floor(x / 128);
    }
    this.out[this.at++] = x;
  }

  /** A whole number as a varint of twice it; anything else (a fraction, a negative, -0, NaN) as 1 and its float64. */
  number(v: number): void {
    if (Number.isInteger(v) && v >= 0 && v < WHOLE_LIMIT && !Object.is(v, -0)) this.varint(v * 2);
    else {
      this.room(9);
      this.out[this.at++] = 1;
      this.f64.setFloat64(0, v, true);
      for (let i = 0; i < 8; i++) this.out[this.at++] = this.f64.getUint8(i);
    }
  }

  /** A string: its UTF-8 length and bytes. */
  string(s: string): void {
    if (ascii(s)) {
      this.varint(s.length);
      this.room(s.length);
      for (let i = 0; i < s.length; i++) this.out[this.at++] = s.charCodeAt(i);
    } else {
      const b = encoder.encode(s);
      this.varint(b.length);
      this.room(b.length);
      this.out.set(b, this.at);
      this.at += b.length;
    }
  }

  bytes(): Uint8Array {
    return this.out.slice(0, this.at);
  }
}

const w = new Bytes();

/**
 * The file's facts as varints: the version; the strings (source, project, tool names, days, models), each its UTF-8
 * length and bytes; the source's and project's string numbers, whether it is top-level, its length bucket and turns;
 * its tools (how many, then each one's name number, calls and failures); its day rows with a day (a row of no day,
 * usage of no time, is not drawn) in primary-key order (day, model), each its day's and model's string numbers, its
 * eight sums and its hours (how many, then each hour's three values). Every number is kept exactly
 * (usage-file-pack.test.ts), and the same facts make the same bytes.
 */
export function packFile(file: PackedFile): Uint8Array {
  const dated = file.days.filter((r) => r.day !== '').sort((a, b) => byBytes(a.day, b.day) || byBytes(a.model, b.model));
  // The strings numbered in the order the pack names them.
  const strings = new Map<string, number>();
  const numberOf = (s: string) => {
    let n = strings.get(s);
    if (n === undefined) strings.set(s, (n = strings.size));
    return n;
  };
  const format = numberOf(file.format);
  const project = numberOf(file.project);
  for (const [name] of file.tools) numberOf(name);
  for (const r of dated) {
    numberOf(r.day);
    numberOf(r.model);
  }
  w.reset();
  w.varint(VERSION);
  w.varint(strings.size);
  for (const s of strings.keys()) w.string(s);
  w.varint(format);
  w.varint(project);
  w.number(file.topLevel);
  w.number(file.lengthBucket);
  w.number(file.turns);
  w.varint(file.tools.length);
  for (const [name, calls, failures] of file.tools) {
    w.varint(numberOf(name));
    w.number(calls);
    w.number(failures);
  }
  w.varint(dated.length);
  for (const r of dated) {
    w.varint(numberOf(r.day));
    w.varint(numberOf(r.model));
    for (let k = 0; k < SUMS; k++) w.number(r.sums[k] ?? 0);
    w.varint(r.hours.length);
    for (const h of r.hours) for (let k = 0; k < 3; k++) w.number(h[k] as number);
  }
  return w.bytes();
}

/** What reading a pack calls, in the pack's order: the file, each tool, each day row (its sums in `sums`, reused between calls) and after each its hours. */
export interface PackVisitor {
  file(format: string, project: string, topLevel: number, lengthBucket: number, turns: number): void;
  tool(name: string, calls: number, failures: number): void;
  row(day: string, model: string, sums: Float64Array): void;
  hour(hour: number, calls: number, tokens: number): void;
}

/** Reads packs (packFile) in their order. */
export class PackReader {
  private readonly sums = new Float64Array(SUMS);
  private pack: Uint8Array = new Uint8Array(0);
  private view: DataView = new DataView(new ArrayBuffer(0));
  private at = 0;
  /** Where the pack being read ends in `pack`. */
  private end = 0;
  /**
   * Strings read so far, by their length and last bytes (a scan's packs name the same few hundred days, models, tools
   * and projects): each one found is compared byte by byte, not decoded again (decoding each took 20 of 35 ms).
   */
  private readonly interned = new Map<number, Array<{ bytes: Uint8Array; text: string }>>();

  private text(start: number, end: number): string {
    const pack = this.pack;
    const length = end - start;
    // Length and the last, second last and fourth last bytes: days differ there ("2026-01-05"), names mostly too.
    const key =
      length > 3
        ? (length & 63) | (((pack[end - 1] as number) & 127) << 6) | (((pack[end - 2] as number) & 127) << 13) | (((pack[end - 4] as number) & 127) << 20)
        : length | 64;
    let known = this.interned.get(key);
    if (known)
      for (const k of known) {
        const b = k.bytes;
        if (b.length !== length) continue;
        let i = 0;
        while (i < length && b[i] === pack[start + i]) i++;
        if (i === length) return k.text;
      }
    else this.interned.set(key, (known = []));
    const bytes = pack.slice(start, end);
    const text = decoder.decode(bytes);
    known.push({ bytes, text });
    return text;
  }

  private varint(): number {
    const pack = this.pack;
    const first = pack[this.at++];
    if (first !== undefined && first < 128) return first;
    this.at--;
    let x = 0;
    let scale = 1;
    for (;;) {
      const b = pack[this.at++];
      if (b === undefined) throw new RangeError('pack ends inside a number');
      x += (b & 127) * scale;
      if (b < 128) return x;
      scale *= 128;
    }
  }

  private number(): number {
    const x = this.varint();
    if (x !== 1) return x / 2;
    const v = this.view.getFloat64(this.at, true);
    this.at += 8;
    return v;
  }

  /**
   * Visits the pack, the bytes of `pack` from `start` to `end` (all of them unless told: a pack may be one of many
   * read together, usage-packed-set.ts); false when it is not one this version wrote, or is damaged (part of it may
   * have been visited then: the caller drops what it added up and reads the rows instead).
   */
  read(pack: Uint8Array, visit: PackVisitor, start = 0, end = pack.length): boolean {
    if (start >= end || end > pack.length || pack[start] !== VERSION) return false;
    if (this.pack !== pack) {
      this.pack = pack;
      this.view = new DataView(pack.buffer, pack.byteOffset, pack.byteLength);
    }
    this.at = start + 1;
    this.end = end;
    try {
      return this.walk(visit);
    } catch {
      return false;
    }
  }

  private walk(visit: PackVisitor): boolean {
    const strings: string[] = [];
    for (let i = this.varint(); i > 0; i--) {
      const length = this.varint();
      if (this.at + length > this.end) return false;
      strings.push(this.text(this.at, this.at + length));
      this.at += length;
    }
    const format = strings[this.varint()];
    const project = strings[this.varint()];
    if (format === undefined || project === undefined) return false;
    const topLevel = this.number();
    const lengthBucket = this.number();
    visit.file(format, project, topLevel, lengthBucket, this.number());
    for (let i = this.varint(); i > 0; i--) {
      const name = strings[this.varint()];
      if (name === undefined) return false;
      const calls = this.number();
      visit.tool(name, calls, this.number());
    }
    const sums = this.sums;
    for (let i = this.varint(); i > 0; i--) {
      const day = strings[this.varint()];
      const model = strings[this.varint()];
      if (day === undefined || model === undefined) return false;
      for (let k = 0; k < SUMS; k++) sums[k] = this.number();
      visit.row(day, model, sums);
      for (let h = this.varint(); h > 0; h--) {
        const hour = this.number();
        const calls = this.number();
        visit.hour(hour, calls, this.number());
      }
    }
    return this.at === this.end;
  }
}
