// Checks where every entry's bytes lie: local headers agree with the central directory, entries tile the file from its first byte to the central directory with no gap or overlap, and the end record accounts for the rest.
import yauzl from 'yauzl';
import { BundleError } from './bundle-error.ts';
import { centralDirectoryCursor, commentBytes, readBytes, readLocalHeader, type ZipEntry, type ZipReader } from './read-zip.ts';

const END_SIZE = 22;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_LOCATOR_SIZE = 20;
const ZIP64_END = 0x06064b50;
const DESCRIPTOR = 0x08074b50;
const HAS_DESCRIPTOR = 0x8;
const ZIP64_EXTRA = 0x0001;

/** An entry as the central directory gives it, with the name the bundle's checks use. */
export interface NamedEntry {
  name: string;
  entry: ZipEntry;
}

const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
const u64 = (b: Buffer, at: number) => Number(b.readBigUInt64LE(at));
const range = (from: number, to: number) => `the ${to - from} bytes at offsets ${from}–${to}`;

/** The central directory's place and the entry count and size the end record (or its ZIP64 record) declares. */
interface EndRecord {
  count: number;
  cdOffset: number;
  cdSize: number;
  /** Where the end records begin: the ZIP64 one when there is one, else the classic one. */
  start: number;
}

async function readEnd(zip: ZipReader): Promise<EndRecord> {
  const at = zip.fileSize - END_SIZE - commentBytes(zip).length;
  const end = await readBytes(zip, at, END_SIZE);
  const classic = { perDisk: end.readUInt16LE(8), count: end.readUInt16LE(10), cdSize: end.readUInt32LE(12), cdOffset: end.readUInt32LE(16) };
  const locator = at >= ZIP64_LOCATOR_SIZE ? await readBytes(zip, at - ZIP64_LOCATOR_SIZE, ZIP64_LOCATOR_SIZE) : Buffer.alloc(0);
  if (locator.length < ZIP64_LOCATOR_SIZE || locator.readUInt32LE(0) !== ZIP64_LOCATOR) {
    if (classic.perDisk !== classic.count)
      throw new BundleError('hidden-data', null, `its end record gives two entry counts (${classic.perDisk} and ${classic.count}); they must agree.`);
    return { count: classic.count, cdOffset: classic.cdOffset, cdSize: classic.cdSize, start: at };
  }
  const z64At = u64(locator, 8);
  const z64 = await readBytes(zip, z64At, 56);
  if (z64.length < 56 || z64.readUInt32LE(0) !== ZIP64_END) throw new BundleError('corrupt-archive', null, 'its ZIP64 end record cannot be read.');
  const z64End = z64At + 12 + u64(z64, 4);
  if (z64End !== at - ZIP64_LOCATOR_SIZE)
    throw new BundleError('hidden-data', null, `${range(z64End, at - ZIP64_LOCATOR_SIZE)}, between the ZIP64 end record and its locator, belong to no entry.`);
  const perDisk = u64(z64, 24);
  const count = u64(z64, 32);
  if (perDisk !== count) throw new BundleError('hidden-data', null, `its ZIP64 end record gives two entry counts (${perDisk} and ${count}); they must agree.`);
  return { count, cdOffset: u64(z64, 48), cdSize: u64(z64, 40), start: z64At };
}

/** The central directory, as read, must be exactly what the end record says: no entry beyond its count, nothing after it. */
function checkDirectoryExtent(zip: ZipReader, end: EndRecord): void {
  const read = centralDirectoryCursor(zip) - end.cdOffset;
  if (read !== end.cdSize) {
    throw new BundleError(
      'hidden-data',
      null,
      `its end record counts ${end.count} entries in a central directory of ${end.cdSize} bytes, but those entries take ${read}; the rest could hold entries other zip tools would extract.`,
    );
  }
  if (end.cdOffset + end.cdSize !== end.start) {
    throw new BundleError(
      'hidden-data',
      null,
      `${range(end.cdOffset + end.cdSize, end.start)}, between the central directory and the end record, belong to no entry.`,
    );
  }
}

function zip64Values(extra: Buffer, fields: number): number[] {
  const field = yauzl.parseExtraFields(extra).find((f) => f.id === ZIP64_EXTRA);
  return field ? Array.from({ length: Math.min(fields, Math.floor(field.data.length / 8)) }, (_, i) => u64(field.data, i * 8)) : [];
}

/**
 * Reads an entry's local header and (with bit 3) its data descriptor, refuses any field that disagrees with the
 * central directory, and returns where the entry's bytes end.
 */
async function checkLocal(zip: ZipReader, { name, entry }: NamedEntry): Promise<number> {
  const local = await readLocalHeader(zip, entry).catch((err: Error) => {
    throw new BundleError('header-mismatch', name, `its local header cannot be read (${err.message}).`);
  });
  const differ = (field: string, localValue: string | number, centralValue: string | number) =>
    new BundleError(
      'header-mismatch',
      name,
      `its local header says the ${field} is ${localValue}, the central directory says ${centralValue}; zip tools would disagree about what it holds.`,
    );
  let localName: string;
  try {
    localName = yauzl.getFileNameLowLevel(local.generalPurposeBitFlag, local.fileName, yauzl.parseExtraFields(local.extraField), true);
  } catch (err) {
    throw new BundleError('header-mismatch', name, `its local header's extra field cannot be read (${(err as Error).message}).`);
  }
  if (!local.fileName.equals(entry.fileNameRaw) || localName !== name) throw differ('name', JSON.stringify(localName), JSON.stringify(name));
  if (local.generalPurposeBitFlag !== entry.generalPurposeBitFlag)
    throw differ('flags', `0x${local.generalPurposeBitFlag.toString(16)}`, `0x${entry.generalPurposeBitFlag.toString(16)}`);
  if (local.compressionMethod !== entry.compressionMethod) throw differ('compression method', local.compressionMethod, entry.compressionMethod);
  const streamed = (entry.generalPurposeBitFlag & HAS_DESCRIPTOR) !== 0;
  const [z64Uncompressed, z64Compressed] = zip64Values(local.extraField, 2);
  const localSizes = {
    uncompressed: local.uncompressedSize === 0xffffffff && z64Uncompressed !== undefined ? z64Uncompressed : local.uncompressedSize,
    compressed: local.compressedSize === 0xffffffff && z64Compressed !== undefined ? z64Compressed : local.compressedSize,
  };
  // A streamed entry's local header may leave CRC and sizes zero; whatever it does state must be true.
  const agrees = (value: number, real: number) => value === real || (streamed && value === 0);
  if (!agrees(local.crc32, entry.crc32)) throw differ('CRC-32', hex(local.crc32), hex(entry.crc32));
  if (!agrees(localSizes.compressed, entry.compressedSize)) throw differ('compressed size', localSizes.compressed, entry.compressedSize);
  if (!agrees(localSizes.uncompressed, entry.uncompressedSize)) throw differ('uncompressed size', localSizes.uncompressed, entry.uncompressedSize);
  const dataEnd = local.fileDataStart + entry.compressedSize;
  if (!streamed) return dataEnd;
  // The data descriptor after the data: optional signature, CRC-32, then sizes (8 bytes each in a ZIP64 entry).
  const wide = entry.extraFields.some((f) => f.id === ZIP64_EXTRA) || z64Uncompressed !== undefined;
  const raw = await readBytes(zip, dataEnd, wide ? 24 : 16);
  const at = raw.length >= 4 && raw.readUInt32LE(0) === DESCRIPTOR ? 4 : 0;
  const length = at + 4 + (wide ? 16 : 8);
  if (raw.length < length) throw new BundleError('header-mismatch', name, 'its data descriptor is cut off by the end of the file.');
  const said = {
    crc: raw.readUInt32LE(at),
    compressed: wide ? u64(raw, at + 4) : raw.readUInt32LE(at + 4),
    uncompressed: wide ? u64(raw, at + 12) : raw.readUInt32LE(at + 8),
  };
  if (said.crc !== entry.crc32 || said.compressed !== entry.compressedSize || said.uncompressed !== entry.uncompressedSize) {
    throw new BundleError(
      'header-mismatch',
      name,
      `its data descriptor says CRC-32 ${hex(said.crc)}, ${said.compressed} bytes compressed, ${said.uncompressed} uncompressed; the central directory says ${hex(entry.crc32)}, ${entry.compressedSize}, ${entry.uncompressedSize}.`,
    );
  }
  return dataEnd + length;
}

/**
 * Refuses an archive whose bytes are not accounted for exactly once. Call after every central directory entry has
 * been read. Entries, in the order of their local headers, must start at byte 0 and follow each other with nothing
 * between, the last ending where the central directory begins, and that must end where the end record begins.
 * Overlap is how a few kilobytes inflate to gigabytes with honest sizes and CRCs (the "better zip bomb"); a gap or an
 * uncounted central record is where an entry hides from one reader and not another.
 */
export async function checkLayout(zip: ZipReader, entries: NamedEntry[]): Promise<void> {
  const end = await readEnd(zip);
  if (end.count !== entries.length)
    throw new BundleError('hidden-data', null, `its end record counts ${end.count} entries, the central directory gave ${entries.length}.`);
  checkDirectoryExtent(zip, end);
  const inOrder = [...entries].sort((a, b) => a.entry.relativeOffsetOfLocalHeader - b.entry.relativeOffsetOfLocalHeader);
  let cursor = 0;
  let previous: NamedEntry | null = null;
  for (const named of inOrder) {
    const start = named.entry.relativeOffsetOfLocalHeader;
    if (previous && start < cursor) {
      throw new BundleError(
        'overlapping-entries',
        named.name,
        `its bytes (from ${start}) lie inside those of "${previous.name}" (offsets ${previous.entry.relativeOffsetOfLocalHeader}–${cursor}); every byte of a bundle belongs to one entry (overlapping entries are how a small zip expands to gigabytes).`,
      );
    }
    if (start > cursor) throw new BundleError('hidden-data', null, `${range(cursor, start)}, before the entry "${named.name}", belong to no entry.`);
    cursor = await checkLocal(zip, named);
    previous = named;
  }
  if (previous && cursor > end.cdOffset) {
    throw new BundleError('overlapping-entries', previous.name, `its bytes run to ${cursor}, into the central directory at ${end.cdOffset}.`);
  }
  if (cursor < end.cdOffset)
    throw new BundleError('hidden-data', null, `${range(cursor, end.cdOffset)}, after the last entry and before the central directory, belong to no entry.`);
}
