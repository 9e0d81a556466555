// Base64 bodies inside JSON (ai-agent's captured HTTP payloads, `"body": "<base64>"`): found and decoded, so their secrets are scanned and the body re-encoded without them.
import { isUtf8 } from 'node:buffer';
import { markerLabel } from './finding.ts';

const BODY_KEY = Buffer.from('"body"');
/** A body worth decoding: base64 of at least 12 bytes, nothing else in the string. */
const BODY = /"body"\s*:\s*"([A-Za-z0-9+/]{16,}={0,2})"/g;
/** Decoded text with control characters other than tab, CR and LF is binary (an image, a compressed stream): not scanned. */
function binary(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return true;
  }
  return false;
}

export interface EncodedBody {
  /** Offsets of the base64 text in the window's text (inside the quotes). */
  start: number;
  end: number;
  /** The body decoded as UTF-8 text. */
  decoded: string;
}

/** Whether the window's bytes can hold a body at all (a byte search; most windows are never decoded for it). */
export function mayHoldBodies(bytes: Buffer): boolean {
  return bytes.includes(BODY_KEY);
}

/** The base64 bodies in `text` that decode to text. */
export function encodedBodies(text: string): EncodedBody[] {
  const out: EncodedBody[] = [];
  for (const m of text.matchAll(BODY)) {
    const b64 = m[1] as string;
    const bytes = Buffer.from(b64, 'base64');
    if (!isUtf8(bytes)) continue;
    const decoded = bytes.toString('utf8');
    if (binary(decoded)) continue;
    const start = m.index + m[0].length - 1 - b64.length;
    out.push({ start, end: start + b64.length, decoded });
  }
  return out;
}

/** The body re-encoded with `spans` of its decoded text replaced by `[REDACTED:<rule>]` (overlapping ones as one, named after the first). */
export function reencodeRedacted(decoded: string, spans: Array<{ start: number; end: number; rule: string }>): string {
  let out = '';
  let at = 0;
  for (const s of [...spans].sort((a, b) => a.start - b.start || b.end - a.end)) {
    if (s.end <= at) continue;
    out += `${decoded.slice(at, Math.max(s.start, at))}[REDACTED:${markerLabel(s.rule)}]`;
    at = s.end;
  }
  return Buffer.from(out + decoded.slice(at), 'utf8').toString('base64');
}
