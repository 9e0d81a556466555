// Imports a validated bundle into the vault: each session staged whole, then renamed into place; never overwrites.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, statfs, utimes } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { writeFileAtomic } from '../fs/atomic-write.ts';
import { safeName, VaultStore, type KeptMeta } from '../vault/vault-store.ts';
import { BundleError } from './bundle-error.ts';
import { sessionPrefix } from './bundle-paths.ts';
import type { ManifestFile, ManifestSession, RedactionReport } from './manifest.ts';
import { openEntry } from './read-zip.ts';
import { DEFAULT_LIMITS, validateBundle, type ImportLimits, type ValidBundle } from './validate-bundle.ts';

export interface ImportOptions {
  dataDir: string;
  /** Import a session whose key is already known under a new key instead of skipping it. */
  asCopy?: boolean;
  /** Whether a key is already known outside the vault (a live session); the vault itself is always asked. */
  known?: (key: string) => boolean;
  limits?: Partial<ImportLimits>;
}

export interface ImportedSession {
  key: string;
  title: string;
  dir: string;
  /** The key in the bundle, when the session was imported as a copy under a new key. */
  copyOf: string | null;
}

export interface ImportReport {
  imported: ImportedSession[];
  skipped: Array<{ key: string; title: string; reason: string }>;
  files: number;
  /** What the exporter redacted (from the manifest). */
  redaction: RedactionReport;
  appVersion: string;
  createdAt: string;
}

interface Staged {
  session: ManifestSession;
  key: string;
  copyOf: string | null;
  staging: string;
  target: string;
}

function inside(root: string, path: string): boolean {
  const abs = resolve(path);
  return abs.startsWith(resolve(root) + sep);
}

/** Writes one entry to disk, hashing again as it goes: the zip could have changed since it was validated. */
async function extract(bundle: ValidBundle, name: string, to: string): Promise<void> {
  const file = bundle.manifest.files.find((f) => f.path === name);
  const entry = bundle.entries.get(name);
  if (!file || !entry) throw new BundleError('entry-missing', name, 'it vanished from the bundle during import.');
  const hash = createHash('sha256');
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await mkdir(dirname(to), { recursive: true });
  await pipeline(await openEntry(bundle.zip, entry), tap, createWriteStream(to, { flags: 'wx', mode: 0o644 }));
  const sha = hash.digest('hex');
  if (sha !== file.sha256) throw new BundleError('checksum-mismatch', name, 'the bundle changed while it was being imported.');
  if (file.mtimeMs !== null) await utimes(to, new Date(), new Date(file.mtimeMs));
}

async function stage(bundle: ValidBundle, store: VaultStore, s: ManifestSession, key: string, copyOf: string | null): Promise<Staged> {
  const staging = join(store.stagingDir, `${safeName(key)}.import.${process.pid}.${randomBytes(4).toString('hex')}`);
  await mkdir(staging, { recursive: true });
  const prefix = sessionPrefix(s.folder);
  const files = bundle.manifest.files.filter((f) => f.session === s.folder);
  try {
    for (const f of files) {
      const to = join(staging, ...f.path.slice(prefix.length).split('/'));
      // Validation already refused every walking name; this is the last line of defence.
      if (!inside(staging, to)) throw new BundleError('unsafe-path', f.path, 'it would be written outside its session folder.');
      await extract(bundle, f.path, to);
    }
    await writeFileAtomic(join(staging, 'meta.json'), `${JSON.stringify(importedMeta(s, key, files), null, 2)}\n`);
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    throw err;
  }
  return { session: s, key, copyOf, staging, target: store.dirFor(key) };
}

function importedMeta(s: ManifestSession, key: string, files: ManifestFile[]): KeptMeta {
  return {
    version: 1,
    key,
    format: s.format,
    id: s.id,
    title: s.title,
    origin: 'imported',
    keptAt: new Date().toISOString(),
    sourcePaths: files.flatMap((f) => (f.kind === 'source' && f.originalPath ? [f.originalPath] : [])),
    sessionTime: s.sessionTime,
  };
}

/** Renames a staged folder into place only if nothing is there: a folder never replaces a non-empty one. */
async function placeNew(staging: string, target: string): Promise<boolean> {
  try {
    await rename(staging, target);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'EPERM' || code === 'EISDIR') return false;
    throw err;
  }
}

/** Free space where the vault lives (its nearest existing folder: a fresh vault may not exist yet). */
async function checkSpace(dir: string, bytes: number): Promise<void> {
  let at = resolve(dir);
  while (!(await stat(at).catch(() => null)) && dirname(at) !== at) at = dirname(at);
  const info = await statfs(at).catch(() => null);
  if (info && info.bavail * info.bsize < bytes) {
    throw new BundleError('disk-space', null, `it needs ${bytes} bytes and only ${info.bavail * info.bsize} are free in ${at}.`);
  }
}

/**
 * Validates the whole bundle first (nothing is written until every rule and checksum passes), then stages
 * every session it will import and renames each into the vault. A session whose key the vault (or `known`)
 * already has is skipped, or imported under `<key>~copy-N` with `asCopy`. Any failure removes every staging
 * folder, so the vault is as it was.
 */
export async function importBundle(zipPath: string, options: ImportOptions): Promise<ImportReport> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const bundle = await validateBundle(zipPath, limits);
  const store = new VaultStore(options.dataDir);
  const staged: Staged[] = [];
  const report: ImportReport = {
    imported: [],
    skipped: [],
    files: 0,
    redaction: bundle.manifest.redaction,
    appVersion: bundle.manifest.appVersion,
    createdAt: bundle.manifest.createdAt,
  };
  const inVault = async (key: string) => (await store.get(key)) !== null;
  const taken = async (key: string) => (await inVault(key)) || options.known?.(key) === true;
  try {
    await checkSpace(options.dataDir, bundle.totalBytes);
    for (const s of bundle.manifest.sessions) {
      let key = s.key;
      let copyOf: string | null = null;
      if (await taken(key)) {
        if (!options.asCopy) {
          // Say which: a session listed from its own folder was never kept, and the vault does not have it.
          const reason = (await inVault(key))
            ? 'already in the vault; import it as a copy to keep both'
            : 'already listed from its own folder, but not kept in the vault: keep it from the list, or import it as a copy to keep both';
          report.skipped.push({ key, title: s.title, reason });
          continue;
        }
        let n = 1;
        while (await taken(`${s.key}~copy-${n}`)) n++;
        key = `${s.key}~copy-${n}`;
        copyOf = s.key;
      }
      staged.push(await stage(bundle, store, s, key, copyOf));
    }
  } catch (err) {
    await Promise.all(staged.map((st) => rm(st.staging, { recursive: true, force: true })));
    throw err;
  } finally {
    bundle.zip.close();
  }
  if (staged.length) await mkdir(store.sessionsDir, { recursive: true });
  for (const st of staged) {
    if (await placeNew(st.staging, st.target)) {
      report.imported.push({ key: st.key, title: st.session.title, dir: st.target, copyOf: st.copyOf });
      report.files += bundle.manifest.files.filter((f) => f.session === st.session.folder).length;
    } else {
      await rm(st.staging, { recursive: true, force: true });
      report.skipped.push({ key: st.key, title: st.session.title, reason: 'a session with this key reached the vault while importing' });
    }
  }
  return report;
}
