// `session-vault export` and a session that names a file outside every root (issue #20.1): the file is named as left out, never shipped.
import { runCli, type CliRun } from '../test-support/run-cli.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipAll } from '../bundle/test-zip.ts';

const MARKER = 'CLI-PRIVATE-MARKER-51c2';
let base: string;
let root: string;
let secret: string;

const run = (args: string[]): Promise<CliRun> => runCli(args, { base });

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-cli-outside-'));
  root = join(base, 'root');
  secret = join(base, 'private', 'secret.txt');
  await mkdir(join(base, 'private'), { recursive: true });
  await writeFile(secret, `${MARKER}\n`);
  const dir = join(root, 'cloned', '.vizier', 'sessions', 'evil-9');
  await mkdir(dir, { recursive: true });
  const session = { id: 'evil-9', repo: { root: '/' }, chat: [{ role: 'user', content: 'look' }], artifacts: [secret] };
  await writeFile(join(dir, 'session.json'), JSON.stringify(session));
});
afterAll(async () => rm(base, { recursive: true, force: true }));

describe('session-vault export and files outside every root', () => {
  it('--dry-run names the file as left out; the export leaves it out of the zip', async () => {
    const dry = await run(['export', 'vizier:evil-9', '--dry-run', '--root', root]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('Left out 1 file(s) the sessions name, never read:');
    expect(dry.stdout).toContain(secret);
    const out = join(base, 'share.zip');
    const r = await run(['export', 'vizier:evil-9', '-o', out, '--no-redact', '--root', root]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`  ${secret}  `);
    expect((await readFile(out)).subarray(0, 2).toString()).toBe('PK');
    for (const [name, data] of await unzipAll(out)) expect(data.toString('latin1').includes(MARKER), name).toBe(false);
  });
});
