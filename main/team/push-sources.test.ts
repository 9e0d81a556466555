// A pushed session's source files: the same redacted parts, hashes and findings whether a file is read whole (small ones) or streamed (gzip), whatever its size against the part size.
import { createHash } from 'node:crypto';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planSession } from '../bundle/bundle-entries.ts';
import { scanContext, type PreparedSession } from '../bundle/prepare-session.ts';
import { PLANTED_ENV, PLANTED_TEXT, SECRETS } from '../test-support/planted-secrets.ts';
import { sourceWrites } from './push-sources.ts';

const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** A session prepared with `files` as its source files (only what planning them reads). */
async function preparedWith(files: string[]): Promise<PreparedSession> {
  const sourceFiles = await Promise.all(
    files.map(async (path, i) => {
      const info = await stat(path);
      return { path, size: info.size, mtimeMs: info.mtimeMs, role: i === 0 ? ('primary' as const) : ('transcript' as const) };
    }),
  );
  const head = {
    key: 'jido-code:s1',
    id: 's1',
    format: 'jido-code' as const,
    title: 't',
    createdAt: null,
    updatedAt: null,
    closedAt: null,
    childKeys: [],
    sourceFiles,
    artifacts: [],
  };
  return { head, json: null, size: 0, sha256: '', findings: [], literals: [], vault: null };
}

describe('sourceWrites', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sv-push-sources-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const PART = 512;
  /** JSON Lines with the planted secrets, `lines` long. */
  const jsonl = (lines: number) =>
    Array.from({ length: lines }, (_, i) => `${JSON.stringify({ i, output: i % 7 === 3 ? PLANTED_TEXT : `ordinary line ${i} of build output` })}\n`).join('');

  it('stores the same parts, hashes and findings for a file read whole and for its gzip copy streamed, from empty to many parts', async () => {
    for (const text of ['', '{"a":1}\n', 'x'.repeat(PART), 'y'.repeat(PART + 1), jsonl(4), jsonl(40)]) {
      const plain = join(dir, `plain-${text.length}.jsonl`);
      const gz = join(dir, `packed-${text.length}.jsonl`);
      await writeFile(plain, text);
      await writeFile(gz, gzipSync(Buffer.from(text)));
      const [a, b] = [await planSession(await preparedWith([plain])), await planSession(await preparedWith([gz]))];
      expect(a.sources[0]?.compressed).toBe(null);
      expect(b.sources[0]?.compressed).toBe('gzip');
      const whole = await sourceWrites(a, scanContext(PLANTED_ENV, []), new Map(), PART);
      const streamed = await sourceWrites(b, scanContext(PLANTED_ENV, []), new Map(), PART);
      const strip = (w: typeof whole) => ({
        ...w,
        files: w.files.map(({ path: _path, mtimeMs: _mtime, ...f }) => f),
        findings: w.findings.map((f) => ({ ...f, file: '', id: '' })),
      });
      expect(strip(whole)).toEqual(strip(streamed));

      const [file] = whole.files;
      const stored = Buffer.concat(file!.changed.map((p) => p.bytes));
      // The file's hash is its redacted bytes', one part or many; each part's is its own.
      expect(file!.sha256).toBe(sha(stored));
      expect(file!.size).toBe(stored.length);
      expect(file!.parts).toBe(Math.max(1, Math.ceil(stored.length / PART)));
      for (const p of file!.changed) expect(p.sha256).toBe(sha(p.bytes));
      for (const secret of Object.values(SECRETS)) expect(stored.toString('utf8')).not.toContain(secret);
      if (text.includes(SECRETS.github)) expect(whole.findings.map((f) => f.rule)).toContain('github');
    }
  });

  it('sends only the parts whose hash the store does not have at their place', async () => {
    const path = join(dir, 'grown.jsonl');
    await writeFile(path, jsonl(40));
    const plan = await planSession(await preparedWith([path]));
    const first = await sourceWrites(plan, scanContext({}, []), new Map(), PART);
    const parts = first.files[0]!.changed.map((p) => p.sha256);
    expect(parts.length).toBeGreaterThan(3);
    const again = await sourceWrites(plan, scanContext({}, []), new Map([[path, parts]]), PART);
    expect(again.files[0]!.changed).toEqual([]);
    expect(again.files[0]!.sha256).toBe(first.files[0]!.sha256);
    expect(again.bytes).toBe(0);
  });
});
