// The sharing contract through dispatch, as the UI calls it: review findings, untick one, export, cancel, import an upload.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppEvent } from '../../shared/api.ts';
import type { BundleExport, BundleImport, BundleScan } from '../../shared/bundle-api.ts';
import { PLANTED_ENV, SECRETS } from '../test-support/planted-secrets.ts';
import { createServices, type Services } from '../app/services.ts';
import { jidoSession } from '../test-support/session-files.ts';
import { writeClaudeTranscript } from '../bench/generate-large.ts';

let base: string;
let services: Services;
let events: AppEvent[];

async function call<T>(s: Services, method: string, input: unknown): Promise<T> {
  const result = await s.dispatch(method, input);
  if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code });
  return result.value as T;
}

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-bsvc-'));
  const dir = join(base, 'root', '.jido_code', 'sessions');
  await mkdir(dir, { recursive: true });
  const doc = JSON.parse(jidoSession('j-1', 'etl')) as { conversation: Array<{ content: string }> };
  doc.conversation[0]!.content = `token ${SECRETS.github} and ${SECRETS.anthropic}`;
  await writeFile(join(dir, 'j-1.json'), JSON.stringify(doc));
  await writeFile(join(dir, 'j-2.json'), jidoSession('j-2', 'clean'));
  services = createServices({
    dataDir: join(base, 'data'),
    shell: 'web',
    extraRoots: [join(base, 'root')],
    discoverDefaults: false,
    watch: false,
    env: PLANTED_ENV,
  });
  events = [];
  services.subscribe((e) => events.push(e));
  await services.start();
  await services.whenScanned();
});
afterEach(async () => {
  await services.close();
  await rm(base, { recursive: true, force: true });
});

describe('sharing through the contract', () => {
  it('scanBundle lists findings; exportBundle keeps the unticked one and redacts the rest', async () => {
    const scan = await call<BundleScan>(services, 'scanBundle', { keys: ['jido-code:j-1'] });
    expect(scan.sessions).toBe(1);
    expect(scan.findings.map((f) => f.rule).sort()).toEqual(['anthropic', 'anthropic', 'github', 'github']);
    const untick = scan.findings.filter((f) => f.rule === 'github').map((f) => f.id);
    const done = await call<BundleExport>(services, 'exportBundle', { exportId: 'exp-00000001', keys: ['jido-code:j-1'], keep: untick });
    expect(done).toMatchObject({ sessions: 1, files: 2, redacted: 2, kept: 2 });
    expect(done.path.startsWith(join(base, 'data', 'exports', 'exp-00000001'))).toBe(true);
    expect(events.some((e) => e.name === 'bundleProgress' && e.payload.exportId === 'exp-00000001')).toBe(true);
    const again = await call<BundleExport>(services, 'exportBundle', { exportId: 'exp-00000002', keys: ['jido-code:j-1'], format: 'md' });
    const md = await readFile(again.path, 'utf8');
    expect(md).not.toContain(SECRETS.github);
    expect(again.fileName).toMatch(/^2026-01-02_j-1\.md$/);
  });

  it('cancelling a running export answers CANCELLED and leaves no file and no temp file behind', async () => {
    const big = join(base, 'root', '.claude', 'projects', '-home-dev-big');
    await writeClaudeTranscript(join(big, 'cccccccc-0000-4000-8000-000000000001.jsonl'), 12 * 1024 * 1024, 'cccccccc-0000-4000-8000-000000000001');
    const fresh = createServices({
      dataDir: join(base, 'data2'),
      shell: 'web',
      extraRoots: [join(base, 'root')],
      discoverDefaults: false,
      watch: false,
      env: {},
    });
    await fresh.start();
    await fresh.whenScanned();
    try {
      fresh.subscribe((e) => {
        if (e.name === 'bundleProgress' && e.payload.bytesDone > 0) void fresh.dispatch('cancelExport', { exportId: 'exp-cancel01' });
      });
      await expect(
        call(fresh, 'exportBundle', { exportId: 'exp-cancel01', keys: ['claude-code:cccccccc-0000-4000-8000-000000000001'], redact: false }),
      ).rejects.toMatchObject({
        code: 'CANCELLED',
        message: 'The export was cancelled; nothing was written.',
      });
      // Not the bundle, not its hidden .partial temp file, not the export's folder.
      expect(await readdir(join(base, 'data2', 'exports'), { recursive: true })).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it('a review scan with a scanId reports its progress under that id, and cancelExport stops it with CANCELLED', async () => {
    const big = join(base, 'root', '.claude', 'projects', '-home-dev-scan');
    await writeClaudeTranscript(join(big, 'dddddddd-0000-4000-8000-000000000001.jsonl'), 12 * 1024 * 1024, 'dddddddd-0000-4000-8000-000000000001');
    const fresh = createServices({
      dataDir: join(base, 'data3'),
      shell: 'web',
      extraRoots: [join(base, 'root')],
      discoverDefaults: false,
      watch: false,
      env: {},
    });
    await fresh.start();
    await fresh.whenScanned();
    const key = 'claude-code:dddddddd-0000-4000-8000-000000000001';
    try {
      const seen: Array<{ phase: string; bytesDone: number; bytesTotal: number }> = [];
      const off = fresh.subscribe((e) => {
        if (e.name === 'bundleProgress' && e.payload.exportId === 'scan-00000001') seen.push(e.payload);
      });
      const scan = await call<BundleScan>(fresh, 'scanBundle', { keys: [key], scanId: 'scan-00000001' });
      off();
      expect(scan.bytes).toBeGreaterThan(12 * 1024 * 1024);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((p) => p.phase === 'scan' && p.bytesDone <= p.bytesTotal)).toBe(true);

      fresh.subscribe((e) => {
        if (e.name === 'bundleProgress' && e.payload.exportId === 'scan-00000002') void fresh.dispatch('cancelExport', { exportId: 'scan-00000002' });
      });
      await expect(call(fresh, 'scanBundle', { keys: [key], scanId: 'scan-00000002' })).rejects.toMatchObject({
        code: 'CANCELLED',
        message: 'The scan was cancelled.',
      });
    } finally {
      await fresh.close();
    }
  });

  it('an export id cannot be reused, and cancelling an unknown export says so', async () => {
    await call(services, 'exportBundle', { exportId: 'exp-00000003', keys: ['jido-code:j-2'] });
    await expect(call(services, 'exportBundle', { exportId: 'exp-00000003', keys: ['jido-code:j-2'] })).rejects.toThrow('already used');
    expect(await call(services, 'cancelExport', { exportId: 'exp-nothing1' })).toEqual({ cancelled: false });
  });

  it('a bundle goes out with readExport and in with beginUpload/uploadChunk, piece by piece, then importBundle lists its sessions', async () => {
    const done = await call<BundleExport>(services, 'exportBundle', { exportId: 'exp-00000004', keys: ['jido-code:j-1', 'jido-code:j-2'], redact: false });
    const pieces: Buffer[] = [];
    for (let offset = 0, finished = false; !finished;) {
      const piece = await call<{ data: string; size: number; done: boolean }>(services, 'readExport', { exportId: 'exp-00000004', offset, length: 4096 });
      pieces.push(Buffer.from(piece.data, 'base64'));
      offset += Buffer.from(piece.data, 'base64').length;
      finished = piece.done;
    }
    const bytes = Buffer.concat(pieces);
    expect(bytes).toEqual(await readFile(done.path));

    const other = createServices({ dataDir: join(base, 'other'), shell: 'web', discoverDefaults: false, watch: false, env: {} });
    await other.start();
    try {
      const { uploadId } = await call<{ uploadId: string }>(other, 'beginUpload', { size: bytes.length });
      await expect(call(other, 'importBundle', { uploadId })).rejects.toThrow(`The upload is incomplete: 0 of ${bytes.length} bytes.`);
      for (let offset = 0; offset < bytes.length; offset += 5000) {
        await call(other, 'uploadChunk', { uploadId, offset, data: bytes.subarray(offset, offset + 5000).toString('base64') });
      }
      await expect(call(other, 'uploadChunk', { uploadId, offset: 0, data: 'AAAA' })).rejects.toThrow('Expected the piece at offset');
      const report = await call<BundleImport>(other, 'importBundle', { uploadId });
      expect(report.imported.map((s) => s.key).sort()).toEqual(['jido-code:j-1', 'jido-code:j-2']);
      expect(report).toMatchObject({ redactionEnabled: false, skipped: [] });
      const listed = await other.client.listSessions({});
      expect(listed.sessions.map((s) => s.key).sort()).toEqual(['jido-code:j-1', 'jido-code:j-2']);
      expect(await readdir(join(base, 'other', 'uploads'))).toEqual([]);

      const junk = Buffer.from('not a zip');
      const bad = await call<{ uploadId: string }>(other, 'beginUpload', { size: junk.length });
      await call(other, 'uploadChunk', { uploadId: bad.uploadId, offset: 0, data: junk.toString('base64') });
      await expect(call(other, 'importBundle', { uploadId: bad.uploadId })).rejects.toThrow(/refused \(not-a-zip\)/);
      await expect(call(other, 'importBundle', { uploadId: 'c'.repeat(32) })).rejects.toThrow('No uploaded bundle with this id');
    } finally {
      await other.close();
    }
  });
});
