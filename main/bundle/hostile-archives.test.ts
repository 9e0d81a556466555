// Hostile bundles, each built here byte by byte: every one is refused, naming the entry and the rule, and the vault is untouched.
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import yazl from 'yazl';
import { sourceEntryPath } from './bundle-paths.ts';
import { buildZip, unicodePathExtra, withManifest, type RawEntry } from './test-zip.ts';
import { folder, good, useHostileVault, zipListing, zipOf } from './hostile-harness.ts';

const vault = useHostileVault();
const { expectRefused, expectImported } = vault;

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
    expect(existsSync(join(vault.base, 'evil.txt'))).toBe(false);
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
