// yauzl as promises: open a zip without trusting it (names undecoded, sizes enforced), list its entries, stream one.
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
