// ccusage (the referee for Claude Code tokens and cost) run offline over a temp copy of the Claude Code samples, for the agreement tests.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { samplesDir } from './samples.ts';

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** ccusage's command as its package declares it (19.x is plain JavaScript; 20.x needs platform binaries the registry does not all have). */
const ccusagePackage = JSON.parse(readFileSync(join(repo, 'node_modules/ccusage/package.json'), 'utf8')) as { bin: { ccusage: string } };
const ccusageCli = join(repo, 'node_modules/ccusage', ccusagePackage.bin.ccusage);

/** One row of ccusage's JSON (a day or a session). */
export interface CcRow {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
  totalCost: number;
}
export const ccTokensOf = (r: CcRow) => [r.inputTokens, r.outputTokens, r.cacheReadTokens, r.cacheCreationTokens];
/** Costs agree to a millionth of a dollar or 0.1%, whichever is larger (float sums in a different order). */
export const costsAgree = (a: number, b: number) => Math.abs(a - b) <= Math.max(1e-6, 0.001 * Math.max(a, b));

// A session resumed into a new file: Claude Code copies earlier turns, same message ids and request ids.
export const ORIGINAL_ID = '44444444-4444-4444-8444-444444444444';
export const COPY_ID = '44444444-4444-4444-8444-4444444400c0';
const COPIED_FROM = `-home-user-src-demo/${ORIGINAL_ID}.jsonl`;

/** A temp CLAUDE_CONFIG_DIR holding the samples' and the fixtures' projects, plus a resumed copy of one session. */
export async function claudeSamplesRoot(prefix: string): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  const projects = join(root, 'projects');
  await cp(join(samplesDir, 'claude-code/projects'), projects, { recursive: true });
  await cp(join(repo, 'main/sources/claude-code/fixtures/projects'), projects, { recursive: true });
  const original = await readFile(join(projects, COPIED_FROM), 'utf8');
  await writeFile(join(projects, dirname(COPIED_FROM), `${COPY_ID}.jsonl`), original.replaceAll(ORIGINAL_ID, COPY_ID));
  return root;
}

/**
 * `ccusage claude <report> --offline --json --timezone UTC [extra]` over that folder (blocks: 5-hour windows, UTC hours
 * whatever the zone); a `--timezone` in `extra` wins over UTC (the last one given counts).
 */
export async function runCcusage(
  root: string,
  report: 'session' | 'daily' | 'weekly' | 'monthly' | 'blocks',
  ...extra: string[]
): Promise<Record<string, unknown>> {
  const env = { PATH: process.env.PATH ?? '', HOME: root, CLAUDE_CONFIG_DIR: root, NO_COLOR: '1' };
  const args = [ccusageCli, 'claude', report, '--offline', '--json', '--timezone', 'UTC', ...extra];
  const { stdout } = await promisify(execFile)(process.execPath, args, {
    cwd: root,
    env,
    maxBuffer: 16 << 20,
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}
