// The hostile-bundle tests' harness: a vault that already holds something, bundles built byte by byte, and the checks that one is refused (naming its rule and entry, the vault untouched) or imported.
import { afterEach, beforeEach, expect } from 'vitest';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { safeName } from '../vault/vault-store.ts';
import type { BundleRule } from './bundle-error.ts';
import { sourceEntryPath } from './bundle-paths.ts';
import { importBundle } from './import-bundle.ts';
import type { Manifest } from './manifest.ts';
import type { ImportLimits } from './validate-bundle.ts';
import { buildZip, validEntries, withManifest, type RawEntry, type RawLayout } from './test-zip.ts';

/** Every file below `dir` with its bytes (base64), every folder as 'dir': what "the vault untouched" compares. */
export async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const path = join(e.parentPath, e.name);
    out[path.slice(dir.length)] = e.isFile() ? (await readFile(path)).toString('base64') : 'dir';
  }
  return out;
}

async function expectRefusedIn(
  base: string,
  dataDir: string,
  zip: Buffer,
  rule: BundleRule,
  entry: string | null,
  limits: Partial<ImportLimits> = {},
): Promise<string> {
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

export const good = () => validEntries();
export const zipOf = (extra: RawEntry[] = [], change: (m: ReturnType<typeof good>['manifest']) => unknown = (m) => m) => {
  const { entries, manifest } = good();
  return buildZip(withManifest([...entries, ...extra], change(manifest)));
};

export const folder = safeName('jido-code:s-1');
export type Listed = Omit<RawEntry, 'name'> & { originalPath: string };

/** A correct bundle that also holds these sources, each listed in the manifest (size, SHA-256) under its original path. */
export function withListed(sources: Listed[]): { entries: RawEntry[]; manifest: Manifest } {
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

export const zipListing = (sources: Listed[], layout?: RawLayout) => {
  const { entries, manifest } = withListed(sources);
  return buildZip(withManifest(entries, manifest), layout);
};

async function expectImportedIn(base: string, dataDir: string, zip: Buffer): Promise<void> {
  const file = join(base, 'good.zip');
  await writeFile(file, zip);
  const report = await importBundle(file, { dataDir });
  expect(report.imported.map((s) => s.key)).toEqual(['jido-code:s-1']);
}

/** Per test, a fresh folder with a data dir whose vault already holds a session (so "unchanged" means more than "still empty"). */
export function useHostileVault(): {
  readonly base: string;
  expectRefused: (zip: Buffer, rule: BundleRule, entry: string | null, limits?: Partial<ImportLimits>) => Promise<string>;
  expectImported: (zip: Buffer) => Promise<void>;
} {
  let base = '';
  let dataDir = '';
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'sv-hostile-'));
    dataDir = join(base, 'data', 'inner');
    await mkdir(join(dataDir, 'vault', 'sessions', 'existing'), { recursive: true });
    await writeFile(join(dataDir, 'vault', 'sessions', 'existing', 'meta.json'), '{"kept":true}');
  });
  afterEach(async () => rm(base, { recursive: true, force: true }));
  return {
    get base() {
      return base;
    },
    expectRefused: (zip, rule, entry, limits = {}) => expectRefusedIn(base, dataDir, zip, rule, entry, limits),
    expectImported: (zip) => expectImportedIn(base, dataDir, zip),
  };
}
