// Hostile bundles, each built here byte by byte: every one is refused, naming the entry and the rule, and the vault is untouched.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BundleRule } from './bundle-error.ts';
import { importBundle } from './import-bundle.ts';
import type { ImportLimits } from './validate-bundle.ts';
import { buildZip, unicodePathExtra, validEntries, withManifest, type RawEntry } from './test-zip.ts';

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

describe('a correct bundle built the same way', () => {
  it('imports, so every refusal below is down to the one thing each test breaks', async () => {
    const file = join(base, 'good.zip');
    await writeFile(file, zipOf());
    const report = await importBundle(file, { dataDir });
    expect(report.imported.map((s) => s.key)).toEqual(['jido-code:s-1']);
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
      zipOf([{ name: first, data: Buffer.from('1') }, { name: second, data: Buffer.from('2') }]),
      'duplicate-name',
      second,
    );
    expect(message).toContain(first);
  });

  it('a file that is also the folder of another file', async () => {
    await expectRefused(zipOf([{ name: 'sessions/a', data: Buffer.from('1') }, { name: 'sessions/A/b.txt', data: Buffer.from('2') }]), 'duplicate-name', 'sessions/A/b.txt');
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
    const message = await expectRefused(zipOf([], (m) => ({ ...m, formatVersion: 2 })), 'manifest-version', 'manifest.json');
    expect(message).toContain('newer Session Vault');
  });

  it('a manifest that is not JSON, or not a bundle manifest', async () => {
    const { entries } = good();
    await expectRefused(buildZip([...entries, { name: 'manifest.json', data: Buffer.from('{nope') }]), 'manifest-invalid', 'manifest.json');
    await expectRefused(zipOf([], (m) => ({ ...m, format: 'something-else' })), 'manifest-invalid', 'manifest.json');
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
