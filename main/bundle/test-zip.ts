// Builds zip files byte by byte for the hostile-archive tests: yazl (rightly) refuses to write bad names, links or lies.
import { createHash } from 'node:crypto';
import { crc32, deflateRawSync } from 'node:zlib';
import type { Session } from '../../shared/session.ts';
import { safeName } from '../vault/vault-store.ts';
import { sessionJsonPath, sourceEntryPath } from './bundle-paths.ts';
import { BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION, type Manifest } from './manifest.ts';
import { eachEntry, entryName, openEntry, openZip, type ZipEntry } from './read-zip.ts';

export interface RawEntry {
  name: string;
  data: Buffer;
  /** 0 stored (default), 8 deflate. */
  method?: number;
  flags?: number;
  /** Unix mode in the high 16 bits when set (e.g. 0o120777 for a symlink). */
  unixMode?: number;
  /** Lies the central directory tells about the uncompressed size. */
  declaredSize?: number;
  /** Extra field bytes (both headers). */
  extra?: Buffer;
  /** The bytes written after the local header, when not `data` stored or deflated (a hand-made deflate stream). */
  body?: Buffer;
  /** The compressed size both headers declare, when it is not the body's length (an entry reaching into the next). */
  compressedSize?: number;
  /** A CRC-32 both headers declare instead of the data's. */
  crc?: number;
  /** What the local header says where it differs from the central directory. */
  local?: { name?: string; method?: number; flags?: number; crc?: number; compressedSize?: number; uncompressedSize?: number };
  /** As yazl streams: bit 3 set, zeros in the local header, the real values in a data descriptor after the data (these override them). */
  descriptor?: { crc?: number; compressedSize?: number; uncompressedSize?: number };
  /** No local record of its own: the central record points at the local header of the entry with this index. */
  sharesLocalOf?: number;
}

/** Where a hostile archive puts bytes no entry owns, and what its end record claims. */
export interface RawLayout {
  /** Bytes before the first local header (a self-extractor's stub); offsets count them. */
  prepend?: Buffer;
  /** Bytes written right after the local record of the entry with this index. */
  after?: { index: number; bytes: Buffer };
  /** Indexes of entries whose local record is written but whose central record is left out. */
  unlisted?: number[];
  /** Bytes between the central directory and the end record. */
  beforeEnd?: Buffer;
  /** The entry count the end record declares (default: the central records written). */
  endCount?: number;
}

interface HeaderFields {
  name: Buffer;
  extra: Buffer;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  uncompressedSize: number;
}

function localHeader(f: HeaderFields): Buffer {
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(f.flags, 6);
  local.writeUInt16LE(f.method, 8);
  local.writeUInt32LE(0, 10);
  local.writeUInt32LE(f.crc >>> 0, 14);
  local.writeUInt32LE(f.compressedSize, 18);
  local.writeUInt32LE(f.uncompressedSize, 22);
  local.writeUInt16LE(f.name.length, 26);
  local.writeUInt16LE(f.extra.length, 28);
  return Buffer.concat([local, f.name, f.extra]);
}

function centralHeader(f: HeaderFields, unixMode: number, offset: number): Buffer {
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE((3 << 8) | 20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(f.flags, 8);
  central.writeUInt16LE(f.method, 10);
  central.writeUInt32LE(0, 12);
  central.writeUInt32LE(f.crc >>> 0, 16);
  central.writeUInt32LE(f.compressedSize, 20);
  central.writeUInt32LE(f.uncompressedSize, 24);
  central.writeUInt16LE(f.name.length, 28);
  central.writeUInt16LE(f.extra.length, 30);
  central.writeUInt32LE((unixMode << 16) >>> 0, 38);
  central.writeUInt32LE(offset, 42);
  return Buffer.concat([central, f.name, f.extra]);
}

function dataDescriptor(crc: number, compressedSize: number, uncompressedSize: number): Buffer {
  const d = Buffer.alloc(16);
  d.writeUInt32LE(0x08074b50, 0);
  d.writeUInt32LE(crc >>> 0, 4);
  d.writeUInt32LE(compressedSize, 8);
  d.writeUInt32LE(uncompressedSize, 12);
  return d;
}

function headersOf(e: RawEntry): { central: HeaderFields; local: HeaderFields; body: Buffer } {
  const method = e.method ?? 0;
  const body = e.body ?? (method === 8 ? deflateRawSync(e.data) : e.data);
  const central: HeaderFields = {
    name: Buffer.from(e.name, 'utf8'),
    extra: e.extra ?? Buffer.alloc(0),
    flags: (e.flags ?? 0) | 0x800 | (e.descriptor ? 0x8 : 0),
    method,
    crc: e.crc ?? crc32(e.data),
    compressedSize: e.compressedSize ?? body.length,
    uncompressedSize: e.declaredSize ?? e.data.length,
  };
  const l = e.local ?? {};
  const known = e.descriptor ? { crc: 0, compressedSize: 0, uncompressedSize: 0 } : central;
  const local: HeaderFields = {
    ...central,
    name: l.name === undefined ? central.name : Buffer.from(l.name, 'utf8'),
    flags: l.flags ?? central.flags,
    method: l.method ?? central.method,
    crc: l.crc ?? known.crc,
    compressedSize: l.compressedSize ?? known.compressedSize,
    uncompressedSize: l.uncompressedSize ?? known.uncompressedSize,
  };
  return { central, local, body };
}

/** The local header (with name and extra field) that `buildZip` writes for an entry. */
export function localHeaderOf(e: RawEntry): Buffer {
  return localHeader(headersOf(e).local);
}

/** Builds the zip byte by byte; `layout` adds bytes no entry owns or an end record that lies. */
export function buildZip(entries: RawEntry[], layout: RawLayout = {}): Buffer {
  const records: Buffer[] = [];
  const centrals: Buffer[] = [];
  const offsets: number[] = [];
  let offset = 0;
  const write = (b: Buffer) => {
    records.push(b);
    offset += b.length;
  };
  if (layout.prepend) write(layout.prepend);
  entries.forEach((e, i) => {
    const { central, local, body } = headersOf(e);
    if (e.sharesLocalOf !== undefined) {
      offsets.push(offsets[e.sharesLocalOf] ?? 0);
    } else {
      offsets.push(offset);
      write(localHeader(local));
      write(body);
      if (e.descriptor) {
        const d = { ...central, ...e.descriptor };
        write(dataDescriptor(d.crc, d.compressedSize, d.uncompressedSize));
      }
    }
    if (layout.after?.index === i) write(layout.after.bytes);
    if (!layout.unlisted?.includes(i)) centrals.push(centralHeader(central, e.unixMode ?? 0o100644, offsets[i] ?? 0));
  });
  const cdOffset = offset;
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(layout.endCount ?? centrals.length, 8);
  end.writeUInt16LE(layout.endCount ?? centrals.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(cdOffset, 16);
  return Buffer.concat([...records, cd, layout.beforeEnd ?? Buffer.alloc(0), end]);
}

/** An Info-ZIP Unicode Path extra field (0x7075): readers prefer its name over the header's. */
export function unicodePathExtra(headerName: string, realName: string): Buffer {
  const data = Buffer.concat([Buffer.from([1]), Buffer.alloc(4), Buffer.from(realName, 'utf8')]);
  data.writeUInt32LE(crc32(Buffer.from(headerName, 'utf8')), 1);
  const head = Buffer.alloc(4);
  head.writeUInt16LE(0x7075, 0);
  head.writeUInt16LE(data.length, 2);
  return Buffer.concat([head, data]);
}

export function testSession(key: string, sourcePath: string): Session {
  const [format, id] = key.split(':') as [Session['format'], string];
  return {
    key,
    id,
    format,
    formatVersion: null,
    title: `Session ${id}`,
    project: { path: '/home/dev/p', name: 'p', branch: null, headCommit: null },
    createdAt: '2026-01-02T09:00:00.000Z',
    updatedAt: '2026-01-02T10:00:00.000Z',
    closedAt: null,
    status: 'closed',
    outcome: null,
    model: null,
    config: [],
    systemPrompt: null,
    toolVersion: null,
    messages: [],
    operations: [],
    todos: [],
    summary: null,
    artifacts: [],
    usage: null,
    cost: null,
    parentKey: null,
    childKeys: [],
    sourceFiles: [{ path: sourcePath, size: 0, mtimeMs: 0, role: 'primary' }],
    warnings: [],
    extra: {},
  };
}

/** The entries of a correct one-session bundle; tests change one thing and expect that one rule to refuse it. */
export function validEntries(
  key = 'jido-code:s-1',
  sourcePath = '/home/dev/.jido_code/sessions/s-1.json',
  content = '{"id":"s-1"}\n',
): { entries: RawEntry[]; manifest: Manifest } {
  const folder = safeName(key);
  const session = Buffer.from(`${JSON.stringify(testSession(key, sourcePath), null, 2)}\n`);
  const source = Buffer.from(content);
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  const common = { session: folder, sourceFormat: 'jido-code' as const, redacted: false, redactions: [] };
  const manifest: Manifest = {
    format: BUNDLE_FORMAT,
    formatVersion: BUNDLE_FORMAT_VERSION,
    appVersion: '0.1.0',
    createdAt: '2026-01-03T00:00:00.000Z',
    sessions: [{ folder, key, id: key.split(':')[1] ?? key, format: 'jido-code', title: 'Session', sessionTime: null }],
    files: [
      { ...common, path: sessionJsonPath(folder), size: session.length, sha256: sha(session), kind: 'session', role: null, originalPath: null, mtimeMs: null },
      {
        ...common,
        path: sourceEntryPath(folder, sourcePath),
        size: source.length,
        sha256: sha(source),
        kind: 'source',
        role: 'primary',
        originalPath: sourcePath,
        mtimeMs: 1_700_000_000_000,
      },
    ],
    redaction: { enabled: true, rules: [], findings: 0, redacted: 0, kept: [] },
  };
  const entries: RawEntry[] = [
    { name: sessionJsonPath(folder), data: session },
    { name: sourceEntryPath(folder, sourcePath), data: source },
  ];
  return { entries, manifest };
}

export function withManifest(entries: RawEntry[], manifest: unknown): RawEntry[] {
  return [...entries, { name: 'manifest.json', data: Buffer.from(JSON.stringify(manifest)) }];
}

/** Every entry of a zip, by name, read whole (for checking what an export wrote). */
export async function unzipAll(path: string): Promise<Map<string, Buffer>> {
  const zip = await openZip(path);
  const entries: Array<[string, ZipEntry]> = [];
  await eachEntry(zip, (e) => void entries.push([entryName(e), e]));
  const out = new Map<string, Buffer>();
  for (const [name, e] of entries) {
    const chunks: Buffer[] = [];
    for await (const c of await openEntry(zip, e)) chunks.push(c as Buffer);
    out.set(name, Buffer.concat(chunks));
  }
  zip.close();
  return out;
}
