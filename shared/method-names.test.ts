// The zod-free list of method names is exactly the contract's: a client built from it can call every method and no other.
import { describe, expect, it } from 'vitest';
import { methodNames } from './api.ts';
import { METHOD_NAMES } from './method-names.ts';

describe('METHOD_NAMES', () => {
  it('names every contract method once, and nothing else', () => {
    expect([...METHOD_NAMES].sort()).toEqual([...methodNames].sort());
    expect(new Set(METHOD_NAMES).size).toBe(METHOD_NAMES.length);
  });
});
