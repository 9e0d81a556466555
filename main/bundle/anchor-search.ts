// Finds where a secret rule's anchor word lies in a window's bytes, with nothing decoded: a trigram table lookup per byte, the anchor regex only where a trigram fits.

/**
 * A superset of what every rule needs to see on a line before it can match there (case-insensitive, so
 * wider than the rules): each rule's fixed prefix, or the words its pattern requires (aws's
 * `secret_access_key` and `account`, basicauth's `://user:`, the database URL schemes). The gap rules'
 * `eyJ` (JWT), `PRIVATE KEY`, `AIza`, the `.env` names and `://…:` are in it too (the cut-key rule's prefixes are all
 * among the anchors above). Each is a regular expression whose first three atoms are
 * a character or a class, none optional (the trigram table is built from them; a pattern that breaks this throws at load).
 */
export const ANCHOR_PATTERNS = [
  'A3T',
  'AKIA',
  'AGPA',
  'AIDA',
  'AROA',
  'AIPA',
  'ANPA',
  'ANVA',
  'ASIA',
  'secret_?access_?key',
  'account', // aws
  'PRIVATE KEY', // privatekey, gcp (service account JSON holds one), the private-key gap rule
  'x-oauth-basic',
  ':\\/\\/[-\\w]{1,256}:', // github's x-oauth-basic, basicauth
  '_authToken',
  'npm_', // npm
  'xox',
  'xapp',
  'hooks\\.slack\\.com', // slack
  'mongodb',
  'mysql',
  'postgres', // database-connection-string
  'sk-',
  'k_live',
  'k_test',
  'gsk_',
  'hf_',
  'lin_api_',
  'ntn_',
  'SG\\.',
  // shopify's keys start shppa_, shpca_, shpat_ or shpss_; a bare 'shp' is in ordinary words (pushpin, cashpoint, washplate).
  'shp[pcas][ast]_', // openai, anthropic, stripe, groq, huggingface, linear, notion, sendgrid, shopify
  'gh[pousr]_',
  'github_pat_',
  'glpat-',
  'glc_',
  'glsa_',
  'ops_',
  'hv[sbr]\\.',
  'vc[a-z]_',
  'dapi', // github, gitlab, grafana, 1password, hashicorp-vault, vercel, databricks
  'dckr_pat_',
  'figd_',
  'cf[a-z]{1,3}_',
  'tskey-', // docker, figma, cloudflare, tailscale
  'eyJ', // the jwt gap rule
  'AIza', // the google-api-key gap rule
  'passw[a-z0-9_]{0,64}[ \\t]?=',
  'secret[a-z0-9_]{0,64}[ \\t]?=',
  'token[a-z0-9_]{0,64}[ \\t]?=',
  'api_?key[a-z0-9_]{0,64}[ \\t]?=', // the env-assignment gap rule
  ':\\/\\/[^\\s:@/]{0,256}:', // the connection-url-password gap rule (any scheme, an empty user too)
];

/** Every anchor, tried at the start of a short piece of the window (decoded as Latin-1: a character per byte). */
const ANCHOR_AT_START = new RegExp(`^(?:${ANCHOR_PATTERNS.join('|')})`, 'i');

/** A byte (or character code) as the trigram table reads it: folded (`| 0x20`, so A-Z read as a-z) and cut to 7 bits. */
const fold = (code: number) => (code | 0x20) & 0x7f;

/** The characters a pattern's atom at `i` can be (null: a set not spelled out, like `\w` or `[^"]`), and where the next atom starts. */
function atomAt(pattern: string, i: number): { chars: string[] | null; next: number } {
  const c = pattern[i];
  if (c === undefined) throw new Error(`anchor ${pattern} is shorter than three characters`);
  if (c === '\\') {
    const escaped = pattern[i + 1] as string;
    return { chars: /[A-Za-z0-9]/.test(escaped) ? null : [escaped], next: i + 2 };
  }
  if (c === '[') {
    const close = pattern.indexOf(']', i);
    const body = pattern.slice(i + 1, close);
    if (body.startsWith('^') || body.includes('\\')) return { chars: null, next: close + 1 };
    const chars: string[] = [];
    for (let k = 0; k < body.length; k++) {
      if (body[k + 1] === '-' && k + 2 < body.length) {
        for (let code = body.charCodeAt(k); code <= body.charCodeAt(k + 2); code++) chars.push(String.fromCharCode(code));
        k += 2;
      } else chars.push(body[k] as string);
    }
    return { chars, next: close + 1 };
  }
  if ('()|.^$*+?{'.includes(c)) throw new Error(`anchor ${pattern}: '${c}' is not a character or a class`);
  return { chars: [c], next: i + 1 };
}

/** The most characters a pattern can match: each atom once, or as often as a `?` or `{m,n}` after it allows. */
export function maxMatchLength(pattern: string): number {
  let length = 0;
  for (let i = 0; i < pattern.length;) {
    const { next } = atomAt(pattern, i);
    const repeat = /^(?:\?|\{(\d+)(?:,(\d+))?\})?/.exec(pattern.slice(next)) as RegExpExecArray;
    const after = next + repeat[0].length;
    if (pattern[after] === '*' || pattern[after] === '+' || pattern[after] === '{') throw new Error(`anchor ${pattern}: no bound on how much it matches`);
    length += Number(repeat[2] ?? repeat[1] ?? 1);
    i = after;
  }
  return length;
}

/** Every start of `count` characters a pattern can have (each atom's characters, in every combination); null when one is not certain. */
function startsOf(pattern: string, count: number): string[] | null {
  let starts = [''];
  let i = 0;
  for (let atom = 0; atom < count; atom++) {
    if (i >= pattern.length) return null;
    const { chars, next } = atomAt(pattern, i);
    // An atom that may be absent or repeated leaves the next character uncertain.
    if (chars === null || (next < pattern.length && '?*+{'.includes(pattern[next] as string) && atom < count - 1)) return null;
    if (atom === count - 1 && (pattern[next] === '?' || pattern[next] === '*' || pattern.startsWith('{0', next))) return null;
    starts = starts.flatMap((s) => chars.map((ch) => s + ch));
    i = next;
  }
  return starts;
}

/** Every three-character start a pattern can have; it must have three certain ones (the table is built from them). */
export function patternStarts(pattern: string): string[] {
  const starts = startsOf(pattern, 3);
  if (starts === null)
    throw new Error(`anchor ${pattern}: its first three atoms are not three certain characters (a class escape, negated class, or optional atom)`);
  return starts;
}

const trigramOf = (a: number, b: number, c: number) => (fold(a) << 14) | (fold(b) << 7) | fold(c);

/** Per folded trigram: 0, no anchor starts with it; QUAD, every anchor that does has a certain fourth character (in QUADS); ANY, not so. */
const STARTS = new Uint8Array(1 << 21); // 2 MB, of which the pages never written cost nothing
const QUAD = 1;
const ANY = 2;
/** Folded four-character starts (trigram << 7 | fourth) of the anchors with one: most trigram hits in prose ('config') end here. */
const QUADS = new Set<number>();
/** Per trigram, the most bytes an anchor starting with it can match: how much of the window the regex must see there. */
const REACH = new Map<number, number>();
for (const pattern of ANCHOR_PATTERNS) {
  const reach = maxMatchLength(pattern);
  const quads = startsOf(pattern, 4);
  for (const start of patternStarts(pattern)) {
    const h = trigramOf(start.charCodeAt(0), start.charCodeAt(1), start.charCodeAt(2));
    STARTS[h] = quads === null || STARTS[h] === ANY ? ANY : QUAD;
    REACH.set(h, Math.max(REACH.get(h) ?? 0, reach));
  }
  for (const quad of quads ?? []) QUADS.add((trigramOf(quad.charCodeAt(0), quad.charCodeAt(1), quad.charCodeAt(2)) << 7) | fold(quad.charCodeAt(3)));
}

/**
 * The offset of the third byte of the first trigram at or after `from` (counting the two bytes before it) that
 * some anchor starts with, or -1. Kept apart from the loop that collects them: V8 compiles this tight loop
 * far better on its own (7 against 15 ms for 4 MB here).
 */
function nextCandidateEnd(bytes: Uint8Array, from: number): number {
  const starts = STARTS;
  const n = bytes.length;
  // fold() by hand below: this loop runs once per byte of every file exported.
  let h = from >= 2 ? ((((bytes[from - 2] as number) | 0x20) & 0x7f) << 7) | (((bytes[from - 1] as number) | 0x20) & 0x7f) : 0;
  for (let i = from; i < n; i++) {
    h = ((h << 7) | (((bytes[i] as number) | 0x20) & 0x7f)) & 0x1fffff;
    // No anchor starts with a character that folds to 0, so a window's first two bytes cannot fake a hit.
    if (starts[h] !== 0) return i;
  }
  return -1;
}

/**
 * The bytes are searched in pieces copied into one plain array: the files come in buffers backed by
 * resizable ArrayBuffers (see read-whole.ts), which V8 reads three times slower in a loop, and one array
 * type keeps the loop monomorphic. The copy costs a memcpy; the two bytes before a piece are copied with it.
 */
const PIECE = 64 * 1024;
const scratch = new Uint8Array(PIECE + 2);

/** Byte offsets where a trigram some anchor starts with begins (a superset of the anchors' starts). */
function candidates(bytes: Uint8Array): number[] {
  const out: number[] = [];
  for (let base = 0; base < bytes.length; base += PIECE) {
    const from = Math.max(base - 2, 0);
    const piece = bytes.subarray(from, Math.min(base + PIECE, bytes.length));
    scratch.set(piece);
    const view = piece.length === scratch.length ? scratch : scratch.subarray(0, piece.length);
    for (let end = nextCandidateEnd(view, base - from); end !== -1; end = nextCandidateEnd(view, end + 1)) out.push(from + end - 2);
  }
  return out;
}

/**
 * Character offsets in `text` of byte offsets in `bytes`, its UTF-8 encoding (or, when `text` is as long as
 * `bytes`, its Latin-1 or ASCII one): one walk counting the bytes that start a character, so the byte offsets
 * must be in ascending order.
 */
export function charOffsets(bytes: Uint8Array, text: string, byteOffsets: number[]): number[] {
  if (text.length === bytes.length) return byteOffsets;
  const out: number[] = [];
  let chars = 0;
  let at = 0;
  for (const target of byteOffsets) {
    for (; at < target; at++) {
      const b = bytes[at] as number;
      if ((b & 0xc0) !== 0x80) chars += b >= 0xf0 ? 2 : 1; // a four-byte character is two UTF-16 units
    }
    out.push(chars);
  }
  return out;
}

/**
 * [start, end) byte offsets of every place an anchor matches in `bytes` (overlapping ones too). Anchors are
 * ASCII and case-insensitive in non-Unicode mode, where no character beyond ASCII matches an ASCII one and
 * `\w` is ASCII, so they match the same places in the bytes read as Latin-1 as in the decoded text (UTF-8 or
 * Latin-1), and a byte-level trigram cannot miss one. Only the few bytes an anchor can reach are decoded.
 */
export function anchorHits(bytes: Buffer): number[] {
  const hits: number[] = [];
  for (const start of candidates(bytes)) {
    const h = trigramOf(bytes[start] as number, bytes[start + 1] as number, bytes[start + 2] as number);
    // Past the end, the fourth byte reads as a space: no anchor of four certain characters fits there.
    if (STARTS[h] === QUAD && !QUADS.has((h << 7) | fold(bytes[start + 3] ?? 0x20))) continue;
    const reach = REACH.get(h) as number;
    const m = ANCHOR_AT_START.exec(bytes.toString('latin1', start, start + reach));
    if (m) hits.push(start, start + m[0].length);
  }
  return hits;
}
