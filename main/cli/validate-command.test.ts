// `session-vault validate`: exit 0 for a valid session, 1 with each problem's JSON path, 2 for usage mistakes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openSession } from '../recorder/open-session.ts';

const RUN = resolve(import.meta.dirname, 'cli.ts');
const FIXTURES = resolve(import.meta.dirname, 'fixtures/validate');
const VALID = join(FIXTURES, 'valid-session.json');
const INVALID = join(FIXTURES, 'invalid-session.json');
let base: string;

function validate(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [RUN, 'validate', ...args], (err, stdout, stderr) => done({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }));
  });
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-validate-'));
});
afterAll(async () => rm(base, { recursive: true, force: true }));

describe('session-vault validate', () => {
  it('accepts a valid session and a session the writer just wrote', async () => {
    const s = await openSession({ sessionsDir: base, env: {}, repo: { root: null, current_branch: null, head_sha: null } });
    await s.append({ role: 'user', content: 'hello' });
    await s.close({ status: 'accepted' });
    const r = await validate([VALID, s.path as string]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${VALID}: valid\n${s.path}: valid\n`);
  });

  it('lists every problem with its JSON path and exits 1', async () => {
    const r = await validate([INVALID]);
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe(`${INVALID}: invalid (9 problems)`);
    expect(lines.slice(1).map((l) => l.trim().split(':')[0])).toEqual([
      '$.id',
      '$.created_at',
      '$.repo.head_sha',
      '$.config_effective["model.name"].provenance',
      '$.chat[0].role',
      '$.operations[0].type',
      '$.operations[0].detail',
      '$.operations[0].vcs.staged.R',
      '$.outcome.status',
    ]);
    expect(r.stdout).toContain('$.operations[0].vcs.staged.R: is missing');
    expect(r.stdout).toContain('$.id: must be a UUID version 7');
    expect(r.stderr).toContain('1 of 1 file did not validate.');
  });

  it('reports broken JSON, a missing file and --json output', async () => {
    const cut = join(base, 'cut.json');
    await writeFile(cut, '{"id": "0195c2d4-7a10-7c3e-9f21-5b8e0d4a6c13", "chat": [');
    const broken = await validate([cut, join(base, 'absent.json')]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain('$: Invalid JSON: Unexpected end of JSON input.');
    expect(broken.stdout).toContain('cut off while being written');
    expect(broken.stdout).toMatch(/absent\.json: invalid \(1 problem\)\n {2}\$: cannot be read: ENOENT: no such file/);

    const json = await validate(['--json', VALID, INVALID]);
    const [good, bad] = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(good).toEqual({ file: VALID, valid: true, problems: [] });
    expect(bad.problems[0]).toEqual({ path: '$.id', message: expect.stringContaining('UUID version 7') });
  });

  it('exits 2 without a file or with an unknown option', async () => {
    expect((await validate([])).code).toBe(2);
    expect((await validate(['--strict', VALID])).code).toBe(2);
    expect((await validate(['--help'])).stdout).toContain('Usage: session-vault validate');
  });
});
