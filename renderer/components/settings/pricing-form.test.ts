// The price form: what a user types becomes the change sent, or a sentence beside the box that is wrong.
import { describe, expect, it } from 'vitest';
import { checkPriceForm, EMPTY_PRICE_FORM, formFor } from './pricing-form.ts';

describe('checkPriceForm', () => {
  it('turns a filled form into a change; empty cache prices are free', () => {
    expect(checkPriceForm({ model: ' my-model ', input: '3', output: '$15', cacheRead: '0.3', cacheWrite: '' }, null)).toEqual({
      change: { model: 'my-model', price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 0 } },
    });
  });

  it('names each box that is wrong: no model, a negative, a word, a missing price', () => {
    const checked = checkPriceForm({ model: '  ', input: '-1', output: 'cheap', cacheRead: '1e9', cacheWrite: '0x10' }, null);
    expect(checked).toEqual({
      errors: {
        model: 'Name the model (or a prefix ending in *).',
        input: 'A price cannot be below zero.',
        output: '"cheap" is not a number.',
        cacheRead: 'At most 1,000,000 per million tokens.',
        cacheWrite: '"0x10" is not a number.',
      },
    });
    expect(checkPriceForm(EMPTY_PRICE_FORM, null)).toMatchObject({ errors: { input: 'Enter a price (0 for free).', output: 'Enter a price (0 for free).' } });
  });

  it('renames the entry being edited only when its name changed', () => {
    const form = formFor({ model: 'gpt-5', input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 });
    expect(checkPriceForm({ ...form, output: '12' }, 'gpt-5')).toEqual({
      change: { model: 'gpt-5', price: { input: 1.25, output: 12, cacheRead: 0.125, cacheWrite: 0 } },
    });
    expect(checkPriceForm({ ...form, model: 'gpt-5*' }, 'gpt-5')).toMatchObject({ change: { model: 'gpt-5*', replaces: 'gpt-5' } });
  });
});
