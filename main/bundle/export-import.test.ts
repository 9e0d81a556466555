// Export and import as a user meets them: planted secrets never leave, kept findings do, failures leave nothing, ids never clash.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync, zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import type { Session } from '../../shared/session.ts';
import { PLANTED_ENV, PLANTED_TEXT, SECRETS } from '../test-support/planted-secrets.ts';
import { findReader } from '../sources/registry.ts';
import { copyPathFor, VaultStore } from '../vault/vault-store.ts';
import { exportBundle, scanBundle } from './export-bundle.ts';
import { importBundle } from './import-bundle.ts';
import { Manifest } from './manifest.ts';
import { testSession, unzipAll } from './test-zip.ts';

let base: string;
let files: Record<string, string>;

/** A session whose source files hold every plant: JSON Lines, a gzip document, Markdown, a clean file. */
function plantedSession(key: string): Session {
  const s = testSession(key, files.jsonl as string);
  s.messages = [
    {
      id: 'm1',
      role: 'user',
      timestamp: null,
      model: null,
      usage: null,
      cost: null,
      parts: [{ type: 'text', text: PLANTED_TEXT }],
      agentId: null,
      origin: null,
    },
  ];
  s.sourceFiles = [
    { path: files.jsonl as string, size: 0, mtimeMs: 0, role: 'primary' },
    { path: files.gz as string, size: 0, mtimeMs: 0, role: 'payload' },
    { path: files.md as string, size: 0, mtimeMs: 0, role: 'transcript' },
    { path: files.clean as string, size: 0, mtimeMs: 0, role: 'meta' },
  ];
  return s;
}

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-bundle-'));
  const src = join(base, 'src');
  await mkdir(src);
  files = { jsonl: join(src, 'log.jsonl'), gz: join(src, 'doc.json.gz'), md: join(src, 'notes.md'), clean: join(src, 'clean.json') };
  await writeFile(files.jsonl as string, `${JSON.stringify({ type: 'user', text: PLANTED_TEXT })}\n${JSON.stringify({ type: 'tool', env: PLANTED_ENV })}\n`);
  await writeFile(files.gz as string, gzipSync(JSON.stringify({ chat: [{ content: PLANTED_TEXT }] })));
  await writeFile(files.md as string, `# Notes\n\n${PLANTED_TEXT}\n`);
  await writeFile(files.clean as string, '{"nothing":"secret"}\n');
});
afterEach(async () => rm(base, { recursive: true, force: true }));

const load = async (key: string) => plantedSession(key);

describe('export with redaction (the default)', () => {
  it('no planted secret reaches any entry; the manifest marks redacted files and names rules and lines, never a secret', async () => {
    const out = join(base, 'share.zip');
    const result = await exportBundle(['jido-code:s-1'], load, out, { env: PLANTED_ENV });
    const entries = await unzipAll(out);
    for (const [name, data] of entries) {
      const text = name.endsWith('.gz') ? gunzipSync(data).toString() : data.toString();
      for (const [which, secret] of Object.entries(SECRETS)) expect(text, `${which} in ${name}`).not.toContain(secret);
    }
    const manifest = Manifest.parse(JSON.parse(entries.get('manifest.json')!.toString()));
    const byName = new Map(manifest.files.map((f) => [f.path.split('/').pop(), f]));
    expect(byName.get('log.jsonl')).toMatchObject({ redacted: true });
    expect(byName.get('doc.json.gz')).toMatchObject({ redacted: true });
    expect(byName.get('notes.md')).toMatchObject({ redacted: true });
    expect(byName.get('session.json')).toMatchObject({ redacted: true });
    expect(byName.get('clean.json')).toMatchObject({ redacted: false, redactions: [] });
    expect(byName.get('notes.md')?.redactions.map((r) => r.rule)).toContain('github');
    expect(manifest.redaction).toMatchObject({ enabled: true, findings: result.findings.length, redacted: result.findings.length, kept: [] });
    // Redacted JSON stays JSON, so the vault can still read it.
    for (const line of entries.get(byName.get('log.jsonl')!.path)!.toString().trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    expect(() => JSON.parse(gunzipSync(entries.get(byName.get('doc.json.gz')!.path)!).toString())).not.toThrow();
    expect(entries.get(byName.get('clean.json')!.path)!.toString()).toBe('{"nothing":"secret"}\n');
  });

  it('the review scan finds exactly what the export redacts, and a finding the user unticks stays in the bundle', async () => {
    const scan = await scanBundle(['jido-code:s-1'], load, { env: PLANTED_ENV });
    expect(scan.findings.length).toBeGreaterThan(20);
    const keep = scan.findings.find((f) => f.rule === 'github' && f.file.endsWith('notes.md'))!;
    const out = join(base, 'share.zip');
    const result = await exportBundle(['jido-code:s-1'], load, out, { env: PLANTED_ENV, keep: [keep.id] });
    expect(result.findings.map((f) => f.id)).toEqual(scan.findings.map((f) => f.id));
    const entries = await unzipAll(out);
    expect(entries.get(keep.file)!.toString()).toContain(SECRETS.github);
    const manifest = Manifest.parse(JSON.parse(entries.get('manifest.json')!.toString()));
    expect(manifest.redaction.kept).toEqual([{ id: keep.id, rule: 'github', file: keep.file, line: keep.line }]);
    expect(JSON.stringify(manifest)).not.toContain(SECRETS.github);
  });

  it('a gzip source with nothing to redact goes in byte-for-byte', async () => {
    await writeFile(files.gz as string, gzipSync('{"chat":[]}'));
    const out = join(base, 'share.zip');
    await exportBundle(['jido-code:s-1'], load, out, { env: PLANTED_ENV });
    const entries = await unzipAll(out);
    const gz = [...entries].find(([n]) => n.endsWith('doc.json.gz'))![1];
    expect(gz).toEqual(await readFile(files.gz as string));
  });
});

describe('a zstd source (a Codex rollout compressed after 7 idle days)', () => {
  /** A session read from `rollout.jsonl.zst` alone, holding `lines`. */
  async function zstSession(lines: unknown[]): Promise<{ path: string; load: (key: string) => Promise<Session> }> {
    const path = join(base, 'src', 'rollout.jsonl.zst');
    await writeFile(path, zstdCompressSync(lines.map((l) => `${JSON.stringify(l)}\n`).join('')));
    return {
      path,
      load: async (key) => {
        const s = testSession(key, path);
        s.sourceFiles = [{ path, size: 0, mtimeMs: 0, role: 'primary' }];
        return s;
      },
    };
  }

  it('is scanned decompressed: its secrets are found, redacted, and it goes in compressed again, still JSON Lines; a clean one byte-for-byte', async () => {
    const { load } = await zstSession([
      { type: 'user', text: PLANTED_TEXT },
      { type: 'tool', env: PLANTED_ENV },
    ]);
    const scan = await scanBundle(['codex:z-1'], load, { env: PLANTED_ENV });
    expect(scan.findings.filter((f) => f.file.endsWith('rollout.jsonl.zst')).length).toBeGreaterThan(5);
    const out = join(base, 'share.zip');
    await exportBundle(['codex:z-1'], load, out, { env: PLANTED_ENV });
    const entries = await unzipAll(out);
    const [name, data] = [...entries].find(([n]) => n.endsWith('rollout.jsonl.zst'))!;
    const text = zstdDecompressSync(data).toString();
    for (const [which, secret] of Object.entries(SECRETS)) expect(text, `${which} in ${name}`).not.toContain(secret);
    for (const line of text.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    const manifest = Manifest.parse(JSON.parse(entries.get('manifest.json')!.toString()));
    expect(manifest.files.find((f) => f.path === name)).toMatchObject({ redacted: true });

    const clean = await zstSession([{ type: 'user', text: 'nothing secret' }]);
    const cleanOut = join(base, 'clean.zip');
    await exportBundle(['codex:z-1'], clean.load, cleanOut, { env: PLANTED_ENV });
    const zst = [...(await unzipAll(cleanOut))].find(([n]) => n.endsWith('rollout.jsonl.zst'))![1];
    expect(zst).toEqual(await readFile(clean.path));
  });
});

describe('export with --no-redact', () => {
  it('copies every source byte-for-byte and says so in the manifest', async () => {
    const out = join(base, 'raw.zip');
    const result = await exportBundle(['jido-code:s-1'], load, out, { redact: false });
    expect(result.findings).toEqual([]);
    const entries = await unzipAll(out);
    for (const [name, path] of Object.entries(files)) {
      const entry = [...entries].find(([n]) => n.endsWith(path.split('/').pop() as string));
      expect(entry?.[1], name).toEqual(await readFile(path));
    }
    const manifest = Manifest.parse(JSON.parse(entries.get('manifest.json')!.toString()));
    expect(manifest.redaction).toEqual({ enabled: false, rules: [], findings: 0, redacted: 0, kept: [] });
  });
});

describe('stored entries (compression level 0)', () => {
  it('every source and session.json goes in as it was, though buffers are reused from file to file', async () => {
    // yazl writes a stored entry's very bytes: a buffer handed back for reuse while they wait to be written would corrupt it.
    const paths: string[] = [];
    for (let i = 0; i < 6; i++) {
      const path = join(base, 'src', `big-${i}.jsonl`);
      const line = JSON.stringify({ type: 'user', text: String(i).repeat(64) });
      const planted = i % 2 ? `${JSON.stringify({ type: 'tool', output: `token ${SECRETS.github}` })}\n` : '';
      await writeFile(path, `${line}\n`.repeat(Math.ceil((1100 * 1024) / line.length)) + planted);
      paths.push(path);
    }
    const bySource = async (key: string) => {
      const s = testSession(key, paths[Number(key.split('-').pop())] as string);
      s.sourceFiles = [{ path: paths[Number(key.split('-').pop())] as string, size: 0, mtimeMs: 0, role: 'primary' }];
      return s;
    };
    const keys = paths.map((_, i) => `jido-code:s-${i}`);
    for (const redact of [false, true]) {
      const out = join(base, `stored-${redact}.zip`);
      const result = await exportBundle(keys, bySource, out, { redact, env: PLANTED_ENV, compressionLevel: 0 });
      const entries = await unzipAll(out);
      const manifest = Manifest.parse(JSON.parse(entries.get('manifest.json')!.toString()));
      for (const f of manifest.files) {
        const data = entries.get(f.path) as Buffer;
        expect(data.length, f.path).toBe(f.size);
        expect(createHash('sha256').update(data).digest('hex'), f.path).toBe(f.sha256);
        if (f.kind === 'session') expect(() => JSON.parse(data.toString())).not.toThrow();
      }
      for (const [i, path] of paths.entries()) {
        const f = manifest.files.find((m) => m.originalPath === path);
        if (!redact) expect(entries.get(f!.path), path).toEqual(await readFile(path));
        else expect(f!.redacted).toBe(i % 2 === 1);
      }
      expect(result.sessions).toHaveLength(6);
    }
  });
});

describe('a failed or cancelled export', () => {
  it('leaves no partial file and an earlier bundle at the same path untouched', async () => {
    const out = join(base, 'share.zip');
    await writeFile(out, 'the previous bundle');
    const failing = async (key: string) => {
      if (key === 'jido-code:s-2') throw new Error('worker crashed');
      return plantedSession(key);
    };
    await expect(exportBundle(['jido-code:s-1', 'jido-code:s-2'], failing, out, { env: {} })).rejects.toThrow('worker crashed');
    expect(await readFile(out, 'utf8')).toBe('the previous bundle');
    expect((await readdir(base)).sort()).toEqual(['share.zip', 'src']);
  });

  it('a source file that vanished fails the export with its path', async () => {
    await rm(files.md as string);
    await expect(exportBundle(['jido-code:s-1'], load, join(base, 'x.zip'), { env: {} })).rejects.toThrow(
      `A source file of jido-code:s-1 is missing: ${files.md}`,
    );
    expect((await readdir(base)).sort()).toEqual(['src']);
  });

  it('cancelling mid-way stops it and removes the temp file', async () => {
    const big = join(base, 'src', 'big.jsonl');
    await writeFile(big, `${'{"type":"tool","text":"ordinary output line"}\n'.repeat(400_000)}`);
    const bigLoad = async (key: string) => ({ ...testSession(key, big), sourceFiles: [{ path: big, size: 0, mtimeMs: 0, role: 'primary' as const }] });
    const controller = new AbortController();
    const out = join(base, 'big.zip');
    const run = exportBundle(['jido-code:b-1'], bigLoad, out, {
      env: {},
      signal: controller.signal,
      onProgress: (p) => {
        if (p.bytesDone > 1_000_000) controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(existsSync(out)).toBe(false);
    expect((await readdir(base)).sort()).toEqual(['src']);
  });
});

describe('large sources', () => {
  it('a source too large to read whole streams through the scanner: its secrets are redacted, the rest is byte-for-byte', async () => {
    const big = join(base, 'src', 'big.jsonl');
    const filler = '{"type":"tool","text":"ordinary output line"}\n'.repeat(120_000);
    const planted = `${JSON.stringify({ type: 'user', text: PLANTED_TEXT })}\n`;
    await writeFile(big, `${filler}${planted}${filler}`);
    const bigLoad = async (key: string) => ({ ...testSession(key, big), sourceFiles: [{ path: big, size: 0, mtimeMs: 0, role: 'primary' as const }] });
    const out = join(base, 'big.zip');
    await exportBundle(['jido-code:b-2'], bigLoad, out, { env: PLANTED_ENV, wholeFileMax: 8 * 1024 * 1024 });
    const entries = await unzipAll(out);
    const name = [...entries.keys()].find((n) => n.endsWith('/big.jsonl')) as string;
    const data = entries.get(name) as Buffer;
    expect(data.length).toBeGreaterThan(8 * 1024 * 1024);
    for (const [which, secret] of Object.entries(SECRETS)) expect(data.includes(secret), which).toBe(false);
    expect(data.subarray(0, filler.length).toString()).toBe(filler);
    expect(data.subarray(data.length - filler.length).toString()).toBe(filler);
    const manifest = Manifest.parse(JSON.parse(entries.get('manifest.json')!.toString()));
    expect(manifest.files.find((f) => f.path === name)).toMatchObject({ redacted: true, size: data.length });
  });
});

describe('import', () => {
  it('never overwrites: an id the vault has is skipped and reported, or imported as a copy on request', async () => {
    const out = join(base, 'share.zip');
    await exportBundle(['jido-code:s-1'], load, out, { env: PLANTED_ENV });
    const dataDir = join(base, 'data');
    const first = await importBundle(out, { dataDir });
    expect(first.imported.map((s) => s.key)).toEqual(['jido-code:s-1']);
    const store = new VaultStore(dataDir);
    const kept = (await store.get('jido-code:s-1'))!;
    expect(kept.meta).toMatchObject({ origin: 'imported', sourcePaths: Object.values(files) });
    const copied = await readFile(copyPathFor(kept.dir, files.md as string), 'utf8');
    expect(copied).toContain('export GITHUB_TOKEN=[REDACTED:github]');

    await writeFile(copyPathFor(kept.dir, files.md as string), 'edited by the user');
    const again = await importBundle(out, { dataDir });
    expect(again.imported).toEqual([]);
    expect(again.skipped).toEqual([{ key: 'jido-code:s-1', title: 'Session s-1', reason: expect.stringContaining('already in the vault') }]);
    expect(await readFile(copyPathFor(kept.dir, files.md as string), 'utf8')).toBe('edited by the user');

    const copy = await importBundle(out, { dataDir, asCopy: true });
    expect(copy.imported).toMatchObject([{ key: 'jido-code:s-1~copy-1', copyOf: 'jido-code:s-1' }]);
    expect((await store.get('jido-code:s-1~copy-1'))?.meta.origin).toBe('imported');
  });

  it('a key a live session already holds is skipped too, saying it is listed but was never kept (not that the vault has it)', async () => {
    const out = join(base, 'share.zip');
    await exportBundle(['jido-code:s-1'], load, out, { redact: false });
    const report = await importBundle(out, { dataDir: join(base, 'data'), known: (key) => key === 'jido-code:s-1' });
    expect(report.skipped.map((s) => s.key)).toEqual(['jido-code:s-1']);
    expect(report.skipped[0]?.reason).toBe(
      'already listed from its own folder, but not kept in the vault: keep it from the list, or import it as a copy to keep both',
    );
    expect(existsSync(join(base, 'data'))).toBe(false);
  });

  it("restores each source file's modification time", async () => {
    const out = join(base, 'share.zip');
    const jido = join(base, 'src', '.jido_code', 'sessions', 's-7.json');
    await mkdir(join(base, 'src', '.jido_code', 'sessions'), { recursive: true });
    await writeFile(
      jido,
      JSON.stringify({
        version: 1,
        id: 's-7',
        name: 'n',
        project_path: '/p',
        created_at: '2026-01-01T00:00:00Z',
        updated_at: '2026-01-01T00:00:00Z',
        conversation: [],
      }),
    );
    const real = await findReader(jido)!.read(jido);
    await exportBundle([real.key], async () => real, out, { redact: false });
    const dataDir = join(base, 'data');
    await importBundle(out, { dataDir });
    const kept = (await new VaultStore(dataDir).get(real.key))!;
    const { statSync } = await import('node:fs');
    // The manifest records times in whole milliseconds, so the restored time matches to the millisecond.
    expect(Math.abs(statSync(copyPathFor(kept.dir, jido)).mtimeMs - statSync(jido).mtimeMs)).toBeLessThan(1);
  });
});
