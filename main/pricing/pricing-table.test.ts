// Estimated cost: longest-prefix model matching, provider prefixes ignored, unknown models left unpriced.
import { describe, expect, it } from 'vitest';
import { PricingTable, builtinPricing } from './pricing-table.ts';

const usage = (input: number, output: number, cacheRead = 0, cacheWrite = 0, reasoning = 0) => ({ input, output, cacheRead, cacheWrite, reasoning });

describe('PricingTable', () => {
  it('prices a Claude call including cache reads and writes, marked estimated', () => {
    const cost = builtinPricing.estimate('claude-sonnet-4-5-20250929', usage(1_000_000, 100_000, 2_000_000, 400_000));
    expect(cost).toEqual({ usd: 3 + 1.5 + 0.6 + 1.5, estimated: true });
  });

  it('prefers the longest matching prefix and bills reasoning as output', () => {
    expect(builtinPricing.priceOf('gpt-5-mini-2025-08-07')?.input).toBe(0.25);
    expect(builtinPricing.priceOf('gpt-5.5')?.input).toBe(1.25);
    expect(builtinPricing.estimate('gpt-5-codex', usage(0, 1_000_000, 0, 0, 1_000_000))?.usd).toBe(20);
  });

  it('prices Opus 4 and 4.1 at the old rate and every later Opus at the new one', () => {
    expect(builtinPricing.priceOf('claude-opus-4-20250514')?.input).toBe(15);
    expect(builtinPricing.priceOf('claude-opus-4-1-20250805')?.input).toBe(15);
    expect(builtinPricing.priceOf('claude-opus-4-5-20251101')?.input).toBe(5);
    expect(builtinPricing.priceOf('claude-opus-4-8')?.input).toBe(5);
  });

  it('ignores a provider prefix in the model name', () => {
    expect(builtinPricing.priceOf('anthropic/claude-opus-4-7')?.output).toBe(25);
  });

  it('returns null for an unknown model or missing usage', () => {
    expect(builtinPricing.estimate('my-local-llama', usage(10, 10))).toBeNull();
    expect(builtinPricing.estimate('gpt-5', null)).toBeNull();
  });

  it('takes a user table instead of the built-in one', () => {
    const table = new PricingTable({ 'my-local-llama': { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } });
    expect(table.estimate('my-local-llama-70b', usage(1000, 1000))).toEqual({ usd: 0, estimated: true });
  });
});
