// Makes text that came from a session or a bundle safe to print on a terminal: no escape sequences, control characters or bidi overrides.

/**
 * Whole escape sequences, so their payload goes too (an OSC 0 window title, an OSC 8 link's target):
 * CSI (ESC [ or 8-bit CSI, parameters, final byte); OSC, DCS, SOS, PM and APC strings (ESC ] P X ^ _ or their
 * 8-bit forms, up to BEL or ST); any other ESC with its intermediates and final byte. An unterminated string
 * loses only its introducer (the last alternative), and its text stays visible.
 */
const ESCAPE_SEQUENCES =
  // eslint-disable-next-line no-control-regex -- finding control characters is what this does
  /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)|\x1b[ -/]*[0-~]?/g;

/** Line layout characters: a space in a one-line field, so the words stay apart. */
const LAYOUT = /[\t\n\v\f\r\u0085\u2028\u2029]/g;

/** C0 controls (but tab and newline), DEL and C1 controls. */
// eslint-disable-next-line no-control-regex -- finding control characters is what this does
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** Bidi embeddings, overrides, isolates and marks: they reorder what a terminal shows ("txt.exe" as "exe.txt"). */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** One field on one line: escape sequences, controls and bidi characters removed, tabs and line breaks made spaces. */
export function sanitizeForTerminal(text: string): string {
  return text.replace(ESCAPE_SEQUENCES, '').replace(LAYOUT, ' ').replace(CONTROLS, '').replace(BIDI, '');
}

/** A block of text (an error, a report): the same, but newlines and tabs stay, and a carriage return cannot overwrite a line. */
export function sanitizeLines(text: string): string {
  return text
    .replace(ESCAPE_SEQUENCES, '')
    .replace(/\r\n?|[\v\f\u0085\u2028\u2029]/g, '\n')
    .replace(CONTROLS, '')
    .replace(BIDI, '');
}

/** A copy of a JSON-like value with every string (keys too) made one safe line; what a text formatter prints from. */
export function sanitizeDeep<T>(value: T): T {
  if (typeof value === 'string') return sanitizeForTerminal(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => sanitizeDeep(v)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [sanitizeForTerminal(k), sanitizeDeep(v)])) as T;
  }
  return value;
}

/** Characters JSON.stringify leaves raw that a terminal acts on (it escapes C0 itself): DEL, C1, bidi, line separators. */
const JSON_RAW = /[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

/**
 * JSON for standard output: the same value (JSON.parse gives it back unchanged), with every character a terminal
 * would act on written as a \u escape. Such characters only occur inside strings, where the escape means the same.
 */
export function terminalJson(value: unknown, indent = 2): string {
  return escapeRaw(JSON.stringify(value, null, indent) ?? 'null');
}

const escapeRaw = (json: string) => json.replace(JSON_RAW, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Characters of JSON collected before they are written. */
const ARRAY_CHUNK_CHARS = 16_384;

/**
 * `terminalJson(items)` and a newline, the same bytes, for a list that arrives in parts (`add` each, then `end`),
 * handed to `write` in chunks of ~16 K characters: a long list is never one string of megabytes (nor its copy as
 * UTF-8), and its rows need not all be held at once. Fresh memory is what costs on a busy machine; small chunks
 * reuse the young generation's. Each item is laid out as JSON.stringify lays out an array's element.
 */
export class TerminalJsonArray {
  private count = 0;
  private chunk = '';
  private readonly write: (chunk: string) => void;

  constructor(write: (chunk: string) => void) {
    this.write = write;
  }

  add(items: readonly unknown[]): void {
    for (const item of items) {
      // An element of a one-element array, without the array's own brackets: indented as inside the whole array.
      this.chunk += `${this.count++ ? ',\n' : '[\n'}${JSON.stringify([item], null, 2).slice(2, -2)}`;
      if (this.chunk.length >= ARRAY_CHUNK_CHARS) this.flush();
    }
  }

  end(): void {
    this.chunk += this.count ? '\n]\n' : '[]\n';
    this.flush();
  }

  private flush(): void {
    if (this.chunk) this.write(escapeRaw(this.chunk));
    this.chunk = '';
  }
}

/** A whole list written as TerminalJsonArray writes one. */
export function writeTerminalJsonArray(items: readonly unknown[], write: (chunk: string) => void): void {
  const array = new TerminalJsonArray(write);
  array.add(items);
  array.end();
}
