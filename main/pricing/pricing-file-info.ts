// The user's pricing.json as the settings page shows it: where it is, whether it is used, and the prices it sets.
import type { PricingFileInfo } from '../../shared/api.ts';
import { readUserPricing } from './user-pricing.ts';

export function pricingFileInfo(path: string): PricingFileInfo {
  const file = readUserPricing(path);
  const entries = Object.entries(file.prices ?? {})
    .map(([model, p]) => ({ model, input: p.input, output: p.output, cacheRead: p.cacheRead, cacheWrite: p.cacheWrite }))
    .sort((a, b) => a.model.localeCompare(b.model));
  return { path, exists: file.exists, problem: file.problem, entries };
}
