// Prices edited in Settings: entries added, changed, renamed and removed in pricing.json, two quick edits both kept, and a broken file never replaced.
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editPricingEntry } from './pricing-edit.ts';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-price-edit-'));
  file = join(dir, 'pricing.json');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const price = (input: number, output: number, cacheRead = 0, cacheWrite = 0) => ({ input, output, cacheRead, cacheWrite });
const onDisk = async () => JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;

describe('editPricingEntry', () => {
  it('creates pricing.json with the first price, and lists it', async () => {
    const info = await editPricingEntry(file, { model: '  my-model ', price: price(3, 15, 0.3, 3.75) });
    expect(info.problem).toBeNull();
    expect(info.entries).toEqual([{ model: 'my-model', input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }]);
    expect(await onDisk()).toEqual({ 'my-model': price(3, 15, 0.3, 3.75) });
    // Written through a temp file that does not stay behind.
    expect(await readdir(dir)).toEqual(['pricing.json']);
  });

  it('changes an entry whatever the case it is typed in, renames one, and removes one, keeping the rest', async () => {
    await writeFile(file, JSON.stringify({ 'GPT-5': price(1, 8), 'acme-*': price(2, 2) }));
    await editPricingEntry(file, { model: 'gpt-5', price: price(1.5, 9) });
    expect(await onDisk()).toEqual({ 'acme-*': price(2, 2), 'gpt-5': price(1.5, 9) });
    await editPricingEntry(file, { model: 'acme-coder*', price: price(2, 4), replaces: 'acme-*' });
    expect(await onDisk()).toEqual({ 'acme-coder*': price(2, 4), 'gpt-5': price(1.5, 9) });
    const info = await editPricingEntry(file, { model: 'gpt-5', price: null });
    expect(info.entries.map((e) => e.model)).toEqual(['acme-coder*']);
  });

  it('says what is wrong with an edit that names no entry, or renames onto another', async () => {
    await writeFile(file, JSON.stringify({ a: price(1, 1), b: price(2, 2) }));
    await expect(editPricingEntry(file, { model: 'c', price: null })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'pricing.json has no entry "c" to remove.',
    });
    await expect(editPricingEntry(file, { model: 'b', price: price(3, 3), replaces: 'a' })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await onDisk()).toEqual({ a: price(1, 1), b: price(2, 2) });
  });

  it('keeps both of two edits made at once', async () => {
    await Promise.all([editPricingEntry(file, { model: 'one', price: price(1, 1) }), editPricingEntry(file, { model: 'two', price: price(2, 2) })]);
    expect(Object.keys(await onDisk())).toEqual(['one', 'two']);
  });

  it('never replaces a file that is not valid: the edit is refused with the reason, the bytes stay as they were', async () => {
    await writeFile(file, '{ "my-model": { "input": 3, ');
    await expect(editPricingEntry(file, { model: 'other', price: price(1, 1) })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/pricing\.json was left as it is, because it cannot be used: .*is not valid JSON/),
    });
    expect(await readFile(file, 'utf8')).toBe('{ "my-model": { "input": 3, ');
    await writeFile(file, JSON.stringify({ 'my-model': { input: 'cheap', output: 1 } }));
    await expect(editPricingEntry(file, { model: 'my-model', price: null })).rejects.toMatchObject({ message: expect.stringMatching(/my-model\.input/) });
  });
});
