// `usage` answers from the index as it is when nothing changed below the roots since its last full run, and scans again when something did.
import { cp, mkdtemp, rm, utimes, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplesDir } from '../test-support/samples.ts';
import { runCli } from '../test-support/run-cli.ts';
import { fastUsage } from './usage-fast-path.ts';

let base: string;
let root: string;
const dataDir = () => join(base, 'data');
const env = () => ({ ...process.env, SESSION_VAULT_HOME: dataDir(), HOME: join(base, 'home') });
const daily = async () => {
  const run = await runCli(['usage', 'daily', '--json', '--timezone', 'UTC', '--no-defaults', '--root', root], { base });
  expect(run.code, run.stderr).toBe(0);
  return { ...(JSON.parse(run.stdout) as Record<string, unknown>), tookMs: 0 };
};
const fast = () => fastUsage(dataDir(), { roots: [root], noDefaults: true }, env(), { report: 'period', input: { period: 'daily', timezone: 'UTC' } });

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-usage-fast-'));
  root = join(base, 'claude');
  await cp(join(samplesDir, 'claude-code'), root, { recursive: true });
  // Older than the run, as files on a machine are: a run refuses a snapshot of what changed while it scanned.
  const past = new Date(Date.now() - 3_600_000);
  for (const dir of [root, join(root, 'projects'), join(root, 'projects/-home-user-src-demo')]) await utimes(dir, past, past);
}, 60_000);

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

describe('usage without a scan', () => {
  it('answers from the index alone once a full run saw nothing change, with the same figures', async () => {
    expect(await fast()).toBeNull();
    const first = await daily();
    await daily();
    const again = await fast();
    expect(again).not.toBeNull();
    expect({ ...again, tookMs: 0 }).toEqual(first);
  }, 120_000);

  it('scans again when a session file grows, or a new one appears', async () => {
    const file = join(root, 'projects/-home-user-src-demo/11111111-1111-4111-8111-111111111111.jsonl');
    await appendFile(file, '\n');
    expect(await fast()).toBeNull();
    await daily();
    await daily();
    expect(await fast()).not.toBeNull();
    await writeFile(join(root, 'projects/-home-user-src-demo/new.jsonl'), '');
    expect(await fast()).toBeNull();
  }, 120_000);

  it('scans again for other roots, and for a query on what only the vault knows', async () => {
    await daily();
    await daily();
    expect(await fastUsage(dataDir(), { roots: [root, samplesDir], noDefaults: true }, env(), { report: 'period', input: { period: 'daily' } })).toBeNull();
    expect(
      await fastUsage(dataDir(), { roots: [root], noDefaults: true }, env(), { report: 'period', input: { period: 'daily', query: 'is:starred' } }),
    ).toBeNull();
  }, 120_000);
});
