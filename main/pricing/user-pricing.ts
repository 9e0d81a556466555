// Loads the user's `<data dir>/pricing.json` over the price database, with a clear message when it is wrong.
import { readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import { builtinPricing } from './pricing-table.ts';

const Price = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheRead: z.number().nonnegative().default(0),
  cacheWrite: z.number().nonnegative().default(0),
});
const PricingFile = z.record(z.string().min(1), Price);

export const PRICING_FILE_NAME = 'pricing.json';

/** The file as it is now: present or not, why it cannot be used, and its prices when it can. */
export interface UserPricing {
  exists: boolean;
  problem: string | null;
  /** USD per million tokens, by model name or `prefix*`. */
  prices: z.infer<typeof PricingFile> | null;
}

/** Reads and checks the file without applying it (the settings page shows what it holds). */
export function readUserPricing(path: string): UserPricing {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    return { exists: !missing, problem: missing ? null : `${path} could not be read: ${(err as Error).message}`, prices: null };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { exists: true, problem: `${path} is not valid JSON (${(err as Error).message}); using the price database's prices.`, prices: null };
  }
  const parsed = PricingFile.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const problem = `${path}: ${issue?.path.join('.') || '(top level)'}: ${issue?.message}; expected { "<model>": { "input": 3, "output": 15, "cacheRead": 0.3, "cacheWrite": 3.75 } } in USD per million tokens ("<prefix>*" for every model starting so). Using the price database's prices.`;
    return { exists: true, problem, prices: null };
  }
  return { exists: true, problem: null, prices: parsed.data };
}

/** Applies the file as it is now: its entries replace those it set before; returns its problem, or null. */
function applyNow(path: string): string | null {
  const file = readUserPricing(path);
  builtinPricing.replaceUserPrices(file.prices ?? {});
  return file.problem;
}

/** How often a thread that applied pricing.json looks at the file's size and time again (one stat), at most. */
const FOLLOW_INTERVAL_MS = 200;

/**
 * Applies the file if present, and again whenever it changes (checked at most every FOLLOW_INTERVAL_MS, on the next
 * price lookup), so prices edited in Settings reach every thread that prices calls (the main thread, each read
 * worker) without a restart. Returns a problem to report, or null (a missing file is no problem).
 */
export function applyUserPricing(path: string): string | null {
  const stampOf = () => {
    try {
      const s = statSync(path);
      return `${s.size}:${s.mtimeMs}`;
    } catch {
      return 'none';
    }
  };
  let stamp = stampOf();
  let checked = Date.now();
  builtinPricing.beforeLookup = () => {
    const now = Date.now();
    if (now - checked < FOLLOW_INTERVAL_MS) return;
    checked = now;
    const current = stampOf();
    if (current === stamp) return;
    stamp = current;
    applyNow(path);
  };
  return applyNow(path);
}
