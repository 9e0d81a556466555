// yauzl as promises: open a zip without trusting it (names undecoded, sizes enforced), list its entries, stream one, read raw bytes.
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';

export type ZipReader = yauzl.ZipFile;
export type ZipEntry = yauzl.Entry;

/** Names are decoded here, not by yauzl, so every unsafe spelling reaches the bundle's own checks and messages. */
export function openZip(path: string): Promise<ZipReader> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true }, (err, zip) => (err ? reject(err) : resolve(zip)));
  });
}

/** The entry's name as written, UTF-8 or CP437 per its flag (or its Info-ZIP Unicode path); backslashes kept. */
export function entryName(entry: ZipEntry): string {
  return yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
}

/** Reads the central directory; `each` sees every entry in order and may throw to stop. */
export function eachEntry(zip: ZipReader, each: (entry: ZipEntry) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const onEntry = (entry: ZipEntry) => {
      try {
        each(entry);
        zip.readEntry();
      } catch (err) {
        done();
        reject(err);
      }
    };
    const onEnd = () => {
      done();
      resolve();
    };
    const onError = (err: Error) => {
      done();
      reject(err);
    };
    const done = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

/** The local header yauzl reads for an entry (its own copy of the name, flags, method, CRC and sizes). */
export function readLocalHeader(zip: ZipReader, entry: ZipEntry): Promise<yauzl.LocalFileHeader> {
  return zip.readLocalFileHeaderPromise(entry);
}

/** Up to `length` raw bytes at `position`, through yauzl's own reader of the file (fewer at its end). */
export function readBytes(zip: ZipReader, position: number, length: number): Promise<Buffer> {
  const reader = (zip as unknown as { reader: yauzl.RandomAccessReader }).reader;
  const buffer = Buffer.alloc(Math.max(0, Math.min(length, zip.fileSize - position)));
  if (buffer.length === 0) return Promise.resolve(buffer);
  return new Promise((resolve, reject) => {
    (reader.read as (b: Buffer, o: number, l: number, p: number, cb: (err: Error | null, bytesRead?: number) => void) => void)(
      buffer,
      0,
      buffer.length,
      position,
      (err, bytesRead) => (err ? reject(err) : resolve(buffer.subarray(0, bytesRead ?? buffer.length))),
    );
  });
}

/** Where yauzl's reading of the central directory has got to: after the last entry, where the directory ends. */
export function centralDirectoryCursor(zip: ZipReader): number {
  return (zip as unknown as { readEntryCursor: number }).readEntryCursor;
}

/** The archive comment's raw bytes (names are not decoded, so yauzl keeps it as a Buffer). */
export function commentBytes(zip: ZipReader): Buffer {
  const comment = zip.comment as unknown;
  return Buffer.isBuffer(comment) ? comment : Buffer.from(String(comment ?? ''), 'utf8');
}

/** The entry's bytes as stored (still deflated), for a caller that inflates them itself. */
export function openRawEntry(zip: ZipReader, entry: ZipEntry): Promise<Readable> {
  return zip.openReadStreamPromise(entry, { decodeFileData: false });
}

export function openEntry(zip: ZipReader, entry: ZipEntry): Promise<Readable> {
  return new Promise((resolve, reject) => zip.openReadStream(entry, (err, stream) => (err ? reject(err) : resolve(stream))));
}

/** Unix file type bits in the external attributes (the high 16 bits when made on Unix). */
export function isSymlink(entry: ZipEntry): boolean {
  return ((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000;
}

export function isDirectory(name: string): boolean {
  return name.endsWith('/');
}
