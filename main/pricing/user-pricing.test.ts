// The user's pricing.json overrides and extends the built-in prices; a broken file is reported, never fatal.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyUserPricing } from './user-pricing.ts';
import { builtinPricing } from './pricing-table.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-price-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('applyUserPricing', () => {
  it('adds a model the price database lacks and overrides one it has, for that model only', async () => {
    const file = join(dir, 'pricing.json');
    await writeFile(
      file,
      JSON.stringify({ 'gemini-3-flash': { input: 0.5, output: 3 }, 'gpt-5': { input: 1, output: 8, cacheRead: 0.1 }, 'acme-*': { input: 2, output: 2 } }),
    );
    expect(applyUserPricing(file)).toBeNull();
    expect(builtinPricing.priceOf('gemini-3-flash')).toEqual({ input: 0.5, output: 3, cacheRead: 0, cacheWrite: 0 });
    expect(builtinPricing.priceOf('gemini-3-flash-preview')).toEqual({ input: 0.5, output: 3, cacheRead: 0, cacheWrite: 0 });
    expect(builtinPricing.priceOf('gpt-5-2025-08-07')?.input).toBe(1);
    // "gpt-5" names that model, not its siblings: gpt-5.1 and gpt-5-mini keep the database's prices.
    expect(builtinPricing.priceOf('gpt-5.1')?.input).toBe(1.25);
    expect(builtinPricing.priceOf('gpt-5-mini')?.input).toBe(0.25);
    expect(builtinPricing.priceOf('acme-coder-2')?.input).toBe(2);
  });

  it('ignores a missing file and explains a broken one', async () => {
    expect(applyUserPricing(join(dir, 'none.json'))).toBeNull();
    const bad = join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ 'my-model': { input: 'cheap' } }));
    expect(applyUserPricing(bad)).toMatch(/my-model\.input: .*expected \{ "<model>"/);
    await writeFile(bad, '{nope');
    expect(applyUserPricing(bad)).toMatch(/not valid JSON/);
  });

  it('follows the file: a price edited or removed later applies on the next lookup, without applying it again', async () => {
    const file = join(dir, 'followed.json');
    await writeFile(file, JSON.stringify({ 'zz-followed': { input: 1, output: 1 } }));
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      expect(applyUserPricing(file)).toBeNull();
      expect(builtinPricing.priceOf('zz-followed')?.input).toBe(1);
      await writeFile(file, JSON.stringify({ 'zz-followed': { input: 7, output: 1 } }));
      vi.setSystemTime(Date.now() + 1000);
      expect(builtinPricing.priceOf('zz-followed')?.input).toBe(7);
      await rm(file);
      vi.setSystemTime(Date.now() + 1000);
      expect(builtinPricing.priceOf('zz-followed')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
