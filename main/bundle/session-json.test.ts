// session.json's bytes gathered into one growing buffer: the same bytes as joining the pieces, in a buffer a worker can hand over whole.
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import type { Session } from '../../shared/session.ts';
import { GrowingBuffer, sessionJsonBytes, StoreShelf } from './session-json.ts';

describe('GrowingBuffer', () => {
  it('holds every appended byte in order across many growths, and its buffer can be transferred as it is', () => {
    const pieces = Array.from({ length: 40 }, (_, i) => randomBytes(1000 + i * 3000));
    const grown = new GrowingBuffer();
    for (const p of pieces) grown.append(p);
    const bytes = grown.finish();
    expect(bytes.equals(Buffer.concat(pieces))).toBe(true);
    // It owns the whole of its ArrayBuffer, so moving it moves nothing else.
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBeGreaterThanOrEqual(bytes.length);
    const { port1, port2 } = new MessageChannel();
    const length = bytes.length;
    port1.postMessage(bytes.buffer, [bytes.buffer as ArrayBuffer]);
    const moved = receiveMessageOnPort(port2)?.message as ArrayBuffer;
    expect(moved.resizable).toBe(true);
    expect(Buffer.from(moved, 0, length).equals(Buffer.concat(pieces))).toBe(true);
    port1.close();
  });

  it('encodes appended text as UTF-8 in place: the same bytes as Buffer.from, across growths', () => {
    const texts = Array.from({ length: 300 }, (_, i) => `${'ascii '.repeat(i * 7)}é✓😀\u{10FFFF}${i % 5 === 0 ? '\uD800' : ''}`);
    const grown = new GrowingBuffer();
    for (const t of texts) grown.appendText(t);
    grown.append(Buffer.from('tail'));
    expect(grown.finish().equals(Buffer.from(`${texts.join('')}tail`, 'utf8'))).toBe(true);
  });

  it('writes over a used store from the shelf, keeping its memory; the shelf keeps few and small ones, and shrinks the rest', () => {
    const shelf = new StoreShelf(1, 1024 * 1024);
    const first = new GrowingBuffer();
    first.append(randomBytes(300_000));
    const used = first.finish();
    shelf.give(used.buffer as ArrayBuffer);
    const store = shelf.take() as ArrayBuffer;
    expect(store).toBe(used.buffer);
    const capacity = store.byteLength;
    const again = new GrowingBuffer(store);
    again.appendText('second session');
    const bytes = again.finish();
    expect(bytes.toString()).toBe('second session');
    expect(bytes.buffer).toBe(store);
    expect(store.byteLength).toBe(capacity);
    // Full, or too large: shrunk to nothing at once rather than left to the collector.
    shelf.give(store);
    const other = new GrowingBuffer();
    other.append(randomBytes(10));
    const spare = other.finish().buffer as ArrayBuffer;
    shelf.give(spare);
    expect(spare.byteLength).toBe(0);
    expect(shelf.take()).toBe(store);
    expect(shelf.take()).toBeUndefined();
    const big = new GrowingBuffer(store);
    big.append(randomBytes(2 * 1024 * 1024));
    const bigStore = big.finish().buffer as ArrayBuffer;
    shelf.give(bigStore);
    expect(shelf.take()).toBeUndefined();
    expect(bigStore.byteLength).toBe(0);
  });

  it('an empty one finishes as no bytes', () => {
    expect(new GrowingBuffer().finish().length).toBe(0);
  });
});

describe('sessionJsonBytes', () => {
  it('is byte-for-byte JSON.stringify(session, null, 2) and a line break, non-ASCII text included', () => {
    const session = {
      key: 'claude:/x/a.jsonl',
      id: 'a',
      title: 'naïve ✓ 😀 "quoted"\nline',
      messages: [
        { id: 'm1', role: 'user', text: 'héllo\u2028', parts: [{ kind: 'tool', input: { nested: { deep: [1, [2, [3, {}]]] } } }] },
        { id: 'm2', role: 'assistant', text: 'x'.repeat(300_000), tags: [], at: new Date(0) },
        undefined,
        [],
        'a string message',
      ],
      childKeys: [undefined, () => 1, 'k'],
      meta: { branch: 'main', list: [{}, []], when: new Date(1) },
      empty: [],
      nothing: null,
      skipped: undefined,
    } as unknown as Session;
    expect(sessionJsonBytes(session).equals(Buffer.from(`${JSON.stringify(session, null, 2)}\n`, 'utf8'))).toBe(true);
  });
});
