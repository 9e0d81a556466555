// Finds secrets in a file as it streams past, window by window, and writes it on with the chosen ones redacted.
import { isUtf8 } from 'node:buffer';
import { Readable, Transform, Writable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Redactor, SecretSpan } from '../recorder/redact.ts';
import { findingId, isGenericRule, markerLabel, previewOf, ruleOrder, type Finding } from './finding.ts';
import { encodedBodies, mayHoldBodies, reencodeRedacted } from './encoded-bodies.ts';
import { findSpansInViews } from './escape-view.ts';
import { findSpansFiltered, type Prefilter } from './secret-prefilter.ts';
import { clipToHtmlText, clipToJsonString, PEM_RULES, pemAcrossJsonStrings } from './span-clipping.ts';

/** What every file of one export shares. */
export interface ScanContext {
  redactor: Redactor;
  /** Secrets found so far in this export, looked for everywhere after (a key named once is redacted every time). */
  literals: Map<string, string>;
  /** Ids of findings the user kept (false positives): reported, not redacted. */
  keep: ReadonlySet<string>;
  /** When set, only lines that could hold a secret go through the rule set (the same findings, found faster). */
  prefilter?: Prefilter;
}

export interface ScanOptions {
  /** The file's path inside the bundle (finding ids and reports name it). */
  file: string;
  /**
   * json (JSON, JSON Lines): a redaction never crosses a string's quotes or a line break, so the file stays
   * valid; html: never crosses a tag; text: as found.
   */
  clip: 'json' | 'html' | 'text';
  /** False for a dry run: find only, pass nothing on. */
  emit: boolean;
  /** Bytes scanned at once; a secret must fit in `overlap`, and `context` bytes before a window are re-read. */
  window?: number;
  overlap?: number;
  context?: number;
}

/** A secret found in a decoded base64 body: offsets in the decoded text. */
type BodySecret = SecretSpan;

const WINDOW = 4 * 1024 * 1024;
const OVERLAP = 64 * 1024;
const CONTEXT = 4 * 1024;

interface Placed {
  start: number;
  end: number;
  rule: string;
  /** What goes in its place, when not the `[REDACTED:<rule>]` marker (a base64 body re-encoded without its secrets). */
  replacement?: string;
}

/** The first byte at or before `at` that starts a UTF-8 character. */
function charStart(buf: Buffer, at: number): number {
  let p = Math.min(at, buf.length);
  for (let steps = 0; steps < 3 && p > 0 && p < buf.length && ((buf[p] ?? 0) & 0xc0) === 0x80; steps++) p--;
  return p;
}

/** Byte offsets of string offsets in `text` (UTF-8), computed in one walk over the sorted offsets. */
function byteOffsets(text: string, offsets: number[], latin1: boolean): Map<number, number> {
  const out = new Map<number, number>();
  if (latin1) {
    for (const o of offsets) out.set(o, o);
    return out;
  }
  let char = 0;
  let byte = 0;
  for (const o of [...new Set(offsets)].sort((a, b) => a - b)) {
    byte += Buffer.byteLength(text.slice(char, o));
    char = o;
    out.set(o, byte);
  }
  return out;
}

/**
 * A Transform over one file's bytes. Each window is decoded (UTF-8, or Latin-1 when it is not valid
 * UTF-8, so offsets stay exact) and scanned with the Redactor; a finding is settled by the first window
 * in which it starts at least `overlap` bytes before the window's end, so a secret cut by one window is
 * whole in the next. Redacted text becomes `[REDACTED:<rule>]`; in a binary file (a NUL in its first
 * 8 KiB, e.g. SQLite) it becomes as many `*` as it had bytes, which keeps the file's structure.
 */
export class SecretScanStream extends Transform {
  readonly findings: Finding[] = [];
  private readonly ctx: ScanContext;
  private readonly options: Required<ScanOptions>;
  private chunks: Buffer[] = [];
  private length = 0;
  /** Absolute offset of the first buffered byte, and the line it is on. */
  private base = 0;
  private lineAtBase = 1;
  /** Everything before `emitted` has been passed on; findings starting before `settled` are final. */
  private emitted = 0;
  private settled = 0;
  private pending: Placed[] = [];
  private binary: boolean | null = null;
  /** Where redacted output goes when the scan is run on a whole buffer (`scanWhole`), not as a stream. */
  private sink: ((piece: Buffer) => void) | null = null;

  constructor(ctx: ScanContext, options: ScanOptions) {
    super();
    this.ctx = ctx;
    this.options = { window: WINDOW, overlap: OVERLAP, context: CONTEXT, ...options };
    if (this.options.window <= this.options.overlap + this.options.context) throw new Error('scan window must exceed overlap + context');
  }

  get redactedCount(): number {
    return this.findings.filter((f) => f.redacted).length;
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (this.binary === null) this.binary = chunk.subarray(0, 8192).includes(0);
    this.chunks.push(chunk);
    this.length += chunk.length;
    this.drain(false).then(() => done(), done);
  }

  override _flush(done: TransformCallback): void {
    this.drain(true).then(() => done(), done);
  }

  /**
   * Scans `bytes` as the whole file, exactly as streaming it in one chunk would, handing each piece that comes out
   * to `take`, without the stream machinery (a session.json is scanned this way, a thousand of them in a push).
   * For a scan not used as a stream.
   */
  async scanWhole(bytes: Buffer, take: (piece: Buffer) => void): Promise<void> {
    this.sink = take;
    try {
      this.binary = bytes.subarray(0, 8192).includes(0);
      this.chunks.push(bytes);
      this.length += bytes.length;
      await this.drain(true);
    } finally {
      this.sink = null;
    }
  }

  private async drain(final: boolean): Promise<void> {
    while (this.length >= this.options.window) await this.window(false);
    if (final) await this.window(true);
  }

  private async window(final: boolean): Promise<void> {
    const buf = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.length);
    this.chunks = [buf];
    const end = final ? buf.length : charStart(buf, this.options.window);
    const bytes = buf.subarray(0, end);
    const latin1 = this.binary === true || !isUtf8(bytes);
    // Decoded only when something is found (or the whole window must go through the rule set).
    let decoded: string | null = null;
    const decode = () => (decoded ??= bytes.toString(latin1 ? 'latin1' : 'utf8'));
    const limit = final ? Infinity : this.base + charStart(buf, end - this.options.overlap);

    const { redactor, prefilter, literals } = this.ctx;
    // Rules read the text with its escapes blanked (escape-view.ts): a secret after a `\n` is then a word of its own.
    const mode = this.binary ? 'text' : this.options.clip;
    let spans: Array<SecretSpan | { start: number; end: number; rule: string; text: string; leader?: number }> = prefilter
      ? await findSpansFiltered(redactor, prefilter, bytes, latin1, decode, literals, mode)
      : await findSpansInViews(redactor, decode(), literals, mode);
    const bodies = this.options.clip === 'json' && !this.binary && mayHoldBodies(bytes) ? await this.bodySpans(decode()) : [];
    const text = spans.length || bodies.length ? decode() : '';
    if (this.options.clip !== 'text' && !this.binary) {
      const json = this.options.clip === 'json';
      const clip = json ? clipToJsonString : clipToHtmlText;
      spans = spans.flatMap((s) => {
        // A key whose lines are strings of their own: each line redacted in its string, reported once (by its first).
        const pieces = json && PEM_RULES.has(s.rule) ? pemAcrossJsonStrings(text, s) : null;
        if (pieces) return pieces.map((p, i) => ({ ...p, rule: s.rule, text: text.slice(p.start, p.end), ...(i ? { leader: pieces[0]!.start } : {}) }));
        const clipped = clip(text, s);
        return clipped ? [{ ...clipped, rule: s.rule, text: text.slice(clipped.start, clipped.end) }] : [];
      });
    }
    // One finding per place: two rules (or a rule and a known literal) naming the same text give the first rule by name,
    // a specific rule before a generic one; a generic rule's span that overlaps a specific rule's is that secret again.
    const byPlace = new Map<string, (typeof spans)[number]>();
    for (const s of spans) {
      const held = byPlace.get(`${s.start}:${s.end}`);
      if (!held || ruleOrder(s.rule, held.rule) < 0) byPlace.set(`${s.start}:${s.end}`, s);
    }
    spans = [...byPlace.values()];
    const specific = spans.filter((s) => !isGenericRule(s.rule));
    if (specific.length < spans.length) spans = spans.filter((s) => !isGenericRule(s.rule) || !specific.some((o) => o.start < s.end && o.end > s.start));
    const offsets = byteOffsets(
      text,
      [...spans.flatMap((s) => [s.start, s.end, ...('leader' in s && s.leader !== undefined ? [s.leader] : [])]), ...bodies.flatMap((b) => [b.start, b.end])],
      latin1,
    );
    const seen = new Set<string>();
    let lineCursor = 0;
    let line = this.lineAtBase;
    for (const s of spans.sort((a, b) => a.start - b.start || b.end - a.end || ruleOrder(a.rule, b.rule))) {
      const start = this.base + (offsets.get(s.start) ?? 0);
      const stop = this.base + (offsets.get(s.end) ?? 0);
      if ('leader' in s && s.leader !== undefined) {
        // A later line of a key, settled with the key's first line (which the finding names), past `limit` too:
        // redacted unless that finding was kept.
        const leader = this.base + (offsets.get(s.leader) ?? 0);
        if (leader < this.settled || leader >= limit || seen.has(`${start}:${s.rule}`)) continue;
        seen.add(`${start}:${s.rule}`);
        if (!this.ctx.keep.has(findingId(this.options.file, leader, s.rule))) this.pending.push({ start, end: stop, rule: s.rule });
        continue;
      }
      if (start < this.settled || start >= limit || seen.has(`${start}:${s.rule}`)) continue;
      seen.add(`${start}:${s.rule}`);
      line += count(buf, 0x0a, lineCursor, start - this.base);
      lineCursor = start - this.base;
      const id = findingId(this.options.file, start, s.rule);
      const redact = !this.ctx.keep.has(id);
      const preview = previewOf(
        text,
        s.start,
        s.end,
        s.rule,
        spans.filter((o) => o !== s),
      );
      this.findings.push({ id, rule: s.rule, file: this.options.file, line, preview, redacted: redact });
      if (!s.rule.startsWith('ENV:') && s.text.length >= 8) this.ctx.literals.set(s.text, s.rule);
      if (redact) this.pending.push({ start, end: stop, rule: s.rule });
    }
    for (const body of bodies) {
      const start = this.base + (offsets.get(body.start) ?? 0);
      if (start < this.settled || start >= limit) continue;
      line += count(buf, 0x0a, lineCursor, start - this.base);
      lineCursor = start - this.base;
      const redacted: BodySecret[] = [];
      for (const s of body.secrets) {
        // One finding per rule per body: its id names the body's place, as a finding in the file itself would.
        const id = findingId(this.options.file, start, s.rule);
        if (seen.has(`${start}:${s.rule}`)) {
          if (redacted.some((r) => r.rule === s.rule)) redacted.push(s);
          continue;
        }
        seen.add(`${start}:${s.rule}`);
        const redact = !this.ctx.keep.has(id);
        const preview = previewOf(
          body.decoded,
          s.start,
          s.end,
          s.rule,
          body.secrets.filter((o) => o !== s),
        );
        this.findings.push({ id, rule: s.rule, file: this.options.file, line, preview, redacted: redact });
        if (!s.rule.startsWith('ENV:') && s.text.length >= 8) this.ctx.literals.set(s.text, s.rule);
        if (redact) redacted.push(s);
      }
      if (redacted.length) {
        const stop = this.base + (offsets.get(body.end) ?? 0);
        this.pending.push({ start, end: stop, rule: (redacted[0] as BodySecret).rule, replacement: reencodeRedacted(body.decoded, redacted) });
      }
    }
    this.settled = final ? Infinity : limit;
    this.emitThrough(buf, final ? this.base + buf.length : limit);

    if (final) {
      this.chunks = [];
      this.length = 0;
      return;
    }
    // Keep the overlap (not yet settled) and some context before it for the next window.
    const keepFrom = Math.max(charStart(buf, limit - this.options.context - this.base), 0);
    this.lineAtBase += count(buf, 0x0a, 0, keepFrom);
    const rest = buf.subarray(keepFrom);
    this.chunks = [rest];
    this.length = rest.length;
    this.base += keepFrom;
  }

  /** The base64 bodies in the window's text that hold a secret once decoded (the decoded text read as JSON), with those secrets. */
  private async bodySpans(text: string): Promise<Array<{ start: number; end: number; decoded: string; secrets: BodySecret[] }>> {
    const out: Array<{ start: number; end: number; decoded: string; secrets: BodySecret[] }> = [];
    for (const body of encodedBodies(text)) {
      const byPlace = new Map<string, BodySecret>();
      for (const s of await findSpansInViews(this.ctx.redactor, body.decoded, this.ctx.literals, 'json')) {
        const held = byPlace.get(`${s.start}:${s.end}`);
        if (!held || ruleOrder(s.rule, held.rule) < 0) byPlace.set(`${s.start}:${s.end}`, s);
      }
      if (byPlace.size) out.push({ ...body, secrets: [...byPlace.values()].sort((a, b) => a.start - b.start) });
    }
    return out;
  }

  /** Passes on the bytes before `through`, redacting settled spans (a span that crosses it goes out whole). */
  private emitThrough(buf: Buffer, through: number): void {
    const out: Buffer[] = [];
    const take = (from: number, to: number) => {
      if (to > from) out.push(buf.subarray(from - this.base, to - this.base));
    };
    const spans = this.pending.sort((a, b) => a.start - b.start || b.end - a.end || ruleOrder(a.rule, b.rule));
    const later: Placed[] = [];
    let at = this.emitted;
    for (let i = 0; i < spans.length; i++) {
      const span = spans[i] as Placed;
      if (span.start >= through) {
        later.push(span);
        continue;
      }
      let stop = span.end;
      // Overlapping spans go as one marker, named after the first.
      while (i + 1 < spans.length && (spans[i + 1] as Placed).start < stop) stop = Math.max(stop, (spans[++i] as Placed).end);
      if (stop <= at) continue;
      take(at, Math.max(span.start, at));
      out.push(this.binary ? Buffer.alloc(stop - Math.max(span.start, at), '*') : Buffer.from(span.replacement ?? `[REDACTED:${markerLabel(span.rule)}]`));
      at = stop;
    }
    const end = Math.max(at, Math.min(through, this.base + buf.length));
    take(at, end);
    this.emitted = end;
    this.pending = later;
    if (!this.options.emit) return;
    if (this.sink) for (const b of out) this.sink(b);
    else for (const b of out) this.push(b);
  }
}

function count(buf: Buffer, byte: number, from: number, to: number): number {
  let n = 0;
  for (let i = buf.indexOf(byte, from); i !== -1 && i < to; i = buf.indexOf(byte, i + 1)) n++;
  return n;
}

/** Runs `chunks` through `scan`, handing each piece that comes out (redacted where the scan redacted) to `take`. */
export async function scanChunks(chunks: Iterable<Buffer>, scan: SecretScanStream, take: (chunk: Buffer) => void, signal?: AbortSignal): Promise<void> {
  const collect = new Writable({
    write: (chunk: Buffer, _enc, done) => {
      take(chunk);
      done();
    },
  });
  await pipeline(Readable.from(chunks, { objectMode: false }), scan, collect, ...(signal ? [{ signal }] : []));
}

/**
 * Runs a whole buffer through `scan` (an emitting one) with no copy while it scans: null when nothing was
 * redacted (the bytes go on as they are), else the redacted file as pieces (views on `bytes` and markers)
 * to copy out before `bytes` is let go.
 */
export async function redactedPieces(bytes: Buffer, scan: SecretScanStream, signal?: AbortSignal): Promise<Buffer[] | null> {
  const pieces: Buffer[] = [];
  if (signal) await scanChunks([bytes], scan, (piece) => pieces.push(piece), signal);
  else await scan.scanWhole(bytes, (piece) => pieces.push(piece));
  return scan.redactedCount === 0 ? null : pieces;
}
