// A file the disk would not hand over is described in words, once, without the errno code or the path.
import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { cannotRead } from './read-failure.ts';

describe('cannotRead', () => {
  it('says what the file system said, in words, without its code, syscall or path', async () => {
    const err = await readFile('/no/such/session.jsonl').catch((e: unknown) => e);
    const failure = cannotRead(err);
    expect([failure.code, failure.message]).toEqual(['io_error', 'Cannot read file: no such file or folder.']);
  });

  it('keeps the message of an error that is not the file system', () => {
    expect(cannotRead(new Error('stream ended')).message).toBe('Cannot read file: stream ended.');
  });
});
