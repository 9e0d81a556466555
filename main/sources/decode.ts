// Turns raw file bytes into text and JSON with exact, user-facing reasons for every way it can fail.
import { readWholeFile } from './file-bytes.ts';
import { releaseBytes } from '../workers/release-bytes.ts';
import type { Warning } from '../../shared/session.ts';
import { UnreadableError } from './types.ts';
import { cannotRead } from './read-failure.ts';

export interface DecodedText {
  text: string;
  warnings: Warning[];
}

const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf8Lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** Decodes bytes as UTF-8 (or UTF-16 when a UTF-16 BOM says so), never throwing on bad bytes. */
export function decodeText(bytes: Uint8Array): DecodedText {
  const warnings: Warning[] = [];
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
    warnings.push({ code: 'utf16_bom', message: 'File is UTF-16LE with a byte-order mark; decoded as UTF-16LE.', count: 1 });
    return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), warnings };
  }
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    warnings.push({ code: 'utf16_bom', message: 'File is UTF-16BE with a byte-order mark; decoded as UTF-16BE.', count: 1 });
    return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), warnings };
  }
  let body = bytes;
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    warnings.push({ code: 'bom', message: 'File starts with a UTF-8 byte-order mark (ignored).', count: 1 });
    body = bytes.subarray(3);
  }
  try {
    return { text: utf8Strict.decode(body), warnings };
  } catch {
    warnings.push({
      code: 'invalid_utf8',
      message: 'File contains bytes that are not valid UTF-8; they are shown as \uFFFD.',
      count: 1,
    });
    return { text: utf8Lenient.decode(body), warnings };
  }
}

/** Line and column (1-based) of a character offset, for error messages a person can act on. */
function lineAndColumn(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return `line ${line}, column ${offset - lineStart + 1}`;
}

/** JSON.parse with an error that names what is wrong and where. */
export function parseJsonText(text: string): unknown {
  if (text.length === 0) throw new UnreadableError('empty_file', 'File is empty (0 bytes).');
  if (text.trim().length === 0) throw new UnreadableError('empty_file', 'File contains only whitespace.');
  if (/^\s*</.test(text)) {
    throw new UnreadableError('invalid_json', 'File is not JSON: it starts with "<" (an HTML or XML page?).');
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    const raw = err instanceof Error ? err.message : String(err);
    const pos = /position (\d+)/.exec(raw);
    const where = pos ? ` at ${lineAndColumn(text, Number(pos[1]))}` : '';
    const truncated = /Unexpected end of JSON input|Unterminated string/.test(raw);
    const hint = truncated ? ' The file ends early: it was probably cut off while being written.' : '';
    const detail = raw.replace(/^JSON\.parse: /, '').replace(/ (?:in JSON )?at position \d+.*$/, '');
    throw new UnreadableError('invalid_json', `Invalid JSON${where}: ${detail}.${hint}`);
  }
}

/** Reads a file and decodes it, converting I/O failures into UnreadableError. */
export async function readTextFile(absPath: string): Promise<DecodedText> {
  let bytes: Uint8Array;
  try {
    bytes = await readWholeFile(absPath);
  } catch (err) {
    throw cannotRead(err);
  }
  const decoded = decodeText(bytes);
  releaseBytes(bytes);
  return decoded;
}

/** Reads and parses one JSON document file; the returned warnings describe recoverable oddities. */
export async function readJsonFile(absPath: string): Promise<{ value: unknown; warnings: Warning[] }> {
  const { text, warnings } = await readTextFile(absPath);
  return { value: parseJsonText(text), warnings };
}
