// Checks a bundle completely before anything is written: structure, names, limits, manifest, sizes and every checksum.
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32, createInflateRaw } from 'node:zlib';
import { Session } from '../../shared/session.ts';
import { BundleError } from './bundle-error.ts';
import { MANIFEST_PATH, entryNameRefusal, foldedName, isSafeFolder, sessionJsonPath, sessionPrefix, sourceEntryPath } from './bundle-paths.ts';
import { BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION, Manifest, type ManifestFile } from './manifest.ts';
import { eachEntry, entryName, isDirectory, isSymlink, openRawEntry, openZip, type ZipEntry, type ZipReader } from './read-zip.ts';
import { checkLayout, type NamedEntry } from './zip-layout.ts';

export interface ImportLimits {
  maxEntries: number;
  /** Sum of every entry's uncompressed size. */
  maxTotalBytes: number;
  /** Uncompressed / compressed, checked for entries above `ratioFloorBytes` (tiny entries compress absurdly well), and for the whole bundle. */
  maxRatio: number;
  ratioFloorBytes: number;
  maxManifestBytes: number;
  /** session.json is parsed in memory to check it against the canonical model. */
  maxSessionJsonBytes: number;
}

export const DEFAULT_LIMITS: ImportLimits = {
  maxEntries: 100_000,
  maxTotalBytes: 32 * 1024 ** 3,
  maxRatio: 1000,
  ratioFloorBytes: 1024 * 1024,
  maxManifestBytes: 64 * 1024 * 1024,
  maxSessionJsonBytes: 512 * 1024 * 1024,
};

export interface ValidBundle {
  zip: ZipReader;
  manifest: Manifest;
  /** The zip entry behind each manifest file, by path. */
  entries: Map<string, ZipEntry>;
  totalBytes: number;
}

const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');

/**
 * Streams an entry through `sink`, inflating it here so that every one of its compressed bytes is known to be used
 * (zlib stops quietly at a deflate stream's last block, and bytes after it would be hidden), stopping as soon as it
 * yields more than its declared size, and checking its CRC-32 (yauzl does not). yauzl's and zlib's complaints are
 * mapped to the rule they break.
 */
async function readEntry(zip: ZipReader, name: string, entry: ZipEntry, sink: (chunk: Buffer) => void): Promise<void> {
  let crc = 0;
  let size = 0;
  const inflate = entry.compressionMethod === 8 ? createInflateRaw() : null;
  const take = new Writable({
    write: (chunk: Buffer, _enc, done) => {
      size += chunk.length;
      if (size > entry.uncompressedSize) return done(new Error(`too many bytes: more than the ${entry.uncompressedSize} declared`));
      crc = crc32(chunk, crc);
      sink(chunk);
      done();
    },
  });
  try {
    const raw = await openRawEntry(zip, entry);
    await (inflate ? pipeline(raw, inflate, take) : pipeline(raw, take));
  } catch (err) {
    const message = (err as Error).message;
    if (/too many bytes|too few bytes|expected .* bytes/i.test(message))
      throw new BundleError('size-mismatch', name, `its data does not match the size its header declares (${message}).`);
    throw new BundleError('corrupt-archive', name, `its data cannot be read (${message}).`);
  }
  if (size !== entry.uncompressedSize)
    throw new BundleError('size-mismatch', name, `its data does not match the size its header declares (${size} bytes, not ${entry.uncompressedSize}).`);
  if (inflate && inflate.bytesWritten !== entry.compressedSize) {
    throw new BundleError(
      'hidden-data',
      name,
      `its deflate data ends after ${inflate.bytesWritten} of its ${entry.compressedSize} bytes; the rest belongs to nothing that is extracted.`,
    );
  }
  if (crc !== entry.crc32)
    throw new BundleError('crc-mismatch', name, `its data has CRC-32 ${hex(crc)}, its header says ${hex(entry.crc32)}; the bundle is damaged or was changed.`);
}

async function readManifest(zip: ZipReader, entry: ZipEntry, limits: ImportLimits): Promise<Manifest> {
  if (entry.uncompressedSize > limits.maxManifestBytes) {
    throw new BundleError('manifest-invalid', MANIFEST_PATH, `it is ${entry.uncompressedSize} bytes; a manifest may be at most ${limits.maxManifestBytes}.`);
  }
  const chunks: Buffer[] = [];
  await readEntry(zip, MANIFEST_PATH, entry, (c) => chunks.push(c));
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (err) {
    throw new BundleError('manifest-invalid', MANIFEST_PATH, `it is not valid JSON (${(err as Error).message}).`);
  }
  const head = raw as { format?: unknown; formatVersion?: unknown } | null;
  if (head?.format !== BUNDLE_FORMAT)
    throw new BundleError('manifest-invalid', MANIFEST_PATH, `it does not say "format": "${BUNDLE_FORMAT}"; this is not a Session Vault bundle.`);
  if (typeof head.formatVersion === 'number' && head.formatVersion > BUNDLE_FORMAT_VERSION) {
    throw new BundleError(
      'manifest-version',
      MANIFEST_PATH,
      `the bundle is format version ${head.formatVersion}, made by a newer Session Vault; this one reads up to version ${BUNDLE_FORMAT_VERSION}. Update Session Vault to import it.`,
    );
  }
  const parsed = Manifest.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BundleError('manifest-invalid', MANIFEST_PATH, `${issue?.path.join('.') || 'the manifest'}: ${issue?.message ?? 'invalid'}.`);
  }
  return parsed.data;
}

/** Every structural rule that the central directory alone can answer, entry by entry; then where each entry's bytes lie. */
async function checkDirectory(zip: ZipReader, limits: ImportLimits): Promise<{ files: Map<string, ZipEntry>; totalBytes: number }> {
  if (zip.entryCount > limits.maxEntries) {
    throw new BundleError('too-many-entries', null, `it has ${zip.entryCount} entries; at most ${limits.maxEntries} are accepted.`);
  }
  const files = new Map<string, ZipEntry>();
  const folded = new Map<string, { name: string; dir: boolean }>();
  const all: NamedEntry[] = [];
  let totalBytes = 0;
  let totalCompressed = 0;
  try {
    await eachEntry(zip, (entry) => {
      const name = entryName(entry);
      const refusal = entryNameRefusal(name);
      if (refusal) throw new BundleError(refusal.rule, name, `the name has ${refusal.problem}.`);
      if (isSymlink(entry)) throw new BundleError('symlink', name, 'it is a symbolic link; bundles hold regular files only.');
      if (entry.generalPurposeBitFlag & 0x1) throw new BundleError('encrypted', name, 'it is encrypted; bundles are never encrypted.');
      if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
        throw new BundleError(
          'unsupported-compression',
          name,
          `it uses compression method ${entry.compressionMethod}; only stored (0) and deflate (8) are read.`,
        );
      }
      const dir = isDirectory(name);
      // A folder holds no data; an empty deflate stream is 2 bytes.
      if (dir && (entry.uncompressedSize > 0 || entry.compressedSize > 2))
        throw new BundleError('hidden-data', name, `it is a folder entry but carries ${Math.max(entry.compressedSize, entry.uncompressedSize)} bytes of data.`);
      if (!dir && entry.uncompressedSize > limits.ratioFloorBytes && entry.uncompressedSize / Math.max(entry.compressedSize, 1) > limits.maxRatio) {
        throw new BundleError(
          'compression-ratio',
          name,
          `it expands ${Math.round(entry.uncompressedSize / Math.max(entry.compressedSize, 1))}:1 (${entry.uncompressedSize} bytes from ${entry.compressedSize}); at most ${limits.maxRatio}:1 is accepted (zip bomb).`,
        );
      }
      totalBytes += entry.uncompressedSize;
      totalCompressed += entry.compressedSize;
      if (totalBytes > limits.maxTotalBytes)
        throw new BundleError('total-size', name, `the entries add up to more than ${limits.maxTotalBytes} bytes uncompressed.`);
      const key = foldedName(dir ? name.slice(0, -1) : name);
      const twin = folded.get(key);
      if (twin && !(twin.dir && dir))
        throw new BundleError('duplicate-name', name, `it has the same name as "${twin.name}" once letter case and Unicode form are ignored.`);
      folded.set(key, { name, dir });
      if (!dir) files.set(name, entry);
      all.push({ name, entry });
    });
    await checkLayout(zip, all);
  } catch (err) {
    if (err instanceof BundleError) throw err;
    const message = (err as Error).message;
    // yauzl stops at these before it hands over the entry, so no name can be given.
    if (/encryption/i.test(message)) throw new BundleError('encrypted', null, `an entry is encrypted (${message}); bundles are never encrypted.`);
    if (/size mismatch/i.test(message)) throw new BundleError('size-mismatch', null, `an entry's sizes disagree (${message}).`);
    throw new BundleError('corrupt-archive', null, `its central directory cannot be read (${message}).`);
  }
  // No byte is shared (checkLayout), so the compressed sizes add up to the file: many entries each under the ratio floor still count.
  if (totalBytes > limits.ratioFloorBytes && totalBytes / Math.max(totalCompressed, 1) > limits.maxRatio) {
    throw new BundleError(
      'compression-ratio',
      null,
      `the whole bundle expands ${Math.round(totalBytes / Math.max(totalCompressed, 1))}:1 (${totalBytes} bytes from ${totalCompressed}); at most ${limits.maxRatio}:1 is accepted (zip bomb).`,
    );
  }
  // A file whose name is also a folder of another file cannot both exist on disk.
  for (const name of files.keys()) {
    const parts = name.split('/');
    for (let i = 1; i < parts.length; i++) {
      const twin = folded.get(foldedName(parts.slice(0, i).join('/')));
      if (twin && !twin.dir) throw new BundleError('duplicate-name', name, `its folder "${parts.slice(0, i).join('/')}" is also a file ("${twin.name}").`);
    }
  }
  return { files, totalBytes };
}

/** The manifest must describe exactly the entries present, each inside its own session's folder. */
function crossCheck(manifest: Manifest, files: Map<string, ZipEntry>): void {
  const folders = new Set<string>();
  const keys = new Set<string>();
  for (const s of manifest.sessions) {
    if (!isSafeFolder(s.folder)) throw new BundleError('unsafe-path', sessionPrefix(s.folder), 'the session folder name has characters a bundle never uses.');
    if (folders.has(foldedName(s.folder))) throw new BundleError('duplicate-name', sessionPrefix(s.folder), 'two sessions share this folder.');
    if (keys.has(s.key)) throw new BundleError('manifest-invalid', MANIFEST_PATH, `the session "${s.key}" is listed twice.`);
    folders.add(foldedName(s.folder));
    keys.add(s.key);
  }
  const listed = new Set<string>();
  const sessionJson = new Set<string>();
  for (const f of manifest.files) {
    if (listed.has(f.path)) throw new BundleError('manifest-invalid', f.path, 'the manifest lists this file twice.');
    listed.add(f.path);
    const refusal = entryNameRefusal(f.path);
    if (refusal) throw new BundleError(refusal.rule, f.path, `the name has ${refusal.problem}.`);
    const session = manifest.sessions.find((s) => s.folder === f.session);
    if (!session) throw new BundleError('manifest-invalid', f.path, `it belongs to session folder "${f.session}", which the manifest does not list.`);
    checkPlace(f, session.folder);
    if (f.kind === 'session') sessionJson.add(f.session);
    const entry = files.get(f.path);
    if (!entry) throw new BundleError('entry-missing', f.path, 'the manifest lists it but the zip does not hold it.');
    if (entry.uncompressedSize !== f.size)
      throw new BundleError('size-mismatch', f.path, `the manifest says ${f.size} bytes, the zip holds ${entry.uncompressedSize}.`);
  }
  for (const s of manifest.sessions)
    if (!sessionJson.has(s.folder)) throw new BundleError('entry-missing', sessionJsonPath(s.folder), 'every session needs its session.json.');
  for (const name of files.keys()) {
    if (name !== MANIFEST_PATH && !listed.has(name))
      throw new BundleError('unlisted-entry', name, 'the zip holds it but the manifest does not list it; nothing unlisted is imported.');
  }
}

/** session.json sits at the folder's top; a source file sits at `source/<its original path>`, as in the vault. */
function checkPlace(f: ManifestFile, folder: string): void {
  if (f.kind === 'session') {
    if (f.path !== sessionJsonPath(folder)) throw new BundleError('unsafe-path', f.path, `a session.json must be at ${sessionJsonPath(folder)}.`);
    return;
  }
  if (!f.originalPath || sourceEntryPath(folder, f.originalPath) !== f.path) {
    throw new BundleError(
      'unsafe-path',
      f.path,
      `a source file must be at ${sessionPrefix(folder)}source/<its original path>, which its originalPath does not give.`,
    );
  }
}

/** Every byte of every listed entry is read and hashed; session.json is also checked against the canonical model. */
async function checkContents(zip: ZipReader, manifest: Manifest, files: Map<string, ZipEntry>, limits: ImportLimits): Promise<void> {
  for (const f of manifest.files) {
    const entry = files.get(f.path) as ZipEntry;
    const hash = createHash('sha256');
    let size = 0;
    const keep = f.kind === 'session' ? ([] as Buffer[]) : null;
    if (keep && f.size > limits.maxSessionJsonBytes)
      throw new BundleError('session-json-invalid', f.path, `it is ${f.size} bytes; at most ${limits.maxSessionJsonBytes} are read.`);
    await readEntry(zip, f.path, entry, (chunk) => {
      hash.update(chunk);
      size += chunk.length;
      keep?.push(chunk);
    });
    if (size !== f.size) throw new BundleError('size-mismatch', f.path, `the manifest says ${f.size} bytes, the data has ${size}.`);
    const sha = hash.digest('hex');
    if (sha !== f.sha256)
      throw new BundleError('checksum-mismatch', f.path, `its SHA-256 is ${sha}, the manifest says ${f.sha256}; the bundle was changed or damaged.`);
    if (keep) {
      const session = manifest.sessions.find((s) => s.folder === f.session);
      let parsed: ReturnType<typeof Session.safeParse>;
      try {
        parsed = Session.safeParse(JSON.parse(Buffer.concat(keep).toString('utf8')));
      } catch (err) {
        throw new BundleError('session-json-invalid', f.path, `it is not valid JSON (${(err as Error).message}).`);
      }
      if (!parsed.success)
        throw new BundleError(
          'session-json-invalid',
          f.path,
          `${parsed.error.issues[0]?.path.join('.') ?? ''}: ${parsed.error.issues[0]?.message ?? 'invalid'}.`,
        );
      if (parsed.data.key !== session?.key)
        throw new BundleError('session-json-invalid', f.path, `it holds session "${parsed.data.key}", the manifest says "${session?.key}".`);
    }
  }
}

/**
 * Opens and checks a bundle without writing anything: every structural rule, the manifest, and every
 * entry's size and SHA-256. The caller closes `zip`. Throws a BundleError naming the entry and the rule.
 */
export async function validateBundle(path: string, limits: ImportLimits = DEFAULT_LIMITS): Promise<ValidBundle> {
  let zip: ZipReader;
  try {
    zip = await openZip(path);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT' || e.code === 'EACCES' || e.code === 'EISDIR') throw err;
    throw new BundleError('not-a-zip', null, `${path} is not a zip archive, or it is truncated (${e.message}).`);
  }
  try {
    const { files, totalBytes } = await checkDirectory(zip, limits);
    const manifestEntry = files.get(MANIFEST_PATH);
    if (!manifestEntry) throw new BundleError('manifest-missing', MANIFEST_PATH, 'a bundle must hold manifest.json at its top level.');
    const manifest = await readManifest(zip, manifestEntry, limits);
    crossCheck(manifest, files);
    await checkContents(zip, manifest, files, limits);
    const entries = new Map(manifest.files.map((f) => [f.path, files.get(f.path) as ZipEntry]));
    return { zip, manifest, entries, totalBytes };
  } catch (err) {
    zip.close();
    throw err;
  }
}
