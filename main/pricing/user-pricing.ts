// Loads the user's `<data dir>/pricing.json` over the price database, with a clear message when it is wrong.
import { readFileSync } from 'node:fs';
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

/** Applies the file if present; returns a problem to report, or null (a missing file is no problem). */
export function applyUserPricing(path: string): string | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? null : `${path} could not be read: ${(err as Error).message}`;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return `${path} is not valid JSON (${(err as Error).message}); using the price database's prices.`;
  }
  const parsed = PricingFile.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `${path}: ${issue?.path.join('.') || '(top level)'}: ${issue?.message}; expected { "<model>": { "input": 3, "output": 15, "cacheRead": 0.3, "cacheWrite": 3.75 } } in USD per million tokens ("<prefix>*" for every model starting so). Using the price database's prices.`;
  }
  builtinPricing.override(parsed.data);
  return null;
}
