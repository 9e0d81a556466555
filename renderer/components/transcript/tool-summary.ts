// One-line summaries of tool arguments (the path, command or query a reader looks for) and output clipping.

const MAX_SUMMARY = 140;

/** Keys that name what a call works on, most telling first. */
const PRIMARY_KEYS = [
  'command',
  'cmd',
  'pattern',
  'query',
  'q',
  'queries',
  'file_path',
  'filePath',
  'notebook_path',
  'path',
  'absolute_path',
  'file',
  'filename',
  'url',
  'description',
  'prompt',
  'task',
  'name',
  'input',
  'text',
];
/** Shown after the primary value when present, e.g. a grep pattern and where it looked. */
const SECONDARY_KEYS: Record<string, string[]> = {
  pattern: ['path', 'glob', 'include'],
  query: ['path', 'domain'],
  description: ['subagent_type'],
};
const SHELLS = new Set(['bash', 'sh', 'zsh', 'fish', 'pwsh', 'powershell', 'cmd', '/bin/bash', '/bin/sh', '/bin/zsh']);

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_SUMMARY ? `${line.slice(0, MAX_SUMMARY - 1)}…` : line;
}

/** Codex-style argv: ["bash", "-lc", "ls -la"] reads better as the script itself. */
function commandText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return null;
  const argv = value as string[];
  if (argv.length >= 3 && SHELLS.has(argv[0] ?? '') && /^-\w*c$/.test(argv[1] ?? '')) return argv.slice(2).join(' ');
  return argv.join(' ');
}

function scalarText(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() ? value : null;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) return value.join(', ');
  return null;
}

/** apply_patch bodies name their files on "*** Update File: x" lines. */
function patchFiles(text: string): string | null {
  const files = [...text.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)].map((m) => m[1]?.trim());
  return files.length > 0 ? files.join(', ') : null;
}

function parseMaybeJson(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  const t = input.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return input;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return input;
  }
}

/** The one line a tool card shows next to the tool name. */
export function summarizeToolInput(input: unknown): string {
  const value = parseMaybeJson(input);
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return oneLine(patchFiles(value) ?? value);
  if (typeof value !== 'object' || Array.isArray(value)) return oneLine(JSON.stringify(value) ?? '');
  const record = value as Record<string, unknown>;
  for (const key of PRIMARY_KEYS) {
    if (!(key in record)) continue;
    const raw = key === 'command' || key === 'cmd' ? commandText(record[key]) : scalarText(record[key]);
    if (!raw) continue;
    const primary = key === 'input' || key === 'text' ? (patchFiles(raw) ?? raw) : raw;
    const extra = (SECONDARY_KEYS[key] ?? []).map((k) => scalarText(record[k])).filter((v): v is string => v !== null);
    return oneLine([primary, ...extra.map((e) => `· ${e}`)].join(' '));
  }
  for (const [, v] of Object.entries(record)) {
    const text = scalarText(v);
    if (text) return oneLine(text);
  }
  const json = JSON.stringify(record);
  return json === '{}' ? '' : oneLine(json ?? '');
}

/** Arguments as the expanded card shows them: pretty JSON, strings that hold JSON unpacked. */
export function prettyArguments(input: unknown): string {
  const value = parseMaybeJson(input);
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

export interface Clipped {
  text: string;
  /** Lines not shown (0 when nothing was cut). */
  hiddenLines: number;
  hiddenChars: number;
}

/** Long output is cut at a line boundary so the transcript stays scannable; "show all" lifts it. */
export function clipOutput(text: string, maxLines = 40, maxChars = 4000): Clipped {
  let end = text.length;
  let lines = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 10 && ++lines >= maxLines) {
      end = i;
      break;
    }
  }
  end = Math.min(end, maxChars);
  if (end >= text.length) return { text, hiddenLines: 0, hiddenChars: 0 };
  const shown = text.slice(0, end);
  const totalLines = text.split('\n').length;
  const shownLines = shown.split('\n').length;
  return { text: shown, hiddenLines: Math.max(0, totalLines - shownLines), hiddenChars: text.length - end };
}
