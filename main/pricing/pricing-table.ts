// List prices per million tokens for common models, so formats that record tokens but not cost get an estimate.
import type { Cost, TokenUsage } from '../../shared/session.ts';

export interface ModelPrice {
  /** USD per million input tokens (uncached). */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/**
 * Public list prices (USD / 1M tokens) as published by each provider; matched by the longest prefix
 * of the model name, case-insensitively. Reasoning tokens are billed as output. Users override or
 * extend this with `<data dir>/pricing.json` ({ "<model prefix>": { input, output, cacheRead, cacheWrite } }).
 */
export const BUILTIN_PRICES: Record<string, ModelPrice> = {
  // Opus 4 (claude-opus-4-2025…) and 4.1 kept the old price; 4.5 and later cost a third of it.
  'claude-opus-4': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'claude-opus-4-0': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'claude-opus-4-1': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'claude-opus-4-2025': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'claude-sonnet-4': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-3-7-sonnet': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-3-5-sonnet': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-haiku-4': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  'claude-3-5-haiku': { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 },
  'gpt-5': { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
  'gpt-5-mini': { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0 },
  'gpt-5-nano': { input: 0.05, output: 0.4, cacheRead: 0.005, cacheWrite: 0 },
  'gpt-4.1': { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cacheRead: 0.1, cacheWrite: 0 },
  'gpt-4o': { input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 0 },
  'o3': { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 },
  'o4-mini': { input: 1.1, output: 4.4, cacheRead: 0.275, cacheWrite: 0 },
  'gemini-2.5-pro': { input: 1.25, output: 10, cacheRead: 0.31, cacheWrite: 0 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5, cacheRead: 0.075, cacheWrite: 0 },
  'gemini-3-pro': { input: 2, output: 12, cacheRead: 0.2, cacheWrite: 0 },
  'deepseek/deepseek-v3': { input: 0.27, output: 1.1, cacheRead: 0.07, cacheWrite: 0 },
  'deepseek-chat': { input: 0.27, output: 1.1, cacheRead: 0.07, cacheWrite: 0 },
};

export class PricingTable {
  private entries: Array<[string, ModelPrice]> = [];
  private prices: Record<string, ModelPrice>;

  constructor(prices: Record<string, ModelPrice> = BUILTIN_PRICES) {
    this.prices = { ...prices };
    this.index();
  }

  /** Adds or replaces prices (the user's pricing.json wins over the built-in list). */
  override(prices: Record<string, ModelPrice>): void {
    this.prices = { ...this.prices, ...prices };
    this.index();
  }

  private index(): void {
    // Longest prefix first, so "gpt-5-mini" wins over "gpt-5".
    this.entries = Object.entries(this.prices)
      .map(([k, v]): [string, ModelPrice] => [k.toLowerCase(), v])
      .sort((a, b) => b[0].length - a[0].length);
  }

  priceOf(model: string | null | undefined): ModelPrice | null {
    if (!model) return null;
    const name = model.toLowerCase();
    // Provider prefixes ("anthropic/claude-…", "openai/gpt-…") do not change the price.
    const bare = name.includes('/') && !name.startsWith('deepseek/') ? name.slice(name.lastIndexOf('/') + 1) : name;
    for (const [prefix, price] of this.entries) if (bare.startsWith(prefix)) return price;
    return null;
  }

  /** Estimated cost of a usage record, or null when the model's price is unknown. */
  estimate(model: string | null | undefined, usage: TokenUsage | null): Cost | null {
    const price = this.priceOf(model);
    if (!price || !usage) return null;
    const usd =
      (usage.input * price.input +
        (usage.output + usage.reasoning) * price.output +
        usage.cacheRead * price.cacheRead +
        usage.cacheWrite * price.cacheWrite) /
      1_000_000;
    return { usd, estimated: true };
  }
}

export const builtinPricing = new PricingTable();
