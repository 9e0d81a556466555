// Estimated cost: the price database's own matching (no sibling fallback), pricing.json on top, unknown models unpriced.
import { describe, expect, it } from 'vitest';
import { PricingTable, builtinPricing } from './pricing-table.ts';
import { CostTotal } from './cost-total.ts';

const usage = (input: number, output: number, cacheRead = 0, cacheWrite = 0, reasoning = 0) => ({ input, output, cacheRead, cacheWrite, reasoning });
const inputPrice = (model: string) => builtinPricing.priceOf(model)?.input;

describe('PricingTable', () => {
  it('prices a Claude call including cache reads and writes, marked estimated', () => {
    const cost = builtinPricing.estimate('claude-sonnet-4-5-20250929', usage(10_000, 1_000, 20_000, 4_000));
    expect(cost?.estimated).toBe(true);
    expect(cost?.usd).toBeCloseTo((10_000 * 3 + 1_000 * 15 + 20_000 * 0.3 + 4_000 * 3.75) / 1e6, 12);
  });

  it('bills a whole call at the long-context rate once its prompt passes 200k tokens, as Anthropic does', () => {
    const cost = builtinPricing.estimate('claude-sonnet-4-5-20250929', usage(1_000_000, 100_000, 2_000_000, 400_000));
    expect(cost?.usd).toBeCloseTo(6 + 2.25 + 1.2 + 3, 9);
  });

  it('never prices a model as its sibling', () => {
    expect([inputPrice('gpt-4o'), inputPrice('gpt-4o-mini')]).toEqual([2.5, 0.15]);
    expect([inputPrice('gpt-4.1'), inputPrice('gpt-4.1-nano')]).toEqual([2, 0.1]);
    expect([inputPrice('o3'), inputPrice('o3-mini'), inputPrice('o3-pro')]).toEqual([2, 1.1, 20]);
    expect([inputPrice('gpt-5'), inputPrice('gpt-5.2'), inputPrice('gpt-5-pro')]).toEqual([1.25, 1.75, 15]);
  });

  it('prices models the old table lacked, where the database has them', () => {
    expect(builtinPricing.match('claude-3-5-sonnet-20241022')?.id).toBe('anthropic/claude-3-5-sonnet');
    expect(inputPrice('claude-3-haiku-20240307')).toBe(0.25);
    expect(inputPrice('claude-opus-5')).toBe(5);
    expect(inputPrice('claude-sonnet-5')).toBe(2);
    expect(inputPrice('gemini-3-flash-preview')).toBe(0.5);
  });

  it('keeps Opus 4 and 4.1 at the old rate and Opus 4.5 and later at the new one', () => {
    expect(inputPrice('claude-opus-4-20250514')).toBe(15);
    expect(inputPrice('claude-opus-4-1-20250805')).toBe(15);
    expect(inputPrice('claude-opus-4-5-20251101')).toBe(5);
    expect(inputPrice('claude-opus-4-7')).toBe(5);
  });

  it('bills reasoning as output, and cached tokens as input where the model has no cache price', () => {
    expect(builtinPricing.estimate('gpt-5', usage(0, 1_000_000, 0, 0, 1_000_000))?.usd).toBe(20);
    expect(builtinPricing.estimate('o3-pro', usage(0, 0, 1_000_000))?.usd).toBe(20);
  });

  it('reads a provider prefix as the provider', () => {
    expect(builtinPricing.priceOf('anthropic/claude-opus-4-7')?.output).toBe(25);
  });

  it('leaves a damaged count (1e308 tokens) unpriced instead of costing Infinity, and keeps a total finite', () => {
    expect(builtinPricing.estimate('claude-sonnet-4-5-20250929', usage(1e308, 1e308))).toBeNull();
    const total = new CostTotal();
    total.add({ usd: 2, estimated: false }, usage(10, 10));
    total.add({ usd: 1.7e308, estimated: false }, usage(10, 10));
    total.add({ usd: 1.7e308, estimated: false }, usage(10, 10));
    expect(total.total()).toEqual({ usd: 1.7e308 + 2, estimated: false, unpricedMessages: 1 });
  });

  it('leaves unknown models and missing usage unpriced', () => {
    expect(builtinPricing.estimate('my-local-llama', usage(10, 10))).toBeNull();
    expect(builtinPricing.estimate('gemini-3-flash', usage(10, 10))).toBeNull(); // the database knows only the -preview
    expect(builtinPricing.estimate('claude-fake-9', usage(10, 10))).toBeNull();
    expect(builtinPricing.estimate('<synthetic>', usage(10, 10))).toBeNull();
    expect(builtinPricing.estimate('gpt-5', null)).toBeNull();
  });

  it('takes pricing.json-style entries: a name, the name with a date stamp, or a "*" pattern', () => {
    const table = new PricingTable(
      { 'my-local-llama': { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 }, 'acme-*': { input: 3, output: 3, cacheRead: 0, cacheWrite: 0 } },
      { useDatabase: false },
    );
    expect(table.estimate('my-local-llama', usage(1_000_000, 0))).toEqual({ usd: 1, estimated: true });
    expect(table.priceOf('my-local-llama-20250101')?.input).toBe(1);
    expect(table.priceOf('my-local-llama-70b')).toBeNull();
    expect(table.match('acme-large')).toMatchObject({ source: 'pricing.json', id: 'acme-*' });
  });
});

describe('CostTotal', () => {
  it('is partial when some calls with tokens had no price, and unpriced when none had one', () => {
    const total = new CostTotal();
    total.add({ usd: 0.0018, estimated: true }, usage(100, 10));
    for (let i = 0; i < 3; i++) total.add(null, usage(100, 10));
    total.add(null, usage(0, 0)); // a call without tokens costs nothing and is not "unpriced"
    expect(total.total()).toEqual({ usd: 0.0018, estimated: true, unpricedMessages: 3 });
    const none = new CostTotal();
    none.add(null, usage(5, 5));
    expect(none.total()).toBeNull();
  });

  it('keeps a recorded cost unestimated and carries the unpriced count of a partial part', () => {
    const total = new CostTotal();
    total.add({ usd: 1, estimated: false }, usage(1, 1));
    expect(total.total()).toEqual({ usd: 1, estimated: false });
    total.add({ usd: 0.5, estimated: true, unpricedMessages: 2 }, usage(1, 1));
    expect(total.total()).toEqual({ usd: 1.5, estimated: true, unpricedMessages: 2 });
  });
});
