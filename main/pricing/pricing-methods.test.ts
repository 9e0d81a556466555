// setPricingEntry: the price applies in this thread at once, every session is priced again after the answer, and a failed reprice is reported.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtinPricing } from './pricing-table.ts';
import { pricingMethods } from './pricing-methods.ts';
import { applyUserPricing } from './user-pricing.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-price-methods-'));
});
afterEach(async () => {
  applyUserPricing(join(dir, 'none.json'));
  await rm(dir, { recursive: true, force: true });
});

describe('setPricingEntry', () => {
  it('prices the model at once here, and has every session read again', async () => {
    let repriced = 0;
    const problems: string[] = [];
    const { setPricingEntry } = pricingMethods({
      pricingFile: join(dir, 'pricing.json'),
      reprice: async () => void repriced++,
      onProblem: (m) => problems.push(m),
    });
    expect(builtinPricing.priceOf('zz-house-model')).toBeNull();
    await setPricingEntry({ model: 'zz-house-model', price: { input: 4, output: 20, cacheRead: 0.4, cacheWrite: 5 } });
    expect(builtinPricing.estimate('zz-house-model', { input: 1_000_000, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 })?.usd).toBe(4);
    expect(repriced).toBe(1);
    await setPricingEntry({ model: 'zz-house-model', price: null });
    expect(builtinPricing.priceOf('zz-house-model')).toBeNull();
    expect(problems).toEqual([]);
  });

  it('reports a reprice that failed, and still answers with the saved file', async () => {
    const problems: string[] = [];
    const { setPricingEntry } = pricingMethods({
      pricingFile: join(dir, 'pricing.json'),
      reprice: async () => {
        throw new Error('scan refused');
      },
      onProblem: (m) => problems.push(m),
    });
    const info = await setPricingEntry({ model: 'zz-house-model', price: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 } });
    expect(info.entries).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 0));
    expect(problems).toEqual(['Costs were not worked out again with the new prices: scan refused']);
  });
});
