// Freeing a finished buffer at once: only a buffer that is the sole view of its own memory is detached.
import { describe, expect, it } from 'vitest';
import { releaseBytes } from './release-bytes.ts';

describe('releaseBytes', () => {
  it('frees a buffer that owns its memory, at once', () => {
    const before = process.memoryUsage().arrayBuffers;
    const bytes = Buffer.alloc(32 * 1024 * 1024, 1);
    expect(process.memoryUsage().arrayBuffers - before).toBeGreaterThanOrEqual(32 * 1024 * 1024);
    expect(releaseBytes(bytes)).toBe(true);
    expect(bytes.buffer.detached).toBe(true);
    expect(bytes.length).toBe(0);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(1024 * 1024);
    // Twice is harmless.
    expect(releaseBytes(bytes)).toBe(false);
  });

  it('leaves alone a slice of Node\u2019s shared pool, a view into a larger buffer and shared memory', () => {
    const pooled = Buffer.from('small');
    const neighbour = Buffer.from('other');
    expect(releaseBytes(pooled)).toBe(false);
    expect(pooled.toString()).toBe('small');
    expect(neighbour.toString()).toBe('other');
    const whole = new Uint8Array(1024).fill(7);
    expect(releaseBytes(whole.subarray(0, 512))).toBe(false);
    expect(releaseBytes(whole.subarray(512))).toBe(false);
    expect(whole[1023]).toBe(7);
    expect(releaseBytes(new Uint8Array(new SharedArrayBuffer(64)))).toBe(false);
  });
});
