// The Settings page's price form: what was typed checked before it is sent (a model name, prices in USD per million tokens, none below zero).
import type { PricingEntryChange, PricingFileInfo } from '../../../shared/api.ts';

export type PriceField = 'input' | 'output' | 'cacheRead' | 'cacheWrite';
export const PRICE_FIELDS: readonly PriceField[] = ['input', 'output', 'cacheRead', 'cacheWrite'];
export const PRICE_FIELD_LABELS: Record<PriceField, string> = { input: 'Input', output: 'Output', cacheRead: 'Cache read', cacheWrite: 'Cache write' };

/** The form as typed: text in every box. */
export type PriceForm = { model: string } & Record<PriceField, string>;
export type PriceFormErrors = Partial<Record<'model' | PriceField, string>>;

/** The contract's ceiling (shared/api.ts): a million dollars per million tokens. */
const MAX_USD = 1_000_000;

export const EMPTY_PRICE_FORM: PriceForm = { model: '', input: '', output: '', cacheRead: '', cacheWrite: '' };

/** The form filled from an entry of the file, to change it. */
export function formFor(entry: PricingFileInfo['entries'][number]): PriceForm {
  return {
    model: entry.model,
    input: String(entry.input),
    output: String(entry.output),
    cacheRead: String(entry.cacheRead),
    cacheWrite: String(entry.cacheWrite),
  };
}

function parseUsd(text: string, required: boolean): { value: number } | { error: string } {
  const t = text.trim().replace(/^\$/, '');
  if (!t) return required ? { error: 'Enter a price (0 for free).' } : { value: 0 };
  // Number('') and Number(' ') are 0, '0x10' is 16: only plain decimals count.
  if (!/^(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return { error: t.startsWith('-') ? 'A price cannot be below zero.' : `"${text.trim()}" is not a number.` };
  const value = Number(t);
  if (!Number.isFinite(value) || value > MAX_USD) return { error: `At most ${MAX_USD.toLocaleString('en')} per million tokens.` };
  return { value };
}

/**
 * The change to send for the form, or what is wrong with each box. Input and output must be given; the cache prices
 * may be left empty (0). `replaces` is the entry being edited, when its name was changed.
 */
export function checkPriceForm(form: PriceForm, editing: string | null): { change: PricingEntryChange } | { errors: PriceFormErrors } {
  const errors: PriceFormErrors = {};
  const model = form.model.trim();
  if (!model) errors.model = 'Name the model (or a prefix ending in *).';
  else if (model.length > 200) errors.model = 'At most 200 characters.';
  const price = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  for (const field of PRICE_FIELDS) {
    const parsed = parseUsd(form[field], field === 'input' || field === 'output');
    if ('error' in parsed) errors[field] = parsed.error;
    else price[field] = parsed.value;
  }
  if (Object.keys(errors).length) return { errors };
  const renamed = editing !== null && editing.trim().toLowerCase() !== model.toLowerCase();
  return { change: { model, price, ...(renamed ? { replaces: editing } : {}) } };
}
