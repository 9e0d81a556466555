// The transcript's pieces: never cut inside a character, in order, each knowing the message it starts in.
import { describe, expect, it } from 'vitest';
import { bodyChunks, CHUNK_BYTES } from './body-chunks.ts';
import { MESSAGE_SEPARATOR } from './index-text.ts';

const decoder = new TextDecoder('utf-8', { fatal: true });

describe('bodyChunks', () => {
  it('cuts at most CHUNK_BYTES per piece, on character boundaries, and the pieces join back to the body', () => {
    // 3- and 4-byte characters straddle every boundary sooner or later.
    const messages = Array.from({ length: 40 }, (_, i) => `message ${i} ${'日本語🦘 text '.repeat(300 + i * 7)}`);
    const body = messages.join(MESSAGE_SEPARATOR);
    const chunks = bodyChunks(body);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.every((c) => c.bytes.byteLength <= CHUNK_BYTES && c.bytes.byteLength > 0)).toBe(true);
    // Each piece decodes on its own (fatal: a cut character throws).
    expect(chunks.map((c) => decoder.decode(c.bytes)).join('')).toBe(body);
    expect(chunks.map((c) => c.n)).toEqual(chunks.map((_, i) => i));
  });

  it('names the message each piece starts in', () => {
    const body = Array.from({ length: 30 }, (_, i) => `${i}:${'x'.repeat(5000)}`).join(MESSAGE_SEPARATOR);
    for (const c of bodyChunks(body)) {
      const text = decoder.decode(c.bytes);
      // The piece's first full message number is firstMessage + 1 after its first separator (or firstMessage at 0).
      const firstStart = text.indexOf(MESSAGE_SEPARATOR);
      if (firstStart !== -1) expect(text.slice(firstStart + 1).startsWith(`${c.firstMessage + 1}:`)).toBe(true);
    }
    expect(bodyChunks(body)[0]?.firstMessage).toBe(0);
  });

  it('takes packed bytes as they are, and an empty body has no pieces', () => {
    const bytes = new TextEncoder().encode('é'.repeat(CHUNK_BYTES));
    const chunks = bodyChunks(bytes);
    expect(chunks.length).toBe(2);
    expect(chunks[0]?.bytes.buffer).toBe(bytes.buffer);
    expect(bodyChunks('')).toEqual([]);
  });
});
