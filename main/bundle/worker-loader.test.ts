// Sessions prepared in a read worker give the same bundle as sessions parsed here: same session.json bytes, same findings, same zip.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Session } from '../../shared/session.ts';
import { writeClaudeTranscript } from '../bench/generate-large.ts';
import { findReader } from '../sources/registry.ts';
import { ReadPool } from '../workers/read-pool.ts';
import { PLANTED_ENV, PLANTED_TEXT, SECRETS } from '../test-support/planted-secrets.ts';
import { jidoSession } from '../test-support/session-files.ts';
import { exportBundle, scanBundle } from './export-bundle.ts';
import { inThreadLoader, type JsonScan } from './prepare-session.ts';
import { unzipAll } from './test-zip.ts';
import { workerLoader, type ClosableLoader } from './worker-loader.ts';

let base: string;
let paths: Map<string, string>;
let loader: ClosableLoader | null = null;
/** Children the catalogue knows of, which the file itself does not name: session.json must list them. */
const CHILDREN: Record<string, string[]> = { 'jido-code:w-1': ['jido-code:w-2'] };

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-worker-loader-'));
  const dir = join(base, '.jido_code', 'sessions');
  await mkdir(dir, { recursive: true });
  paths = new Map();
  for (const [id, text] of [
    ['w-1', PLANTED_TEXT],
    ['w-2', 'Nothing secret here; ünïcödé and "quotes" \\ stay as they are.'],
  ] as const) {
    const file = JSON.parse(jidoSession(id, `project-${id}`)) as { conversation: Array<{ content: string }> };
    (file.conversation[0] as { content: string }).content = text;
    const path = join(dir, `${id}.json`);
    await writeFile(path, JSON.stringify(file, null, 2));
    paths.set(`jido-code:${id}`, path);
  }
});
afterEach(async () => {
  await loader?.close();
  loader = null;
});
afterAll(async () => rm(base, { recursive: true, force: true }));

/** As the catalogue locates a file: its path, its size and the children it knows of. */
const located = (path: string, childKeys: string[] = []) => ({ path, size: statSync(path).size, childKeys });
const locate = (key: string) => located(paths.get(key) as string, CHILDREN[key] ?? []);

/** What the app's main-thread read gives: the parsed file with the catalogue's key and children. */
async function parsedHere(key: string): Promise<Session> {
  const path = paths.get(key) as string;
  const session = await findReader(path)!.read(path);
  return { ...session, key, childKeys: [...new Set([...session.childKeys, ...(CHILDREN[key] ?? [])])] };
}

describe('a session prepared in a read worker', () => {
  it('brings back session.json byte-for-byte as JSON.stringify of the session read here, with its size and SHA-256', async () => {
    loader = workerLoader(locate);
    const prepared = await loader.prepare('jido-code:w-1', null);
    const expected = Buffer.from(`${JSON.stringify(await parsedHere('jido-code:w-1'), null, 2)}\n`);
    expect(Buffer.isBuffer(prepared.json)).toBe(true);
    expect(prepared.json?.equals(expected)).toBe(true);
    expect(prepared.size).toBe(expected.length);
    expect(prepared.sha256).toBe(createHash('sha256').update(expected).digest('hex'));
    expect(prepared.head).toMatchObject({ key: 'jido-code:w-1', childKeys: ['jido-code:w-2'] });
    expect(prepared.head).not.toHaveProperty('messages');
  });

  it('scans session.json there: the same findings, redacted bytes and found secrets as a scan on this thread', async () => {
    loader = workerLoader(locate);
    const scan: JsonScan = { env: PLANTED_ENV, keep: [], emit: true };
    const there = await loader.prepare('jido-code:w-1', scan);
    const here = await inThreadLoader(parsedHere).prepare('jido-code:w-1', scan);
    expect(there.findings.length).toBeGreaterThan(3);
    expect(there.findings).toEqual(here.findings);
    expect(there.literals).toEqual(here.literals);
    expect(there.json?.equals(here.json as Buffer)).toBe(true);
    for (const [which, secret] of Object.entries(SECRETS)) expect(there.json?.toString(), which).not.toContain(secret);
    // A finding the user kept stays in place.
    const kept = there.findings.find((f) => f.rule === 'github')!;
    const keeping = await loader.prepare('jido-code:w-1', { ...scan, keep: [kept.id] });
    expect(keeping.findings.find((f) => f.id === kept.id)?.redacted).toBe(false);
    expect(keeping.json?.toString()).toContain(SECRETS.github);
  });

  it('a review scan brings back findings only, no bytes', async () => {
    loader = workerLoader(locate);
    const prepared = await loader.prepare('jido-code:w-1', { env: PLANTED_ENV, keep: [], emit: false });
    expect(prepared.json).toBeNull();
    expect(prepared.findings.length).toBeGreaterThan(3);
  });

  it('a file that cannot be read is an UNREADABLE error naming it', async () => {
    const bad = join(base, '.jido_code', 'sessions', 'bad.json');
    await writeFile(bad, '<html>502 Bad Gateway</html>');
    loader = workerLoader(() => located(bad));
    await expect(loader.prepare('jido-code:bad', null)).rejects.toMatchObject({ code: 'UNREADABLE', message: expect.stringContaining(bad) });
  });

  it('writes the next session.json into the store of one handed back, and the bytes are still right', async () => {
    const id = 'bbbbbbbb-0000-4000-8000-00000000000c';
    const bigPath = join(base, '.claude', 'projects', '-home-dev-reuse', `${id}.jsonl`);
    await writeClaudeTranscript(bigPath, 2 * 1024 * 1024, id);
    const where: Record<string, string> = { [`claude-code:${id}`]: bigPath };
    loader = workerLoader((key) => (where[key] ? located(where[key] as string) : locate(key)));
    const big = await loader.prepare(`claude-code:${id}`, null);
    const capacity = (big.json as Buffer).buffer.byteLength;
    expect(capacity).toBeGreaterThan(2 * 1024 * 1024);
    loader.recycle?.(big.json as Buffer);
    expect((big.json as Buffer).length).toBe(0); // moved back to the worker
    const small = await loader.prepare('jido-code:w-2', null);
    // A fresh store for a few kilobytes would be far smaller: this is the big one's.
    expect((small.json as Buffer).buffer.byteLength).toBe(capacity);
    expect((small.json as Buffer).equals(Buffer.from(`${JSON.stringify(await parsedHere('jido-code:w-2'), null, 2)}\n`))).toBe(true);
    const fresh = await loader.prepare('jido-code:w-2', null);
    expect((fresh.json as Buffer).buffer.byteLength).toBeLessThan(1024 * 1024);
  });

  it('a session too large for the capped worker heap is parsed again in a worker without a cap, not failed', async () => {
    const id = 'bbbbbbbb-0000-4000-8000-00000000000b';
    const path = join(base, '.claude', 'projects', '-home-dev-big', `${id}.jsonl`);
    await writeClaudeTranscript(path, 8 * 1024 * 1024, id);
    const limits = { cappedFileMax: 64 * 1024 * 1024, cappedHeapMb: 16, cappedYoungMb: 1 };
    // The premise: this file does not fit in the capped heap.
    const capped = new ReadPool(1, { resourceLimits: { maxOldGenerationSizeMb: limits.cappedHeapMb, maxYoungGenerationSizeMb: limits.cappedYoungMb } });
    await expect(capped.prepare(path, { key: `claude-code:${id}`, childKeys: [] }, null)).rejects.toMatchObject({ code: 'ERR_WORKER_OUT_OF_MEMORY' });
    await capped.close();
    loader = workerLoader(() => located(path), undefined, limits);
    const prepared = await loader.prepare(`claude-code:${id}`, null);
    const session = await findReader(path)!.read(path);
    expect(prepared.json?.equals(Buffer.from(`${JSON.stringify({ ...session, key: `claude-code:${id}` }, null, 2)}\n`))).toBe(true);
  });
});

describe('a bundle through the worker loader', () => {
  it('is entry for entry the bundle made from sessions parsed here, redacted or not, and its review finds the same', async () => {
    const keys = ['jido-code:w-1', 'jido-code:w-2'];
    for (const redact of [true, false]) {
      loader = workerLoader(locate);
      const viaWorker = join(base, `worker-${redact}.zip`);
      const viaHere = join(base, `here-${redact}.zip`);
      const a = await exportBundle(keys, loader, viaWorker, { redact, env: PLANTED_ENV, includeChildren: false });
      await loader.close();
      const b = await exportBundle(keys, parsedHere, viaHere, { redact, env: PLANTED_ENV, includeChildren: false });
      expect(a.findings).toEqual(b.findings);
      const [za, zb] = [await unzipAll(viaWorker), await unzipAll(viaHere)];
      expect([...za.keys()].sort()).toEqual([...zb.keys()].sort());
      for (const [name, data] of za) {
        if (name === 'manifest.json') continue;
        expect(data.equals(zb.get(name) as Buffer), name).toBe(true);
      }
      const files = (zip: Map<string, Buffer>) => (JSON.parse((zip.get('manifest.json') as Buffer).toString()) as { files: unknown[] }).files;
      expect(files(za)).toEqual(files(zb));
    }
    loader = workerLoader(locate);
    const reviewed = await scanBundle(keys, loader, { env: PLANTED_ENV, includeChildren: false });
    expect(reviewed.findings).toEqual((await scanBundle(keys, parsedHere, { env: PLANTED_ENV, includeChildren: false })).findings);
  });

  it('a cancel while the worker prepares the next session stops at once and leaves no file', async () => {
    loader = workerLoader(locate);
    const controller = new AbortController();
    const out = join(base, 'cancelled', 'share.zip');
    await mkdir(join(base, 'cancelled'));
    const run = exportBundle(['jido-code:w-1', 'jido-code:w-2'], loader, out, {
      env: PLANTED_ENV,
      includeChildren: false,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.sessionsDone === 1) controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(await readdir(join(base, 'cancelled'))).toEqual([]);
  });
});
