// The identifiers the scan worker finds in a session's index text (extractPackedIndexText): the same the writer finds in the stored text, within their cap.
import { describe, expect, it } from 'vitest';
import { extractPackedIndexText, identsOf, packedParts, unpackIndexText } from './index-text.ts';
import { makeSession, textMessage } from './test-sessions.ts';

describe('extractPackedIndexText identifiers', () => {
  it("finds a long session's identifiers up to their cap, the same the writer would find in its stored text", () => {
    // ~920 KB of text holding ~21,600 distinct identifiers: more than the 256 KB the identifiers may take, and, written
    // after the text in the reused buffer, past the end of its first megabyte (the buffer grows under them: this file
    // has its own module, so the buffer starts empty and this session is the first written into it).
    const messages = Array.from({ length: 1800 }, (_, m) =>
      textMessage(m % 2 ? 'assistant' : 'user', Array.from({ length: 12 }, (_, k) => `see handleEvent${m}x${k} and some plain words`).join(' ')),
    );
    const session = makeSession('long', { title: 'Long run of parseThing', messages });
    const packed = extractPackedIndexText(session);
    const parts = packedParts(packed);
    expect(parts.body.length).toBeGreaterThan(780_000);
    const expected = identsOf(parts.title, [parts.body], parts.meta);
    expect(parts.idents.length).toBeGreaterThan(200_000);
    // The scan stops at the identifier that crosses the cap (one is at most 200 bytes).
    expect(parts.idents.length).toBeLessThanOrEqual(256 * 1024 + 200);
    expect(Buffer.from(parts.idents).equals(Buffer.from(expected))).toBe(true);
    const idents = new TextDecoder().decode(parts.idents).split(' ');
    expect(idents.slice(0, 2)).toEqual(['parseThing', 'vizier:long']);
    expect(idents).toContain('handleEvent0x0');
    // The text before them is kept as written when the buffer grows under it.
    const text = unpackIndexText(packed);
    expect(text.title).toBe('Long run of parseThing');
    expect(text.meta.split('\n')).toContain('/roots/long.json');
  });
});
