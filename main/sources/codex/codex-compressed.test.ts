// Codex rollouts compressed by Codex (0.137+) after 7 idle days, `rollout-*.jsonl.zst`: claimed in the layout, read exactly as the plain file, refused with a reason when damaged.
import { mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zstdCompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/session.ts';
import { testTempDir } from '../../test-support/temp-dir.ts';
import { failure, valid } from '../../test-support/reader-checks.ts';
import { resolveReader } from '../recognize.ts';
import { claimsCodex, readCodexFile } from './codex.ts';
import { decodesEveryFrame } from '../compressed.ts';
import { HOUR, item, meta, total } from './codex-test-records.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const home = join(here, './fixtures/.codex');
const PARENT = '0194f3a2-7c1d-7e00-9a5b-3c4d5e6f7a01';
const CHILD = '0194f3a5-1e2f-7a00-8b1c-2d3e4f5a6b02';
const FORK = '0193f0aa-2b3c-7d00-8e4f-5a6b7c8d9e03';
const fixtures = {
  parent: `sessions/2026/02/14/rollout-2026-02-14T10-30-00-${PARENT}.jsonl`,
  child: `sessions/2026/02/14/rollout-2026-02-14T10-33-05-${CHILD}.jsonl`,
  fork: `archived_sessions/rollout-2025-11-03T08-00-00-${FORK}.jsonl`,
};
const SYNTHETIC = 'sessions/2026/01/02/rollout-2026-01-02T03-04-05-0190aaaa-0000-7000-8000-000000000001.jsonl';

/** Writes `bytes` at `rel` below `dir`, with the modification time `mtimeMs` (Codex keeps the rollout's own). */
async function put(dir: string, rel: string, bytes: Buffer | string, mtimeMs: number): Promise<string> {
  const path = join(dir, rel);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, bytes);
  await utimes(path, mtimeMs / 1000, mtimeMs / 1000);
  return path;
}

/** The plain rollout `rel` of the fixtures and its zstd twin, each in a Codex home of its own under `dir`. */
async function twins(dir: string, rel: string, text?: string): Promise<{ plain: string; zst: string }> {
  const source = join(home, rel);
  const bytes = text === undefined ? await readFile(source) : Buffer.from(text);
  const mtimeMs = text === undefined ? (await stat(source)).mtimeMs : Date.parse('2026-01-09T00:00:00Z');
  const plain = await put(join(dir, 'plain'), rel, bytes, mtimeMs);
  const zst = await put(join(dir, 'zst'), `${rel}.zst`, zstdCompressSync(bytes), mtimeMs);
  return { plain, zst };
}

/** A session with what tells its file apart (path, size on disk) left out. */
function content(s: Session): Omit<Session, 'sourceFiles'> & { sourceFiles: unknown[] } {
  return { ...s, sourceFiles: s.sourceFiles.map(({ role, mtimeMs }) => ({ role, mtimeMs })) };
}

async function readBoth(pair: { plain: string; zst: string }): Promise<[Session, Session]> {
  const now = (await stat(pair.plain)).mtimeMs + HOUR;
  return [valid(await readCodexFile(pair.plain, now)), valid(await readCodexFile(pair.zst, now))];
}

/** A rollout of `turns` turns, each reply `replyBytes` long: random text (compresses about 2 times) or a repeated line (hundreds). */
function rollout(turns: number, replyBytes: number, random: boolean): string {
  const lines: unknown[] = [meta()];
  for (let i = 0; i < turns; i++) {
    const reply = random ? randomBytes(replyBytes / 2).toString('hex') : `line ${i} of a long build log\n`.repeat(replyBytes / 30);
    lines.push(
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: `question ${i}` }] }),
      item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: reply }] }),
      total(1000 * (i + 1), 500 * i, 100 * (i + 1), 10 * i),
    );
  }
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}

describe('claimsCodex: compressed rollouts', () => {
  it('claims a compressed rollout in sessions/ and archived_sessions/, never a temp file Codex writes while it compresses or restores one', () => {
    const claimed = [
      `/home/u/.codex/sessions/2026/02/14/rollout-2026-02-14T10-30-00-${PARENT}.jsonl.zst`,
      `/home/u/.codex/archived_sessions/rollout-2025-11-03T08-00-00-${FORK}.jsonl.zst`,
      `/home/u/.codex/archived_sessions/2025/11/03/rollout-2025-11-03T08-00-00-${FORK}.jsonl.zst`,
    ];
    const left = [
      '/home/u/.codex/sessions/2026/02/14/rollout-compress-a8Xk2p.tmp',
      `/home/u/.codex/sessions/2026/02/14/rollout-2026-02-14T10-30-00-${PARENT}.jsonl.decompress.4242.0.tmp`,
      `/home/u/.codex/sessions/2026/02/14/rollout-2026-02-14T10-30-00-${PARENT}.jsonl.zst.tmp`,
      `/home/u/.codex/sessions/2026/02/14/rollout-2026-02-14T10-30-00-${PARENT}.zst`,
      `/home/u/.codex/sessions/2026/02/14/rollout-2026-02-14T10-30-00-${PARENT}.jsonl.gz.zst`,
    ];
    expect([...claimed, ...left].map(claimsCodex)).toEqual([...claimed.map(() => true), ...left.map(() => false)]);
  });
});

describe('a compressed rollout reads as its plain twin', () => {
  it.each(Object.entries(fixtures))('%s: the same key, messages, usage, cost, links and warnings', async (_, rel) => {
    const [plain, zst] = await readBoth(await twins(testTempDir('sv-codex-zst-'), rel));
    expect(content(zst)).toEqual(content(plain));
    expect(zst.sourceFiles).toEqual([{ ...plain.sourceFiles[0], path: expect.stringMatching(/\.jsonl\.zst$/), size: expect.any(Number) }]);
    expect(zst.sourceFiles[0]!.size).toBeLessThan(plain.sourceFiles[0]!.size);
  });

  it('keeps the sub-agent link between two compressed rollouts', async () => {
    const dir = testTempDir('sv-codex-zst-');
    const [, parent] = await readBoth(await twins(dir, fixtures.parent));
    const [, child] = await readBoth(await twins(dir, fixtures.child));
    expect([parent.key, child.key, child.parentKey]).toEqual([`codex:${PARENT}`, `codex:${CHILD}`, `codex:${PARENT}`]);
    expect(parent.childKeys).toContain(`codex:${CHILD}`);
  });

  it('takes the id from a .jsonl.zst name when session_meta has none', async () => {
    const text = rollout(2, 300, false).replace(/"id":"0190aaaa[^"]*",/, '');
    const [plain, zst] = await readBoth(await twins(testTempDir('sv-codex-zst-'), SYNTHETIC, text));
    expect([zst.id, zst.key]).toEqual([plain.id, plain.key]);
    expect(zst.id).toBe('0190aaaa-0000-7000-8000-000000000001');
  });

  it('streams one that decompresses to more than 4 MB from a small file, and one over 256 KB on disk, to the same session', async () => {
    for (const [text, small] of [
      [rollout(60, 90_000, false), true],
      [rollout(20, 40_000, true), false],
    ] as const) {
      const pair = await twins(testTempDir('sv-codex-zst-'), SYNTHETIC, text);
      expect([text.length > 4 * 1024 * 1024 || !small, (await stat(pair.zst)).size <= 256 * 1024]).toEqual([true, small]);
      const [plain, zst] = await readBoth(pair);
      expect(content(zst)).toEqual(content(plain));
      expect(zst.messages).toHaveLength(small ? 120 : 40);
    }
  });
});

describe('a damaged compressed rollout', () => {
  it('that is no zstd file is listed unreadable with the decompressor’s reason', async () => {
    const dir = testTempDir('sv-codex-zst-');
    const path = await put(dir, `${SYNTHETIC}.zst`, '{"timestamp":"2026-01-02T03:04:05.000Z","type":"session_meta"}\n', Date.now());
    const err = await failure(() => readCodexFile(path));
    expect([err.code, err.message]).toEqual(['invalid_encoding', 'Cannot decompress this zstd file: Unknown frame descriptor']);
  });

  it('that is cut short shows the records before the cut, with a warning', async () => {
    const dir = testTempDir('sv-codex-zst-');
    const text = rollout(40, 20_000, true);
    const whole = zstdCompressSync(Buffer.from(text));
    const path = await put(dir, `${SYNTHETIC}.zst`, whole.subarray(0, Math.floor(whole.length / 2)), Date.now());
    const s = valid(await readCodexFile(path));
    expect(s.messages.length).toBeGreaterThan(4);
    expect(s.messages.length).toBeLessThan(80);
    expect(s.warnings.find((w) => w.code === 'truncated_stream')?.message).toMatch(/ends abruptly or is damaged \(unexpected end of file\)/);
  });

  it('that has bytes after its frame that are no frame keeps the lines before them and says so', async () => {
    const dir = testTempDir('sv-codex-zst-');
    const path = await put(dir, `${SYNTHETIC}.zst`, Buffer.concat([zstdCompressSync(rollout(2, 300, false)), Buffer.from('not a zstd frame')]), Date.now());
    const s = valid(await readCodexFile(path));
    expect(s.messages).toHaveLength(4);
    expect(s.warnings.find((w) => w.code === 'truncated_stream')?.message).toMatch(
      decodesEveryFrame ? /bytes that are no zstd frame follow the compressed data/ : /bytes follow the end of the first zstd frame/,
    );
  });

  it('that holds a second zstd frame is read through it, or says it was not read: never drops it without a word', async () => {
    const dir = testTempDir('sv-codex-zst-');
    const [first, second] = [rollout(2, 300, false), rollout(3, 300, false).split('\n').slice(1).join('\n')];
    const path = await put(dir, `${SYNTHETIC}.zst`, Buffer.concat([zstdCompressSync(first), zstdCompressSync(second)]), Date.now());
    const s = valid(await readCodexFile(path));
    const truncated = s.warnings.find((w) => w.code === 'truncated_stream')?.message;
    if (decodesEveryFrame) {
      // Node 24.22 and later decode concatenated frames, as `zstd -d` does (nodejs/node#64741).
      expect(s.messages).toHaveLength(10);
      expect(truncated).toBeUndefined();
    } else {
      expect(s.messages).toHaveLength(4);
      expect(truncated).toMatch(/bytes follow the end of the first zstd frame/);
    }
  });
});

describe('a compressed rollout outside the layout', () => {
  it('is recognised as Codex by its decompressed head, and read', async () => {
    const dir = testTempDir('sv-codex-zst-');
    const loose = join(dir, 'Downloads', 'old session.jsonl.zst');
    await mkdir(dirname(loose), { recursive: true });
    await writeFile(loose, zstdCompressSync(await readFile(join(home, fixtures.parent))));
    expect((await resolveReader(loose))?.format).toBe('codex');
    expect(valid(await readCodexFile(loose)).key).toBe(`codex:${PARENT}`);
  });
});
