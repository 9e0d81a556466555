// The normalized session.json as a stream of pieces: the same text as JSON.stringify(session, null, 2), one message at a time.
import type { Session } from '../../shared/session.ts';

/** Indents a pretty-printed value for its depth; JSON text never holds a raw line break inside a string. */
function nested(value: unknown, indent: string): string {
  return (JSON.stringify(value, null, 2) ?? 'null').replace(/\n/g, `\n${indent}`);
}

/**
 * Yields session.json piece by piece, so a session with a million messages never becomes one string.
 * The result is byte-for-byte `${JSON.stringify(session, null, 2)}\n`, what the vault writes for a kept copy.
 */
export function* sessionJsonPieces(session: Session): Generator<string> {
  const entries = Object.entries(session).filter(([, v]) => v !== undefined && typeof v !== 'function');
  yield '{';
  for (let i = 0; i < entries.length; i++) {
    const [key, value] = entries[i] as [string, unknown];
    const head = `${i ? ',' : ''}\n  ${JSON.stringify(key)}: `;
    if (Array.isArray(value) && value.length > 0) {
      yield `${head}[`;
      for (let j = 0; j < value.length; j++) yield `${j ? ',' : ''}\n    ${nested(value[j] === undefined ? null : value[j], '    ')}`;
      yield '\n  ]';
    } else {
      yield `${head}${nested(value, '  ')}`;
    }
  }
  yield entries.length ? '\n}\n' : '}\n';
}

/** session.json's pieces joined into Buffers of about `chunkChars` characters, so per-chunk costs downstream (hashing, scanning, deflate) stay small. */
export function* sessionJsonChunks(session: Session, chunkChars = 256 * 1024): Generator<Buffer> {
  let parts: string[] = [];
  let length = 0;
  for (const piece of sessionJsonPieces(session)) {
    parts.push(piece);
    length += piece.length;
    if (length >= chunkChars) {
      yield Buffer.from(parts.join(''), 'utf8');
      parts = [];
      length = 0;
    }
  }
  if (length) yield Buffer.from(parts.join(''), 'utf8');
}

/** Joins chunks into a Buffer that owns its whole ArrayBuffer (Buffer.concat may hand out a slice of the shared pool, which must never be transferred). */
export function ownedConcat(chunks: readonly Buffer[]): Buffer {
  const out = Buffer.allocUnsafeSlow(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    c.copy(out, at);
    at += c.length;
  }
  return out;
}
