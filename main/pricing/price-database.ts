// Model prices from the bundled @pydantic/genai-prices database (matched by its own rules), resolved once per model name.
import { createRequire } from 'node:module';
import type { calcPrice as CalcPrice, ModelPrice as DbPrice, TieredPrices } from '@pydantic/genai-prices';
import type { TokenUsage } from '../../shared/session.ts';

/** A per-million-token rate, or the database's tiers (the rate for every token is set by the call's total input). */
export type Rate = number | { base: number; tiers: Array<{ start: number; price: number }> };

export interface ModelPrice {
  /** USD per million uncached input tokens. */
  input: Rate;
  /** Output, reasoning included (providers bill reasoning as output). */
  output: Rate;
  cacheRead: Rate;
  cacheWrite: Rate;
}

export interface DbModel {
  /** The database's provider and model ids, e.g. "anthropic" / "claude-sonnet-4-5". */
  provider: string;
  id: string;
  price: ModelPrice;
}

const resolved = new Map<string, DbModel | null>();

function rate(value: number | TieredPrices | undefined): Rate {
  if (value === undefined) return 0;
  return typeof value === 'number' ? value : { base: value.base, tiers: value.tiers.map((t) => ({ start: t.start, price: t.price })) };
}

function toModelPrice(p: DbPrice): ModelPrice {
  const input = rate(p.input_mtok);
  // A model with no separate cache prices bills cached tokens as plain input (the database's own rule).
  return {
    input,
    output: rate(p.output_mtok),
    cacheRead: p.cache_read_mtok === undefined ? input : rate(p.cache_read_mtok),
    cacheWrite: p.cache_write_mtok === undefined ? input : rate(p.cache_write_mtok),
  };
}

/**
 * The database is loaded the first time a model is priced, not when this module is: compiling its 830 KB costs
 * each thread about 19 MB of RSS, and the main thread, which only checks pricing.json, never prices a call.
 */
let calcPrice: typeof CalcPrice | null = null;
function database(): typeof CalcPrice {
  calcPrice ??= (createRequire(import.meta.url)('@pydantic/genai-prices') as { calcPrice: typeof CalcPrice }).calcPrice;
  return calcPrice;
}

function lookup(model: string, providerId?: string): DbModel | null {
  const found = database()({ input_tokens: 1, output_tokens: 1 }, model, providerId ? { providerId } : {});
  return found ? { provider: found.provider.id, id: found.model.id, price: toModelPrice(found.model_price) } : null;
}

/**
 * The database's entry for a model name, by the database's matching rules (exact ids and its documented patterns),
 * or null when it has none. "provider/model" names are looked up under that provider first, then by the bare name.
 */
export function databaseModel(name: string): DbModel | null {
  const key = name.trim().toLowerCase();
  const cached = resolved.get(key);
  if (cached !== undefined) return cached;
  let found: DbModel | null = null;
  if (key !== '') {
    const slash = key.lastIndexOf('/');
    const bare = slash >= 0 ? key.slice(slash + 1) : key;
    const provider = slash >= 0 ? key.slice(0, key.indexOf('/')) : undefined;
    found = (provider ? lookup(bare, provider) : null) ?? lookup(bare);
  }
  resolved.set(key, found);
  return found;
}

function rateFor(r: Rate, totalInput: number): number {
  if (typeof r === 'number') return r;
  let price = r.base;
  for (const tier of r.tiers) if (totalInput > tier.start) price = tier.price;
  return price;
}

/** USD for one call's usage at these prices; tiers go by the call's whole prompt (uncached + cache read + cache write). */
export function priceUsage(price: ModelPrice, usage: TokenUsage): number {
  const totalInput = usage.input + usage.cacheRead + usage.cacheWrite;
  return (
    (usage.input * rateFor(price.input, totalInput) +
      (usage.output + usage.reasoning) * rateFor(price.output, totalInput) +
      usage.cacheRead * rateFor(price.cacheRead, totalInput) +
      usage.cacheWrite * rateFor(price.cacheWrite, totalInput)) /
    1_000_000
  );
}
