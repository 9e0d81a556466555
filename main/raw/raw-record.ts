// Fetches the one source record behind a message or operation: a JSONL line, or a JSON pointer into a document.
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { gunzipSync, zstdDecompressSync } from 'node:zlib';
import { createInterface } from 'node:readline';
import type { RawRecord } from '../../shared/api.ts';
import { AppError } from '../../shared/result.ts';
import { compressionOf, decompressor } from '../sources/compressed.ts';

/** Records larger than this are cut for display; the raw file view still has everything. */
export const RAW_RECORD_LIMIT = 1024 * 1024;

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function bounded(path: string, text: string): RawRecord {
  return text.length > RAW_RECORD_LIMIT ? { path, text: text.slice(0, RAW_RECORD_LIMIT), truncated: true } : { path, text, truncated: false };
}

async function lineOf(realPath: string, line: number): Promise<string | null> {
  const source = createReadStream(realPath);
  const kind = compressionOf(realPath);
  const input = kind ? source.pipe(decompressor(kind, undefined, true)) : source;
  const lines = createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  try {
    for await (const text of lines) {
      n++;
      if (n === line) return text.replace(/^\uFEFF/, '');
    }
    return null;
  } finally {
    lines.close();
    source.destroy();
    if (input !== source) input.destroy();
  }
}

/** RFC 6901: "/a/0/b~1c" → ["a", "0", "b/c"]. */
export function resolvePointer(doc: unknown, pointer: string): unknown {
  if (pointer === '') return doc;
  if (!pointer.startsWith('/')) throw new AppError('INVALID_INPUT', `JSON pointer must start with "/": ${pointer}`, 'pointer');
  let node: unknown = doc;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^\d+$/.test(token) && Number(token) < node.length) node = node[Number(token)];
    else if (node !== null && typeof node === 'object' && !Array.isArray(node) && Object.hasOwn(node, token)) {
      node = (node as Record<string, unknown>)[token];
    } else {
      throw new AppError('NOT_FOUND', `Nothing at ${pointer} in the source document (it may have changed since it was read).`, 'pointer');
    }
  }
  return node;
}

export async function readRawRecord(realPath: string, shownPath: string, at: { line?: number | undefined; pointer?: string | undefined }): Promise<RawRecord> {
  try {
    if (at.line !== undefined) {
      const text = await lineOf(realPath, at.line);
      if (text === null) throw new AppError('NOT_FOUND', `${shownPath} has no line ${at.line} (it may have changed since it was read).`, 'line');
      return bounded(shownPath, pretty(text));
    }
    const bytes = await readFile(realPath);
    const kind = compressionOf(realPath);
    const text = (kind === 'gzip' ? gunzipSync(bytes) : kind === 'zstd' ? zstdDecompressSync(bytes) : bytes).toString('utf8').replace(/^\uFEFF/, '');
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      throw new AppError('UNREADABLE', `${shownPath} is not a JSON document, so a pointer cannot be resolved in it.`);
    }
    return bounded(shownPath, JSON.stringify(resolvePointer(doc, at.pointer ?? ''), null, 2));
  } catch (err) {
    if (err instanceof AppError) throw err;
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') throw new AppError('NOT_FOUND', `The source file no longer exists: ${shownPath}`);
    throw new AppError('IO_ERROR', `Cannot read ${shownPath}: ${e.message}`);
  }
}
