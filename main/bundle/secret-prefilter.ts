// Picks the lines of a window that could hold a secret, so the full rule set runs on those lines, not on megabytes of plain output.
import { envSecrets, type Redactor, type SecretSpan } from '../recorder/redact.ts';
import { anchorHits, charOffsets } from './anchor-search.ts';
import { findSpansInViews, type EscapeMode } from './escape-view.ts';

/**
 * The rules of secretlint's recommended preset (13.0.7) this prefilter was written against; a test fails
 * when the preset gains or loses one, so a new rule never goes unscanned for want of an anchor.
 */
export const PRESET_RULES = [
  '1password',
  'anthropic',
  'aws',
  'basicauth',
  'cloudflare',
  'database-connection-string',
  'databricks',
  'docker',
  'figma',
  'filter-comments',
  'gcp',
  'github',
  'gitlab',
  'grafana',
  'groq',
  'hashicorp-vault',
  'huggingface',
  'linear',
  'notion',
  'npm',
  'openai',
  'privatekey',
  'sendgrid',
  'shopify',
  'slack',
  'stripe',
  'tailscale',
  'vercel',
];

/**
 * A match that may span lines (a PEM block; a service account's JSON, which the gcp rule parses whole) sends the
 * whole window through. It is one of the anchors, so it is looked for among the anchor hits, not in a pass of its own.
 */
const WHOLE_WINDOW = /^PRIVATE KEY$/i;

/** When the picked lines are more than this share of the window, scanning it whole is cheaper than cutting it up. */
const MAX_PICKED_SHARE = 0.5;
/** Picked line runs are joined with this; no rule matches across an empty line (the multi-line ones go whole). */
const JOINT = '\n\n';

export interface Prefilter {
  /** What the environment rule looks for, in every spelling it looks for it. */
  envNeedles: string[];
}

/** The needles Redactor.findSpans searches for an environment value: as written, JSON-escaped and HTML-escaped. */
export function prefilterFor(env: NodeJS.ProcessEnv): Prefilter {
  const envNeedles = new Set<string>();
  for (const { value } of envSecrets(env)) {
    const html = value.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]};`);
    for (const needle of [value, JSON.stringify(value).slice(1, -1), html]) if (needle) envNeedles.add(needle);
  }
  return { envNeedles: [...envNeedles] };
}

const NEWLINE = 0x0a;

/**
 * Sorted, merged [start, end) byte ranges of whole lines around every place in `bytes` a rule or a known value
 * could match; null when they hold a 'PRIVATE KEY' (the window goes through whole). Anchors are found at every
 * place they start, overlapping ones included, so each occurrence of it is a hit of its own. Needles are looked
 * for in the window's encoding (Latin-1 for a window that is not UTF-8, where a character is a byte).
 */
function pickedLines(bytes: Buffer, latin1: boolean, needles: Iterable<string>): Array<[number, number]> | null {
  const hits = anchorHits(bytes);
  for (let h = 0; h < hits.length; h += 2) {
    if (WHOLE_WINDOW.test(bytes.toString('latin1', hits[h], hits[h + 1]))) return null;
  }
  for (const needle of needles) {
    // A Latin-1 window cannot hold a character beyond U+00FF.
    if (!needle || (latin1 && /[\u0100-\uffff]/.test(needle))) continue;
    const encoded = Buffer.from(needle, latin1 ? 'latin1' : 'utf8');
    for (let i = bytes.indexOf(encoded); i !== -1; i = bytes.indexOf(encoded, i + 1)) hits.push(i, i + encoded.length);
  }
  /** The last line break before `at`, or -1 (a Buffer's lastIndexOf counts a negative offset from the end). */
  const breakBefore = (at: number) => (at <= 0 ? -1 : bytes.lastIndexOf(NEWLINE, at - 1));
  const ranges: Array<[number, number]> = [];
  for (let h = 0; h < hits.length; h += 2) {
    // The hit's lines, plus one line each side (aws's `key =` may stand on the line before its value).
    let start = breakBefore(hits[h] as number);
    start = start <= 0 ? 0 : breakBefore(start) + 1;
    let end = bytes.indexOf(NEWLINE, hits[h + 1] as number);
    end = end === -1 ? bytes.length : bytes.indexOf(NEWLINE, end + 1);
    end = end === -1 ? bytes.length : end + 1;
    ranges.push([start, end]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}

/**
 * The same spans as `redactor.findSpans(decode(), literals)`, found faster: only the lines that carry an anchor,
 * a known secret or an environment value go through the rule set (joined into one text, offsets mapped back),
 * and a window with none of them is never decoded. `decode` gives the window's text (UTF-8, or Latin-1 when
 * `latin1`); spans are offsets in it. Windows that are mostly picked, or hold a line-spanning candidate, are scanned whole.
 * The rules read the escape-blanked views of `mode` (see escape-view.ts).
 */
export async function findSpansFiltered(
  redactor: Redactor,
  prefilter: Prefilter,
  bytes: Buffer,
  latin1: boolean,
  decode: () => string,
  literals: ReadonlyMap<string, string>,
  mode: EscapeMode = 'text',
): Promise<SecretSpan[]> {
  const find = (text: string) => findSpansInViews(redactor, text, literals, mode);
  // Windows of every size are filtered: most files (a session.json, a short transcript) are small, and one with no
  // candidate line costs the byte-level anchor search alone, never the rule set (which costs ~25 µs per KB even on plain text).
  const lines = pickedLines(bytes, latin1, [...prefilter.envNeedles, ...literals.keys()]);
  if (lines === null) return find(decode());
  if (lines.length === 0) return [];
  const picked = lines.reduce((n, [a, b]) => n + (b - a), 0);
  if (picked > bytes.length * MAX_PICKED_SHARE) return find(decode());
  const text = decode();
  const bounds = charOffsets(bytes, text, lines.flat());
  const ranges = lines.map((_, i) => [bounds[2 * i], bounds[2 * i + 1]] as [number, number]);
  // Where each range starts in the joined text, to map spans back.
  const at: number[] = [];
  let joinedLength = 0;
  const parts: string[] = [];
  for (const [a, b] of ranges) {
    at.push(joinedLength);
    parts.push(text.slice(a, b));
    joinedLength += b - a + JOINT.length;
  }
  const joined = parts.join(JOINT);
  const out: SecretSpan[] = [];
  for (const span of await find(joined)) {
    // The range holding the span's start: the last whose joined offset is at or before it.
    let lo = 0;
    let hi = at.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((at[mid] as number) <= span.start) lo = mid;
      else hi = mid - 1;
    }
    const [a, b] = ranges[lo] as [number, number];
    const start = a + span.start - (at[lo] as number);
    const end = a + span.end - (at[lo] as number);
    if (end > b) continue; // ran into a joint: not text that stands together in the file
    out.push({ ...span, start, end });
  }
  return out;
}
