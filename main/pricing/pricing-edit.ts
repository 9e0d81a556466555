// Adds, changes or removes one model's price in <data dir>/pricing.json: one edit at a time, written crash-safe; a file that is not valid is never replaced.
import type { PricingEntryChange, PricingFileInfo } from '../../shared/api.ts';
import { AppError } from '../../shared/result.ts';
import { writeFileAtomic } from '../fs/atomic-write.ts';
import { pricingFileInfo } from './pricing-file-info.ts';
import { readUserPricing, type UserPricing } from './user-pricing.ts';

type Prices = NonNullable<UserPricing['prices']>;

/** The last edit asked for: each waits for the one before, so two quick edits both land. */
let turn: Promise<unknown> = Promise.resolve();

export function editPricingEntry(path: string, change: PricingEntryChange): Promise<PricingFileInfo> {
  const run = turn.then(() => applyEdit(path, change));
  turn = run.catch(() => undefined);
  return run;
}

/** The entry's own spelling in the file for a model name: keys match models whatever their case. */
function keyFor(prices: Prices, model: string): string | undefined {
  const wanted = model.trim().toLowerCase();
  return Object.keys(prices).find((k) => k.trim().toLowerCase() === wanted);
}

/** The file's entries with the change made, or an error naming what is wrong with it. */
export function withChange(prices: Prices, change: PricingEntryChange): Prices {
  const next: Prices = { ...prices };
  const model = change.model.trim();
  if (change.replaces !== undefined) {
    const old = keyFor(next, change.replaces);
    if (old === undefined) throw new AppError('NOT_FOUND', `pricing.json has no entry "${change.replaces}" to change (it was removed meanwhile?).`, 'replaces');
    delete next[old];
  }
  const existing = keyFor(next, model);
  if (change.price === null) {
    if (existing === undefined) throw new AppError('NOT_FOUND', `pricing.json has no entry "${model}" to remove.`, 'model');
    delete next[existing];
    return next;
  }
  if (existing !== undefined && change.replaces !== undefined) {
    throw new AppError('CONFLICT', `pricing.json already has an entry "${existing}"; change that one instead.`, 'model');
  }
  if (existing !== undefined) delete next[existing];
  next[model] = { ...change.price };
  return next;
}

async function applyEdit(path: string, change: PricingEntryChange): Promise<PricingFileInfo> {
  const file = readUserPricing(path);
  if (file.problem) {
    // Replacing it would throw away what the user wrote by hand: they fix or remove it first.
    throw new AppError('CONFLICT', `pricing.json was left as it is, because it cannot be used: ${file.problem} Fix or remove the file, then edit prices here.`);
  }
  const next = withChange(file.prices ?? {}, change);
  const sorted = Object.fromEntries(Object.entries(next).sort(([a], [b]) => a.localeCompare(b)));
  await writeFileAtomic(path, `${JSON.stringify(sorted, null, 2)}\n`, {
    // What was synced must read back as the same prices before it replaces the file.
    verify: (written) => {
      const back = JSON.parse(written.toString('utf8')) as unknown;
      if (JSON.stringify(back) !== JSON.stringify(sorted)) throw new AppError('IO_ERROR', `${path} did not read back as written; it was left as it was.`);
    },
  });
  return pricingFileInfo(path);
}
