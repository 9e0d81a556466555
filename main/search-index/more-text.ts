// The words no stored column of the index holds (what the caps cut, tool payloads, extras), gathered once each and never what the stored text already repeats.
import type { MessagePart } from '../../shared/session.ts';

/** Strings shorter than this in a tool payload or an extra are ids, flags and numbers, not words worth a lookup. */
const MIN_EXTRA_STRING = 3;

/** A listing numbered as `cat -n` and Claude Code's Read tool number lines (`    12→text`, `    12\ttext`). */
const NUMBERED = /^ *\d+(?:→|\t)/;

/** Whether `listing` is `text` with each line numbered: a file read's payload repeats the output so, without numbers. */
function numberedCopy(listing: string, text: string): boolean {
  let o = 0;
  let t = 0;
  for (;;) {
    while (listing.charCodeAt(o) === 32) o++;
    const digits = o;
    while (listing.charCodeAt(o) >= 48 && listing.charCodeAt(o) <= 57) o++;
    const mark = listing.charCodeAt(o);
    if (o === digits || (mark !== 0x2192 && mark !== 9)) return false;
    o++;
    let oEnd = listing.indexOf('\n', o);
    if (oEnd === -1) oEnd = listing.length;
    let tEnd = text.indexOf('\n', t);
    if (tEnd === -1) tEnd = text.length;
    if (oEnd - o !== tEnd - t || listing.slice(o, oEnd) !== text.slice(t, tEnd)) return false;
    if (tEnd === text.length) return true;
    if (oEnd === listing.length) return false;
    o = oEnd + 1;
    t = tEnd + 1;
  }
}

/**
 * The words no stored column holds, gathered once each: the texts the caps cut, and the strings of tool payloads,
 * extras and the system prompt unless the session's text already holds the same string (a payload repeats its
 * call's input, its output, or, for a file read, the output without its line numbers).
 */
export class MoreText {
  readonly pieces: string[] = [];
  /** Strings already in the index text (whole parts, inputs' strings, payload strings kept). */
  private readonly seen = new Set<string>();
  /** The current message's numbered listings (file reads), whose payload holds the same lines without numbers. */
  private listings: string[] = [];
  /** Tool calls' inputs by call id: a result's payload repeats its call's (an edit's old and new text). */
  private readonly inputs = new Map<string, unknown>();

  add(text: string): void {
    if (text) this.pieces.push(text);
  }

  /** A string the index text holds already (a part's text, or a string of a tool call's input). */
  know(text: string): void {
    if (text.length >= MIN_EXTRA_STRING) this.seen.add(text);
  }

  /** Every string inside `value` (JSON), unless already held. */
  addStrings(value: unknown, depth = 0): void {
    if (typeof value === 'string') {
      if (value.length < MIN_EXTRA_STRING || this.seen.has(value)) return;
      if (this.listings.length && this.listings.some((l) => numberedCopy(l, value))) return;
      this.seen.add(value);
      this.pieces.push(value);
    } else if (Array.isArray(value)) {
      if (depth < 64) for (const v of value) this.addStrings(v, depth + 1);
    } else if (value !== null && typeof value === 'object') {
      if (depth < 64) for (const v of Object.values(value)) this.addStrings(v, depth + 1);
    }
  }

  knowStrings(value: unknown, depth = 0): void {
    if (typeof value === 'string') this.know(value);
    else if (Array.isArray(value)) {
      if (depth < 64) for (const v of value) this.knowStrings(v, depth + 1);
    } else if (value !== null && typeof value === 'object') {
      if (depth < 64) for (const v of Object.values(value)) this.knowStrings(v, depth + 1);
    }
  }

  /**
   * What a payload repeats of the text already indexed, so it is not indexed twice: in a message with a payload, its
   * tool output (Bash's stdout; a file read's lines without their numbers) and the input of the call it answers
   * (an edit's old and new text, a message earlier). Prose is never repeated so.
   */
  knowParts(parts: readonly MessagePart[], withPayload: boolean): void {
    if (this.listings.length) this.listings = [];
    for (const part of parts) {
      if (part.type === 'tool_call') {
        if (part.callId !== null) this.inputs.set(part.callId, part.input);
      } else if (part.type === 'tool_result' && withPayload) {
        this.know(part.output);
        if (NUMBERED.test(part.output)) this.listings.push(part.output);
        const input = part.callId === null ? undefined : this.inputs.get(part.callId);
        if (input !== undefined) this.knowStrings(input);
      }
    }
  }
}
