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
}

export function buildZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const method = e.method ?? 0;
    const body = method === 8 ? deflateRawSync(e.data) : e.data;
    const crc = crc32(e.data);
    const size = e.declaredSize ?? e.data.length;
    const extra = e.extra ?? Buffer.alloc(0);
    const flags = (e.flags ?? 0) | 0x800;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(0, 10);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(extra.length, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(extra.length, 30);
    central.writeUInt32LE(((e.unixMode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    const localRecord = Buffer.concat([local, name, extra, body]);
    locals.push(localRecord);
    centrals.push(Buffer.concat([central, name, extra]));
    offset += localRecord.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
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
    key, id, format, formatVersion: null, title: `Session ${id}`,
    project: { path: '/home/dev/p', name: 'p', branch: null, headCommit: null },
    createdAt: '2026-01-02T09:00:00.000Z', updatedAt: '2026-01-02T10:00:00.000Z', closedAt: null, status: 'closed',
    outcome: null, model: null, config: [], systemPrompt: null, toolVersion: null,
    messages: [], operations: [], todos: [], summary: null, artifacts: [], usage: null, cost: null,
    parentKey: null, childKeys: [], sourceFiles: [{ path: sourcePath, size: 0, mtimeMs: 0, role: 'primary' }], warnings: [], extra: {},
  };
}

/** The entries of a correct one-session bundle; tests change one thing and expect that one rule to refuse it. */
export function validEntries(key = 'jido-code:s-1', sourcePath = '/home/dev/.jido_code/sessions/s-1.json', content = '{"id":"s-1"}\n'): { entries: RawEntry[]; manifest: Manifest } {
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
      { ...common, path: sourceEntryPath(folder, sourcePath), size: source.length, sha256: sha(source), kind: 'source', role: 'primary', originalPath: sourcePath, mtimeMs: 1_700_000_000_000 },
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
