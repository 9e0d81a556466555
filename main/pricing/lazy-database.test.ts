// The price database is loaded when a model is first priced, not when pricing is imported (the main thread never prices).
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { builtinPricing } from './pricing-table.ts';
import { applyUserPricing } from './user-pricing.ts';

const require = createRequire(import.meta.url);
const loaded = () => Object.keys(require.cache).some((path) => path.includes('genai-prices'));

describe('the price database', () => {
  it('stays unloaded through import and pricing.json, and loads on the first price', () => {
    expect(applyUserPricing('/nonexistent/pricing.json')).toBeNull();
    expect(loaded()).toBe(false);
    const cost = builtinPricing.estimate('claude-sonnet-4-5', { input: 1000, output: 100, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
    expect(cost?.usd).toBeGreaterThan(0);
    expect(loaded()).toBe(true);
  });
});
