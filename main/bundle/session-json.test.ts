// session.json's bytes gathered into one growing buffer: the same bytes as joining the pieces, in a buffer a worker can hand over whole.
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { GrowingBuffer } from './session-json.ts';

describe('GrowingBuffer', () => {
  it('holds every appended byte in order across many growths, and its buffer can be transferred as it is', () => {
    const pieces = Array.from({ length: 40 }, (_, i) => randomBytes(1000 + i * 3000));
    const grown = new GrowingBuffer();
    for (const p of pieces) grown.append(p);
    const bytes = grown.finish();
    expect(bytes.equals(Buffer.concat(pieces))).toBe(true);
    // It owns the whole of its ArrayBuffer, so moving it moves nothing else.
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(bytes.length);
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(bytes.buffer, [bytes.buffer as ArrayBuffer]);
    const moved = receiveMessageOnPort(port2)?.message as ArrayBuffer;
    expect(Buffer.from(moved).equals(Buffer.concat(pieces))).toBe(true);
    port1.close();
  });

  it('an empty one finishes as no bytes', () => {
    expect(new GrowingBuffer().finish().length).toBe(0);
  });
});
