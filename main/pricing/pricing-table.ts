// Estimated cost of a call: the user's pricing.json entries first, then the bundled price database; else unpriced.
import type { Cost, TokenUsage } from '../../shared/session.ts';
import { databaseModel, priceUsage, type ModelPrice } from './price-database.ts';

export type { ModelPrice } from './price-database.ts';

export interface PriceMatch {
  price: ModelPrice;
  /** Where the price came from, and the entry that matched (a pricing.json key, or the database's model id). */
  source: 'pricing.json' | 'database';
  id: string;
}

/** What may follow a pricing.json key in a model name and still be that model: a date stamp, "latest", a preview tag. */
const SAME_MODEL_SUFFIX = /^[-@](\d{8}|\d{4}-\d{2}-\d{2}|latest|preview(-[\d-]+)?)$/;

/** A pricing.json key matches a model name when it is that name, the name plus a date/preview stamp, or ends in "*". */
function userKeyMatches(key: string, name: string): boolean {
  if (key.endsWith('*')) return name.startsWith(key.slice(0, -1));
  return name === key || (name.startsWith(key) && SAME_MODEL_SUFFIX.test(name.slice(key.length)));
}

export class PricingTable {
  private user: Array<[string, ModelPrice]> = [];
  private readonly useDatabase: boolean;

  /** `prices` are pricing.json-style entries; `useDatabase: false` gives a table of those entries alone. */
  constructor(prices: Record<string, ModelPrice> = {}, options: { useDatabase?: boolean } = {}) {
    this.useDatabase = options.useDatabase ?? true;
    this.override(prices);
  }

  /** Adds or replaces entries from the user's pricing.json; they win over the database for the models they name. */
  override(prices: Record<string, ModelPrice>): void {
    const merged = new Map(this.user);
    for (const [k, v] of Object.entries(prices)) merged.set(k.trim().toLowerCase(), v);
    // Exact keys before patterns, then the longest key, so "gpt-5-mini" wins over "gpt-5*".
    this.user = [...merged].sort((a, b) => Number(a[0].endsWith('*')) - Number(b[0].endsWith('*')) || b[0].length - a[0].length);
  }

  /** The user's entries become exactly these (an entry removed from pricing.json goes back to the database's price). */
  replaceUserPrices(prices: Record<string, ModelPrice>): void {
    this.user = [];
    this.override(prices);
  }

  /** Called before each lookup: lets the table pick up a pricing.json changed since (`followUserPricing`). */
  beforeLookup: (() => void) | null = null;

  match(model: string | null | undefined): PriceMatch | null {
    this.beforeLookup?.();
    if (!model) return null;
    const name = model.trim().toLowerCase();
    const bare = name.slice(name.lastIndexOf('/') + 1);
    for (const [key, price] of this.user) {
      if (userKeyMatches(key, name) || userKeyMatches(key, bare)) return { price, source: 'pricing.json', id: key };
    }
    if (!this.useDatabase) return null;
    const found = databaseModel(name);
    return found ? { price: found.price, source: 'database', id: `${found.provider}/${found.id}` } : null;
  }

  priceOf(model: string | null | undefined): ModelPrice | null {
    return this.match(model)?.price ?? null;
  }

  /**
   * Estimated cost of a usage record, or null when the model's price is unknown (its tokens are then unpriced), or
   * when a damaged count (1e308 tokens) prices past any number.
   */
  estimate(model: string | null | undefined, usage: TokenUsage | null): Cost | null {
    const price = this.priceOf(model);
    if (!price || !usage) return null;
    const usd = priceUsage(price, usage);
    return Number.isFinite(usd) ? { usd, estimated: true } : null;
  }
}

/** The prices every reader uses: the database, with the user's pricing.json applied on top (`applyUserPricing`). */
export const builtinPricing = new PricingTable();
