// Picks the lines of a window that could hold a secret, so the full rule set runs on those lines, not on megabytes of plain output.
import { envSecrets, type Redactor, type SecretSpan } from '../store/redact.ts';

/**
 * The rules of secretlint's recommended preset (13.0.7) this prefilter was written against; a test fails
 * when the preset gains or loses one, so a new rule never goes unscanned for want of an anchor.
 */
export const PRESET_RULES = [
  '1password', 'anthropic', 'aws', 'basicauth', 'cloudflare', 'database-connection-string', 'databricks', 'docker', 'figma',
  'filter-comments', 'gcp', 'github', 'gitlab', 'grafana', 'groq', 'hashicorp-vault', 'huggingface', 'linear', 'notion', 'npm',
  'openai', 'privatekey', 'sendgrid', 'shopify', 'slack', 'stripe', 'tailscale', 'vercel',
];

/**
 * A superset of what every rule needs to see on a line before it can match there (case-insensitive, so
 * wider than the rules): each rule's fixed prefix, or the words its pattern requires (aws's
 * `secret_access_key` and `account`, basicauth's `://user:`, the database URL schemes). The gap rules'
 * `eyJ` (JWT) and `PRIVATE KEY` are in it too.
 */
const ANCHORS = new RegExp(
  [
    'A3T', 'AKIA', 'AGPA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA', 'ASIA', 'secret_?access_?key', 'account', // aws
    'PRIVATE KEY', // privatekey, gcp (service account JSON holds one), the private-key gap rule
    'x-oauth-basic', ':\\/\\/[-\\w]{1,256}:', // github's x-oauth-basic, basicauth
    '_authToken', 'npm_', // npm
    'xox', 'xapp', 'hooks\\.slack\\.com', // slack
    'mongodb', 'mysql', 'postgres', // database-connection-string
    'sk-', 'k_live', 'k_test', 'gsk_', 'hf_', 'lin_api_', 'ntn_', 'SG\\.', 'shp', // openai, anthropic, stripe, groq, huggingface, linear, notion, sendgrid, shopify
    'gh[pousr]_', 'github_pat_', 'glpat-', 'glc_', 'glsa_', 'ops_', 'hv[sbr]\\.', 'vc[a-z]_', 'dapi', // github, gitlab, grafana, 1password, hashicorp-vault, vercel, databricks
    'dckr_pat_', 'figd_', 'cf[a-z]{1,3}_', 'tskey-', // docker, figma, cloudflare, tailscale
    'eyJ', // the jwt gap rule
  ].join('|'),
  'gi',
);

/**
 * A match that may span lines (a PEM block; a service account's JSON, which the gcp rule parses whole) sends the
 * whole window through. Looked for only around the anchor hits (one of them is 'PRIVATE KEY'), not in a pass of its own.
 */
const WHOLE_WINDOW = /PRIVATE KEY/i;
/** 'PRIVATE KEY'.length - 1: how far past a hit an occurrence may run when the hit overlapped its start. */
const WHOLE_WINDOW_REACH = 10;

/** Below this many characters the window is scanned whole: picking lines would save nothing. */
const MIN_FILTERED_CHARS = 64 * 1024;
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

/**
 * Sorted, merged [start, end) ranges of whole lines around every place in `text` a rule or a known value could
 * match; null when the text holds a 'PRIVATE KEY' (the window goes through whole). Every occurrence of it either
 * is an anchor hit or starts inside one (an earlier, overlapping hit), so testing each hit's reach finds them all.
 */
function pickedRanges(text: string, needles: Iterable<string>): Array<[number, number]> | null {
  const hits: number[] = [];
  for (const m of text.matchAll(ANCHORS)) {
    const end = m.index + m[0].length;
    if (WHOLE_WINDOW.test(text.slice(m.index, end + WHOLE_WINDOW_REACH))) return null;
    hits.push(m.index, end);
  }
  for (const needle of needles) {
    if (!needle) continue;
    for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) hits.push(i, i + needle.length);
  }
  const ranges: Array<[number, number]> = [];
  for (let h = 0; h < hits.length; h += 2) {
    // The hit's lines, plus one line each side (aws's `key =` may stand on the line before its value).
    let start = text.lastIndexOf('\n', (hits[h] as number) - 1);
    start = start <= 0 ? 0 : text.lastIndexOf('\n', start - 1) + 1;
    let end = text.indexOf('\n', hits[h + 1] as number);
    end = end === -1 ? text.length : text.indexOf('\n', end + 1);
    end = end === -1 ? text.length : end + 1;
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
 * The same spans as `redactor.findSpans(text, literals)`, found faster: only the lines that carry an anchor,
 * a known secret or an environment value go through the rule set (joined into one text, offsets mapped back).
 * Windows that are small, mostly picked, or hold a line-spanning candidate are scanned whole.
 */
export async function findSpansFiltered(redactor: Redactor, prefilter: Prefilter, text: string, literals: ReadonlyMap<string, string>): Promise<SecretSpan[]> {
  if (text.length < MIN_FILTERED_CHARS) return redactor.findSpans(text, literals);
  const ranges = pickedRanges(text, [...prefilter.envNeedles, ...literals.keys()]);
  if (ranges === null) return redactor.findSpans(text, literals);
  const picked = ranges.reduce((n, [a, b]) => n + (b - a), 0);
  if (picked > text.length * MAX_PICKED_SHARE) return redactor.findSpans(text, literals);
  if (ranges.length === 0) return [];
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
  for (const span of await redactor.findSpans(joined, literals)) {
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
