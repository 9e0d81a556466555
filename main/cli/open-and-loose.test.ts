// Session files wherever they lie, through the CLI as a user runs it: `list --root` over loose files, `open <file | session>`, and Codex's compressed rollouts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionSummary } from '../../shared/session.ts';
import { DatabaseSync } from 'node:sqlite';
import { zstdCompressSync } from 'node:zlib';
import { pathHash } from '../catalogue/catalogue-summary.ts';
import { SNAPSHOT_FILE } from './index-current.ts';
import { runCli, type CliRun } from '../test-support/run-cli.ts';
import { samplesDir } from '../test-support/samples.ts';

const LOOSE = join(samplesDir, 'loose');
/** The manifest's formats of samples/loose/, as reader formats. */
const LOOSE_FORMATS: Record<string, string> = {
  'claude-session (1).jsonl': 'claude-code',
  'rollout.jsonl': 'codex',
  'chat.json': 'gemini',
  'session-backup.json': 'jido-code',
  'ledger copy.jsonl': 'ai-agent',
};

let base: string;
const run = (args: string[]): Promise<CliRun> => runCli(args, { base });
const fileName = (s: SessionSummary) => s.primaryPath.split('/').at(-1)!;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-loose-'));
});
afterAll(async () => rm(base, { recursive: true, force: true }));

describe('session files outside any layout', () => {
  it('list --root samples/loose lists every file there with its format', async () => {
    const manifest = JSON.parse(await readFile(join(samplesDir, 'manifest.json'), 'utf8')) as { files: Array<{ path: string }> };
    expect(
      manifest.files
        .filter((f) => f.path.startsWith('loose/'))
        .map((f) => f.path.slice(6))
        .sort(),
    ).toEqual(Object.keys(LOOSE_FORMATS).sort());
    const { code, stdout } = await run(['list', '--json', '--root', LOOSE, '--no-defaults']);
    expect(code).toBe(0);
    const sessions = JSON.parse(stdout) as SessionSummary[];
    expect(Object.fromEntries(sessions.map((s) => [fileName(s), s.format]))).toEqual(LOOSE_FORMATS);
    expect(sessions.filter((s) => s.unreadable)).toEqual([]);
  });

  it('list reads a rollout under a Claude projects folder as Codex, and leaves out files that are no session', async () => {
    const root = join(base, 'mixed');
    const project = join(root, '.claude', 'projects', '-home-u-src-x');
    await mkdir(project, { recursive: true });
    await copyFile(join(LOOSE, 'rollout.jsonl'), join(project, '019dfed4-0000-7000-8000-00000000000a.jsonl'));
    await copyFile(join(LOOSE, 'claude-session (1).jsonl'), join(root, 'from-a-colleague.jsonl'));
    await writeFile(join(root, 'package.json'), JSON.stringify({ name: 'x', version: '1.0.0' }));
    await writeFile(join(root, 'events.jsonl'), '{"level":"info","msg":"started"}\n');
    const { code, stdout } = await run(['list', '--json', '--root', root, '--no-defaults']);
    expect(code).toBe(0);
    const sessions = JSON.parse(stdout) as SessionSummary[];
    expect(sessions.map((s) => [fileName(s), s.format]).sort()).toEqual([
      ['019dfed4-0000-7000-8000-00000000000a.jsonl', 'codex'],
      ['from-a-colleague.jsonl', 'claude-code'],
    ]);
  });

  it.each(Object.entries(LOOSE_FORMATS))('open --json %s prints its summary as %s', async (name, format) => {
    const { code, stdout } = await run(['open', '--json', join(LOOSE, name)]);
    expect(code).toBe(0);
    const summary = JSON.parse(stdout) as SessionSummary;
    expect([summary.format, summary.primaryPath, summary.unreadable]).toEqual([format, join(LOOSE, name), null]);
  });

  it('open prints a readable summary without adding a root', async () => {
    const { code, stdout } = await run(['open', join(LOOSE, 'rollout.jsonl')]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^title: +please summarize the build script$/m);
    expect(stdout).toMatch(/^format: +Codex \(codex\)$/m);
    expect(stdout).toMatch(/^branch: +main$/m);
    expect((await run(['list', '--json', '--no-defaults'])).stdout.trim()).toBe('[]');
  });

  it('open says clearly when a file is no session, is missing, or is not named', async () => {
    const notSession = join(base, 'package.json');
    await writeFile(notSession, '{"name":"x"}');
    const refused = await run(['open', notSession]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${notSession} is not a session file any reader recognises`);
    const missing = await run(['open', join(base, 'nope.jsonl')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no such file');
    const usage = await run(['open']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage: session-vault open');
  });

  it('open takes a session as list shows it (key, id or a unique start of one) when no file has that name', async () => {
    const listed = JSON.parse((await run(['list', '--json', '--root', LOOSE, '--no-defaults'])).stdout) as SessionSummary[];
    const codex = listed.find((s) => s.format === 'codex')!;
    for (const given of [codex.key, codex.id, codex.id.slice(0, 8)]) {
      const { code, stdout } = await run(['open', '--json', given, '--root', LOOSE, '--no-defaults']);
      expect(code).toBe(0);
      expect((JSON.parse(stdout) as SessionSummary).key).toBe(codex.key);
    }
    const text = await run(['open', codex.key, '--root', LOOSE, '--no-defaults']);
    expect(text.stdout).toMatch(/^format: +Codex \(codex\)$/m);
    const unknown = await run(['open', 'codex:no-such-session', '--root', LOOSE, '--no-defaults']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('cannot open codex:no-such-session: no such file, and no session matches "codex:no-such-session"');
  });

  it("a loose copy of a session never takes its key from the tool's own file, whichever root is read first", async () => {
    // samples/loose/claude-session (1).jsonl is a copy of the demo project's transcript: the same session id.
    const plain = 'claude-code:11111111-1111-4111-8111-111111111111';
    const own = join(samplesDir, 'claude-code', 'projects', '-home-user-src-demo', '11111111-1111-4111-8111-111111111111.jsonl');
    const claude = join(samplesDir, 'claude-code');
    for (const [dataDir, roots] of [
      ['loose-first', ['--root', LOOSE, '--root', claude]],
      ['own-first', ['--root', claude, '--root', LOOSE]],
    ] as const) {
      const listed = JSON.parse((await runCli(['list', '--json', '--no-defaults', ...roots], { base, dataDir })).stdout) as SessionSummary[];
      const copies = listed.filter((s) => s.key.startsWith(plain));
      expect(copies.map((s) => [s.key, s.primaryPath]).sort()).toEqual([
        [plain, own],
        [expect.stringMatching(/^claude-code:11111111-1111-4111-8111-111111111111~[0-9a-f]{8}$/), join(LOOSE, 'claude-session (1).jsonl')],
      ]);
      const opened = await runCli(['open', '--json', plain, '--no-defaults', ...roots], { base, dataDir });
      expect(opened.code).toBe(0);
      expect((JSON.parse(opened.stdout) as SessionSummary).primaryPath).toBe(own);
    }
  });

  it('an index and snapshot an older version left, with the loose copy under the plain key, are repaired by the next list', async () => {
    const plain = 'claude-code:11111111-1111-4111-8111-111111111111';
    const own = join(samplesDir, 'claude-code', 'projects', '-home-user-src-demo', '11111111-1111-4111-8111-111111111111.jsonl');
    const copy = join(LOOSE, 'claude-session (1).jsonl');
    const roots = ['--no-defaults', '--root', LOOSE, '--root', join(samplesDir, 'claude-code')];
    const dataDir = 'older';
    const list = async () => JSON.parse((await runCli(['list', '--json', ...roots], { base, dataDir })).stdout) as SessionSummary[];
    const holder = (sessions: SessionSummary[]) => sessions.find((s) => s.key === plain)?.primaryPath;
    expect(holder(await list())).toBe(own);
    // As the older version left them: the copy holds the plain key, the tool's own file its path-hashed one.
    const db = new DatabaseSync(join(base, dataDir, 'index.sqlite'));
    const ownKey = (db.prepare('SELECT key FROM files WHERE path = ?').get(copy) as { key: string }).key.replace(/~[0-9a-f]{8}$/, `~${pathHash(own)}`);
    db.prepare('UPDATE files SET key = ? WHERE path = ?').run(plain, copy);
    db.prepare('UPDATE files SET key = ? WHERE path = ?').run(ownKey, own);
    db.prepare("DELETE FROM index_state WHERE name = 'keys_by_layout'").run();
    db.close();
    const snapshotFile = join(base, dataDir, SNAPSHOT_FILE);
    const snapshot = JSON.parse(await readFile(snapshotFile, 'utf8')) as { layout: number };
    await writeFile(snapshotFile, JSON.stringify({ ...snapshot, layout: 2 }));
    expect(holder(await list())).toBe(own);
    expect(holder(await list())).toBe(own);
  });

  it('open names the reason when a file looks like a session but cannot be read', async () => {
    const dir = join(base, 'broken', '.jido_code', 'sessions');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'j.json'), '');
    const { code, stderr } = await run(['open', join(dir, 'j.json')]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/looks like a JidoCode session but cannot be read: .+/);
  });
});

describe('Codex rollouts compressed by Codex into .jsonl.zst', () => {
  const day = '.codex/sessions/2026/02/14';
  const PARENT = 'rollout-2026-02-14T10-30-00-0194f3a2-7c1d-7e00-9a5b-3c4d5e6f7a01.jsonl';
  const CHILD = 'rollout-2026-02-14T10-33-05-0194f3a5-1e2f-7a00-8b1c-2d3e4f5a6b02.jsonl';
  const BROKEN = 'rollout-2026-02-14T11-00-00-0194f3a9-0000-7000-8000-000000000009.jsonl.zst';
  const fixtures = join(import.meta.dirname, '..', 'sources', 'codex', 'fixtures', day);

  /** A Codex home whose parent rollout is both plain and compressed (Codex between writing the .zst and deleting the .jsonl), its child only compressed, and one damaged. */
  async function codexHome(name: string): Promise<string> {
    const root = join(base, name);
    await mkdir(join(root, day), { recursive: true });
    await copyFile(join(fixtures, PARENT), join(root, day, PARENT));
    for (const f of [PARENT, CHILD]) await writeFile(join(root, day, `${f}.zst`), zstdCompressSync(await readFile(join(fixtures, f))));
    await writeFile(join(root, day, BROKEN), 'no zstd frame here\n');
    return root;
  }

  it('list shows each session once, the compressed child under its parent as its plain file would be, and the damaged file with its reason', async () => {
    const root = await codexHome('zst-list');
    const { code, stdout } = await run(['list', '--json', '--root', root, '--no-defaults']);
    expect(code).toBe(0);
    const sessions = JSON.parse(stdout) as SessionSummary[];
    expect(sessions.map((s) => [fileName(s), s.key, s.childCount, s.unreadable?.message ?? null]).sort()).toEqual([
      [PARENT, 'codex:0194f3a2-7c1d-7e00-9a5b-3c4d5e6f7a01', 1, null],
      [BROKEN, 'codex:rollout-2026-02-14T11-00-00-0194f3a9-0000-7000-8000-000000000009', 0, 'Cannot decompress this zstd file: Unknown frame descriptor'],
    ]);
  });

  it('open reads a .jsonl.zst as its plain file, and names why a damaged one cannot be read', async () => {
    const root = await codexHome('zst-open');
    const opened = async (path: string) => {
      const { code, stdout } = await run(['open', '--json', path]);
      expect(code).toBe(0);
      const { primaryPath, size, mtimeMs, ...rest } = JSON.parse(stdout) as SessionSummary;
      return { primaryPath, size, mtimeMs, rest };
    };
    const zst = await opened(join(root, day, `${PARENT}.zst`));
    const plain = await opened(join(root, day, PARENT));
    expect(zst.primaryPath).toBe(join(root, day, `${PARENT}.zst`));
    expect(zst.rest).toEqual(plain.rest);
    expect([zst.rest.key, zst.rest.messageCount, zst.rest.totalTokens]).toEqual(['codex:0194f3a2-7c1d-7e00-9a5b-3c4d5e6f7a01', 16, plain.rest.totalTokens]);
    const broken = await run(['open', join(root, day, BROKEN)]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('looks like a Codex session but cannot be read: Cannot decompress this zstd file: Unknown frame descriptor');
  });
});
